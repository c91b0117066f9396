#include "group_rules.h"

#include <cstdio>
#include <set>

#include "bitonic_index.h"

namespace {

// The position of the one set bit of x.
unsigned bit_of(unsigned x) {
  return static_cast<unsigned>(__builtin_ctz(x));
}

// Which bit of the thread (lane bits 0 .. 4, warp bits above) or of the register index holds
// each slot bit in layout `low`: group_slot of one thread bit or one register bit at a time.
void print_roles(unsigned low) {
  for (unsigned t = 0; (1u << t) < kGroupThreads; ++t) {
    std::printf("role %u %u %s %u\n", low, bit_of(group_slot(1u << t, 0, low)),
                t < 5 ? "lane" : "warp", t < 5 ? t : t - 5);
  }
  for (unsigned r = 0; r < kGroupRegisterBits; ++r) {
    std::printf("role %u %u register %u\n", low, bit_of(group_slot(0, 1u << r, low)), r);
  }
}

}  // namespace

void print_group_pass(unsigned top_bit, unsigned lowest_bit) {
  for (unsigned b = 0; b < kGroupBits; ++b) {
    std::printf("key %u %u\n", b, bit_of(group_key(0, 1u << b, top_bit)));
  }
  for (unsigned j = 0; j < 20; ++j) {
    const unsigned index_bit = bit_of(group_key(1u << j, 0, top_bit));
    if (index_bit > 20) {
      break;
    }
    std::printf("group %u %u\n", j, index_bit);
  }
  // group_steps's rounds (run_rounds), every step of the pass: from slot bit 13 down to the
  // lowest bit, each round on the registers round_low gives, then the layout of the store.
  std::set<unsigned> layouts;
  unsigned bit = kGroupBits - 1;
  while (true) {
    const unsigned low = round_low(bit, lowest_bit);
    std::printf("round %u %u %u\n", low, bit, low);
    layouts.insert(low);
    if (low <= lowest_bit) {
      break;
    }
    bit = low - 1;
  }
  const unsigned store = lowest_bit < 5 ? 5 : lowest_bit;
  std::printf("store %u\n", store);
  layouts.insert(store);
  for (unsigned low : layouts) {
    print_roles(low);
  }
}

unsigned long long group_passes(unsigned n) {
  return launches_per_sort(n);
}
