// cpu suite, stages with multistep passes (v6_multistep on): launches_per_sort, the formula the
// chapter gives, equals the launches the network's split calls for. Every step of a size up to
// the tile runs in the one block_sort launch; for a larger size, its strides of a tile or more
// run kStepsPerPass at a time in multistep passes (the last pass of a merge takes what is left),
// and the strides below the tile share one block_merge launch. The gpu suite then checks the
// formula against the launches counted.
#include <doctest/doctest.h>

#include "bitonic_index.h"
#include "reference_network.h"

TEST_CASE("launches_per_sort follows the split into multistep passes, for every n up to 2^30") {
  for (unsigned q = 0; q <= 30; ++q) {
    const unsigned n = 1u << q;
    const unsigned tile_size = n < kTileSize ? n : kTileSize;
    unsigned long long launches = n >= 2 ? 1 : 0;
    unsigned global_steps_in_pass = 0;
    for (const auto &[size, stride] : network_steps(n)) {
      if (size <= tile_size) {
        continue;
      }
      if (stride >= tile_size) {
        // A new pass starts with the first global stride of a merge and after every
        // kStepsPerPass of them.
        if (stride == size / 2 || global_steps_in_pass == kStepsPerPass) {
          ++launches;
          global_steps_in_pass = 0;
        }
        ++global_steps_in_pass;
      } else if (stride == tile_size / 2) {
        ++launches;
      }
    }
    INFO("n = 2^" << q);
    CHECK(launches_per_sort(n) == launches);
  }
}

TEST_CASE("the pass counts the chapters quote") {
  // With six steps per pass: 1 + 16 block_merge + 30 multistep at 2^29 with an 8192-key tile
  // (v7_register_tile), 1 + 18 + 36 with a 2048-key tile (v6_multistep, v8_batched).
  if (kTileSize == 8192 && kStepsPerPass == 6) {
    CHECK(launches_per_sort(1u << 29) == 47);
    CHECK(launches_per_sort(1u << 27) == 39);
  }
  if (kTileSize == 2048 && kStepsPerPass == 6) {
    CHECK(launches_per_sort(1u << 29) == 55);
    CHECK(launches_per_sort(1u << 27) == 47);
  }
  CHECK(launches_per_sort(kTileSize) == 1);
  CHECK(launches_per_sort(2 * kTileSize) == 3);
}
