// cpu suite, v5_bank_free and the stages built on it: the bank model (bank_model.h) on their
// shared-memory accesses. Thread t moves tile words t and t + blockDim.x, so the 32 lanes of a
// warp touch 32 consecutive words, one in each bank: the model must find 1 way (no conflict) for
// every shared-memory access of the in-block kernels, at every block width.
#include <doctest/doctest.h>

#include "bank_pair_model.h"
#include "bitonic_index.h"

TEST_CASE("no shared-memory access is a bank conflict, at any block width") {
  for (unsigned block_threads = 1; block_threads <= kTileSize / kKeysPerThread;
       block_threads *= 2) {
    INFO("block of " << block_threads << " threads");
    CHECK(worst_ways_of_tile_moves(block_threads) == 1);
    CHECK(worst_ways_of_compare_steps(block_threads) == 1);
    CHECK(worst_ways_of_register_phase(block_threads) == 1);
  }
}
