// cpu suite, stages with a shared-memory tile (v2_shared on): the copies between global and
// shared memory. load_tile and store_tile move kKeysPerThread keys per thread, at the tile
// positions tile_slot gives; together the threads of a block must move every key of the tile
// exactly once, for every block width from one thread to a full block.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "bitonic_index.h"

TEST_CASE("the threads of a block copy their whole tile, every key exactly once") {
  for (unsigned block_threads = 1; block_threads <= kTileSize / kKeysPerThread;
       block_threads *= 2) {
    std::vector<int> moved(kKeysPerThread * block_threads, 0);
    bool inside = true;
    for (unsigned thread = 0; thread < block_threads; ++thread) {
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        const unsigned slot = tile_slot(thread, k, block_threads);
        inside = inside && slot < moved.size();
        if (slot < moved.size()) {
          ++moved[slot];
        }
      }
    }
    INFO("block of " << block_threads << " threads");
    CHECK(inside);
    CHECK(std::all_of(moved.begin(), moved.end(), [](int count) { return count == 1; }));
  }
}

TEST_CASE("the tile is a power of two and a whole number of keys per thread") {
  CHECK((kTileSize & (kTileSize - 1)) == 0);
  CHECK(kTileSize % kKeysPerThread == 0);
  CHECK(kTileSize / kKeysPerThread <= 1024);
}
