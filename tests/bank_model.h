// bank_model.h: a host model of the shared-memory banks, for the tests and the docs.
//
// Shared memory is split into 32 banks; 4-byte word w lives in bank w % 32. A warp instruction
// in which lane l touches word address(l) is served in as many passes as the largest number of
// different words any one bank is asked for (lanes asking for the same word share one access).
// 1 means no conflict; 2 means a 2-way conflict, the instruction runs twice.
//
// The accesses modelled are every shared-memory access of the in-block kernels of
// v4_half_threads and v5_bank_free: the tile's loads and stores (tile_slot), the compare steps of
// strides of a warp or more (get_lower_partner, + stride), and the register phase (warp_slot).
// The stage's bitonic_index.h is the one on the include path of the test that includes this.
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

// The tile loads and stores: slot(t, k) is the tile element thread t moves in its k-th load
// and store (the stage's tile_slot). The worst ways over both k.
template <typename Slot>
unsigned worst_ways_of_tile_moves(unsigned block_threads, Slot slot) {
  unsigned worst = 0;
  for (unsigned k = 0; k < 2; ++k) {
    worst = std::max(worst, worst_ways(block_threads, [&](unsigned t) { return slot(t, k); }));
  }
  return worst;
}

// Whether the block's threads, two slots each, move every element of the tile exactly once.
template <typename Slot>
bool moves_whole_tile_once(unsigned block_threads, Slot slot) {
  std::vector<int> moved(2 * block_threads, 0);
  for (unsigned t = 0; t < block_threads; ++t) {
    for (unsigned k = 0; k < 2; ++k) {
      const unsigned element = slot(t, k);
      if (element >= moved.size()) {
        return false;
      }
      ++moved[element];
    }
  }
  return std::all_of(moved.begin(), moved.end(), [](int count) { return count == 1; });
}

// The worst ways of the compare steps (lower and upper element of every stride the shared
// phase runs) and of the register phase's loads and stores, for a block of block_threads.
inline unsigned worst_ways_of_compare_steps(unsigned block_threads) {
  const unsigned lanes = warp_lanes(block_threads);
  unsigned worst = 0;
  for (unsigned stride = lanes; stride < 2 * block_threads; stride *= 2) {
    worst = std::max(
        worst, worst_ways(block_threads, [&](unsigned t) { return get_lower_partner(t, stride); }));
    worst = std::max(worst, worst_ways(block_threads, [&](unsigned t) {
                       return get_lower_partner(t, stride) + stride;
                     }));
  }
  return worst;
}

inline unsigned worst_ways_of_register_phase(unsigned block_threads) {
  const unsigned lanes = warp_lanes(block_threads);
  unsigned worst = 0;
  for (unsigned k = 0; k < 2; ++k) {
    worst = std::max(worst,
                     worst_ways(block_threads, [&](unsigned t) { return warp_slot(t, k, lanes); }));
  }
  return worst;
}
