// reference_network.h: the bitonic sorting network on the host, the yardstick the tests hold
// every stage's index helpers and launch plan to, and the comparators the figures draw.
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

// The network's mirrored form (docs/20_v18_mirrored.md), step by step: the same steps, but the
// first step of each merge (stride = size / 2) pairs i with its mirror image in its block of
// `size`, i ^ (size - 1), and every comparator is ascending. n/2 comparators, ordered by their
// lower element; a descending sort flips the keys before and after.
std::vector<Comparator> mirrored_step_comparators(std::uint32_t n, std::uint32_t size,
                                                  std::uint32_t stride);

// Runs the whole network on keys; keys.size() must be a power of two. Returns how many
// compare-exchanges found their pair out of order and swapped it: the pairs that a stage which
// writes only what moved (v0's compare_and_swap) writes back.
std::uint64_t reference_bitonic_sort(std::vector<int> &keys, bool ascending);
