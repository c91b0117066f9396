// bank_model.h: a host model of the shared-memory banks, for the tests and the docs.
//
// Shared memory is split into 32 banks; 4-byte word w lives in bank w % 32. A warp instruction
// in which lane l touches word address(l) is served in as many passes as the largest number of
// different words any one bank is asked for (lanes asking for the same word share one access).
// 1 means no conflict; 2 means a 2-way conflict, the instruction runs twice.
//
// bank_pair_model.h applies it to the shared-memory accesses of v4_half_threads and
// v5_bank_free, banks_v6_test.cpp to those of v6_multistep and v7_batched.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bitonic_index.h"

constexpr unsigned kBanks = 32;

// The passes one warp instruction needs, given the word each lane touches.
inline unsigned bank_ways(const std::vector<unsigned> &words) {
  std::map<unsigned, std::set<unsigned>> words_per_bank;
  for (unsigned word : words) {
    words_per_bank[word % kBanks].insert(word);
  }
  unsigned ways = 0;
  for (const auto &bank : words_per_bank) {
    ways = std::max(ways, static_cast<unsigned>(bank.second.size()));
  }
  return ways;
}

// The worst over all warps of a block of block_threads threads, thread t touching address(t).
template <typename Address>
unsigned worst_ways(unsigned block_threads, Address address) {
  const unsigned lanes = warp_lanes(block_threads);
  unsigned worst = 0;
  for (unsigned warp_start = 0; warp_start < block_threads; warp_start += lanes) {
    std::vector<unsigned> words;
    for (unsigned t = warp_start; t < warp_start + lanes; ++t) {
      words.push_back(address(t));
    }
    worst = std::max(worst, bank_ways(words));
  }
  return worst;
}
