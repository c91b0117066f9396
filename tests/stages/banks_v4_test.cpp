// cpu suite, v4_half_threads: the bank model (bank_model.h) on v4's shared-memory accesses.
// Thread t moves tile words 2t and 2t + 1, so in one instruction lanes l and l + 16 ask one
// bank for two different words: the model must find exactly 2 ways for the tile's loads and
// stores in a full block, and 1 (no conflict) for everything else.
#include <doctest/doctest.h>

#include <vector>

#include "bank_pair_model.h"
#include "bitonic_index.h"

TEST_CASE("v4's tile loads and stores are 2-way bank conflicts in every full warp") {
  CHECK(worst_ways_of_tile_moves(kTileSize / kKeysPerThread) == 2);
  CHECK(worst_ways_of_tile_moves(32) == 2);
  // A block of 16 threads touches 32 words, one per bank: a tile this small has no conflict.
  CHECK(worst_ways_of_tile_moves(16) == 1);
}

TEST_CASE("the compare steps and the register phase are conflict-free") {
  for (unsigned block_threads = 1; block_threads <= kTileSize / kKeysPerThread;
       block_threads *= 2) {
    INFO("block of " << block_threads << " threads");
    CHECK(worst_ways_of_compare_steps(block_threads) == 1);
    CHECK(worst_ways_of_register_phase(block_threads) == 1);
  }
}

TEST_CASE("as compiled, v4's two tile moves are one 8-byte access: 2 passes, as v5's two take") {
  // The machine code merges tile[2t] and tile[2t + 1] into one STS.64 (LDS.64 for the loads),
  // docs/results/h100/sass.csv. A warp's 8-byte access is served 16 lanes at a time, and
  // each half warp touches 32 consecutive words: 2 passes, none of them a conflict.
  std::vector<unsigned> first_words;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    first_words.push_back(tile_slot(lane, 0, kTileSize / kKeysPerThread));
  }
  CHECK(wide_access_passes(first_words, 2) == 2);
}
