// The index rules of v13_any_bits's groups (its bitonic_index.h), for network_dump: group_rules.cpp
// is compiled against that header, network_dump.cpp against v6_multistep's, and the two headers
// share names, so each is seen by one translation unit only.
#pragma once

// Prints the group of one group_steps pass whose largest stride is 2^top_bit (13 .. 30) and
// whose rounds may end at slot bit lowest_bit (5 for a pass of global strides, 0 for the merge
// below 2^14), as docs/figures.py draws it:
//   key SLOT_BIT INDEX_BIT           the index bit group_key gives each of the 14 slot bits
//   group BIT INDEX_BIT              the same for the group number's low bits, up to index bit 20
//   round LOW FIRST LAST             a round in the kernel's order: registers on slot bits
//                                    LOW .. LOW + 4, steps on slot bits FIRST down to LAST
//   store LOW                        the layout the keys are stored from
//   role LOW SLOT_BIT lane|warp|register BIT   which bit of the thread or register holds each
//                                    slot bit in layout LOW (group_slot)
void print_group_pass(unsigned top_bit, unsigned lowest_bit);

// launches_per_sort(n) of v13_any_bits.
unsigned long long group_passes(unsigned n);
