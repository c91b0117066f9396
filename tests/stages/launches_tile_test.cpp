// cpu suite, stages with in-block kernels (v1_fused .. v5_bank_free): launches_per_sort, the
// closed form the chapters give, equals the launches the network's split calls for. Every step
// of a size up to the tile runs in the one block_sort launch; for a larger size, every step of a
// stride of a tile or more is one bitonic_step launch, and the steps below the tile share one
// block_merge launch. The gpu suite then checks the formula against the launches counted.
#include <doctest/doctest.h>

#include "bitonic_index.h"
#include "reference_network.h"

TEST_CASE("launches_per_sort follows the split of the network, for every n up to 2^30") {
  for (unsigned q = 0; q <= 30; ++q) {
    const unsigned n = 1u << q;
    const unsigned tile_size = n < kTileSize ? n : kTileSize;
    unsigned long long launches = n >= 2 ? 1 : 0;
    for (const auto &[size, stride] : network_steps(n)) {
      if (size > tile_size && stride >= tile_size) {
        ++launches;
      } else if (size > tile_size && stride == tile_size / 2) {
        ++launches;
      }
    }
    INFO("n = 2^" << q);
    CHECK(launches_per_sort(n) == launches);
  }
}
