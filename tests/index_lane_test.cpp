// cpu suite, v3_warp: with one key per thread, the lane that __shfl_xor_sync reads from holds
// the partner key.
//
// Thread `local` holds key `local` of its tile, in lane local % lanes of its warp. A shuffle with
// lane mask `stride` returns the register of lane (lane ^ stride) of the same warp; the test
// checks that this lane exists, is named by the mask, and holds key partner_index(local, stride),
// for every stride the register phase runs (those below the lanes of the warp) and every block
// width from one thread to 1024.
#include <doctest/doctest.h>

#include "bitonic_index.h"

TEST_CASE("lane ^ stride holds the partner key, for every block width") {
  for (unsigned block_threads = 1; block_threads <= 1024; block_threads *= 2) {
    const unsigned lanes = warp_lanes(block_threads);
    const unsigned mask = lane_mask(lanes);
    bool all_right = true;
    for (unsigned local = 0; local < block_threads; ++local) {
      const unsigned lane = local % lanes;
      const unsigned warp_start = local - lane;
      for (unsigned stride = 1; stride < lanes; stride *= 2) {
        const unsigned source_lane = lane ^ stride;
        all_right = all_right && source_lane < lanes && ((mask >> source_lane) & 1u) == 1u &&
            warp_start + source_lane == partner_index(local, stride);
      }
    }
    INFO("block of " << block_threads << " threads");
    CHECK(all_right);
  }
}
