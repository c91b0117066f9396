// cpu suite, stages with a register phase (v3_warp on): the register layout, warp_slot.
//
// In the register phase thread t holds the tile keys warp_slot(t, k, lanes), k = 0 ..
// kKeysPerThread - 1, in lane t % lanes of its warp. A shuffle with lane mask `stride` hands it
// the register k of lane (t % lanes) ^ stride of the same warp. The test checks, for every block
// width from one thread to a full block, that every key of the tile sits in exactly one register
// of one thread, and that for every stride the register phase runs (those below the lanes of
// the warp) the lane a shuffle reads exists, is named by the mask, and holds the partner key.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "bitonic_index.h"

TEST_CASE("every key once, and every pair in one register of two lanes of one warp") {
  for (unsigned block_threads = 1; block_threads <= kTileSize / kKeysPerThread;
       block_threads *= 2) {
    const unsigned lanes = warp_lanes(block_threads);
    const unsigned mask = lane_mask(lanes);
    std::vector<int> held(kKeysPerThread * block_threads, 0);
    bool inside = true;
    bool pairs_right = true;
    for (unsigned thread = 0; thread < block_threads; ++thread) {
      const unsigned lane = thread % lanes;
      const unsigned warp_start = thread - lane;
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        const unsigned slot = warp_slot(thread, k, lanes);
        inside = inside && slot < held.size();
        if (slot < held.size()) {
          ++held[slot];
        }
        for (unsigned stride = 1; stride < lanes; stride *= 2) {
          const unsigned source_lane = lane ^ stride;
          pairs_right = pairs_right && source_lane < lanes && ((mask >> source_lane) & 1u) == 1u &&
              warp_slot(warp_start + source_lane, k, lanes) == (slot ^ stride);
        }
      }
    }
    INFO("block of " << block_threads << " threads");
    CHECK(inside);
    CHECK(std::all_of(held.begin(), held.end(), [](int count) { return count == 1; }));
    CHECK(pairs_right);
  }
}

TEST_CASE("a warp holds one run of consecutive keys: register k of lane l holds key l + 32 k") {
  // The run of warp w starts after the kKeysPerThread * 32 keys of each warp before it.
  for (unsigned warp = 0; warp < 4; ++warp) {
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        CHECK(warp_slot(warp * kWarpSize + lane, k, kWarpSize) ==
              warp * kWarpSize * kKeysPerThread + lane + k * kWarpSize);
      }
    }
  }
}
