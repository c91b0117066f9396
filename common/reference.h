// reference.h: the bitonic sorting network on the host, the yardstick for the stages.
//
// The network for n = 2^k keys is a fixed list of steps. Step (size, stride), for size = 2, 4,
// ..., n and stride = size/2, ..., 2, 1, compares every element i with its partner i XOR stride
// (the partner above it, i < partner) and puts the smaller one first when the block of `size`
// elements holding i sorts ascending, which is the case exactly when bit `size` of i is 0.
// For a descending sort every direction is flipped. docs/01_network.md explains why this sorts.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

// One compare-exchange: after it, keys[lower] <= keys[upper] if ascending, else >=.
struct Comparator {
  std::uint32_t lower;
  std::uint32_t upper;
  bool ascending;
};

// The (size, stride) steps of the network for n keys, in the order they must run.
std::vector<std::pair<std::uint32_t, std::uint32_t>> network_steps(std::uint32_t n);

// The n/2 comparators of one step, ordered by their lower element.
std::vector<Comparator> network_step_comparators(std::uint32_t n, std::uint32_t size,
                                                 std::uint32_t stride, bool ascending);

// Runs the whole network on keys; keys.size() must be a power of two. Returns how many
// compare-exchanges found their pair out of order and swapped it: the pairs that a stage which
// writes only what moved (v0's compare_and_swap) writes back.
std::uint64_t reference_bitonic_sort(std::vector<int> &keys, bool ascending);

// What std::sort makes of keys (with std::greater for descending). Large inputs are cut into
// pieces that std::sort handles on several threads, then merged with std::merge: the same
// result, a few times sooner on a machine with many cores.
std::vector<int> std_sorted_copy(const std::vector<int> &keys, bool ascending);

// Sorts each of the `arrays` arrays of `segment` consecutive keys from `keys` on its own with
// std::sort, on this thread (the std::sort baseline, and each thread of the copy below).
void std_sort_segments(int *keys, std::size_t arrays, std::size_t segment, bool ascending);

// What std::sort makes of every array of `segment` consecutive keys, each sorted on its own
// (keys.size() a multiple of segment), on several threads for large inputs.
std::vector<int> std_sorted_segments_copy(const std::vector<int> &keys, std::size_t segment,
                                          bool ascending);
