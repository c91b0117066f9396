// cpu suite, v5_bank_free: the bank model (bank_model.h) on v5's shared-memory accesses.
// Thread t moves tile words t and t + blockDim.x, so the 32 lanes of a warp touch 32
// consecutive words, one in each bank: the model must find 1 way (no conflict) for every
// shared-memory access of the in-block kernels, at every block width.
#include <doctest/doctest.h>

#include "bank_model.h"
#include "bitonic_index.h"

TEST_CASE("every thread moves two keys, and together the block moves its whole tile once") {
  for (unsigned block_threads = 1; block_threads <= kTileSize / 2; block_threads *= 2) {
    INFO("block of " << block_threads << " threads");
    CHECK(moves_whole_tile_once(block_threads, [&](unsigned thread, unsigned k) {
      return tile_slot(thread, k, block_threads);
    }));
  }
}

TEST_CASE("no shared-memory access of v5 is a bank conflict, at any block width") {
  for (unsigned block_threads = 1; block_threads <= kTileSize / 2; block_threads *= 2) {
    INFO("block of " << block_threads << " threads");
    const auto v5_slot = [&](unsigned thread, unsigned k) {
      return tile_slot(thread, k, block_threads);
    };
    CHECK(worst_ways_of_tile_moves(block_threads, v5_slot) == 1);
    CHECK(worst_ways_of_compare_steps(block_threads) == 1);
    CHECK(worst_ways_of_register_phase(block_threads) == 1);
  }
}
