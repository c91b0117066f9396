// cpu suite, stages with in-block kernels and one thread per key (v1_fused .. v3_warp).
//
// The in-block kernels run every step whose stride is below the tile inside one block, with the
// block's own tile of tile_size = min(n, kTileSize) keys, thread `local` owning key
// i = tile start + local. That is only right if every such step pairs two keys of one tile, and
// if the partner found from the tile-local index is the global partner. The steps of a tile or
// more must cross tiles, which is why they keep a launch of their own.
#include <doctest/doctest.h>

#include "bitonic_index.h"
#include "reference_network.h"

TEST_CASE("steps below the tile stay inside one tile; the tile-local partner is the right one") {
  // Sizes from 1 key to 4 tiles, so that n smaller than one tile is covered too.
  for (unsigned n = 1; n <= 4 * kTileSize; n *= 2) {
    const unsigned tile_size = n < kTileSize ? n : kTileSize;
    for (const auto &[size, stride] : network_steps(n)) {
      INFO("n = " << n << ", size " << size << ", stride " << stride);
      bool inside = true;
      bool local_partner_right = true;
      bool crosses = true;
      for (unsigned i = 0; i < n; ++i) {
        const unsigned partner = partner_index(i, stride);
        const unsigned tile_start = i / tile_size * tile_size;
        if (stride < tile_size) {
          inside = inside && partner / tile_size == i / tile_size;
          const unsigned local = i - tile_start;
          local_partner_right =
              local_partner_right && tile_start + partner_index(local, stride) == partner;
        } else {
          crosses = crosses && partner / tile_size != i / tile_size;
        }
      }
      CHECK(inside);
      CHECK(local_partner_right);
      CHECK(crosses);
    }
  }
}

TEST_CASE("the tile is a power of two no larger than a block") {
  CHECK((kTileSize & (kTileSize - 1)) == 0);
  CHECK(kTileSize <= 1024);
}
