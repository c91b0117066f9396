// bank_model.h: a host model of the shared-memory banks, for the tests and the docs.
//
// Shared memory is split into 32 banks; 4-byte word w lives in bank w % 32. A warp instruction
// in which lane l touches word address(l) is served in as many passes as the largest number of
// different words any one bank is asked for (lanes asking for the same word share one access).
// 1 means no conflict; 2 means a 2-way conflict, the instruction runs twice. The compiler may
// merge neighbouring 4-byte accesses of a thread into one wider access (wide_access_passes).
//
// bank_pair_model.h applies it to the shared-memory accesses of v4_half_threads and
// v5_bank_free, banks_layout_test.cpp to those of v7_register_tile and v8_batched, and
// banks_store_test.cpp to v8_batched's store of its tile through shared memory.
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

// The passes one warp instruction needs when each lane touches `width` consecutive words (1, 2
// or 4: a 4-, 8- or 16-byte access), lane l from word first_words[l]. A wide access moves 128
// bytes per pass at most, so the warp is served in groups of 32 / width lanes, one group after
// the other, and each group takes as many passes as bank_ways finds among the words its lanes
// touch. That is what Nsight Compute counts for v4's 8-byte accesses (chapter 7: 2 passes, no
// conflict) and for v7's unpadded 16-byte ones (chapter 9).
inline unsigned wide_access_passes(const std::vector<unsigned> &first_words, unsigned width) {
  const unsigned group = kBanks / width;
  unsigned passes = 0;
  for (std::size_t start = 0; start < first_words.size(); start += group) {
    std::vector<unsigned> words;
    for (std::size_t lane = start; lane < start + group && lane < first_words.size(); ++lane) {
      for (unsigned w = 0; w < width; ++w) {
        words.push_back(first_words[lane] + w);
      }
    }
    passes += bank_ways(words);
  }
  return passes;
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
