// cpu suite, stages with one thread per compare pair (v4_half_threads on).
//
// get_lower_partner must be a bijection from the n / 2 threads of a step onto the lower elements
// of its pairs: with upper = lower + stride and the direction sorts_ascending(lower, ...), the
// threads must produce every comparator of the reference network exactly once, for every stride
// of every size up to 2^16. Inside a block, the tile-local pairs must be the global pairs. It
// must also be the same function as the three forms other programs use for it
// (docs/06_v4_half_threads.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "bitonic_index.h"
#include "reference_network.h"

TEST_CASE("the worked examples of get_lower_partner") {
  CHECK(get_lower_partner(6, 4) == 10);
  CHECK(get_lower_partner(6, 1) == 12);
  CHECK(get_lower_partner(6, 8) == 6);
  CHECK(get_lower_partner(11, 4) == 19);
  CHECK(get_lower_partner(0, 1 << 20) == 0);
}

TEST_CASE("get_lower_partner equals the three other forms of the same function") {
  for (unsigned log2_stride = 0; log2_stride < 16; ++log2_stride) {
    const unsigned stride = 1u << log2_stride;
    for (unsigned t = 0; t < 5000; ++t) {
      const unsigned lower = get_lower_partner(t, stride);
      // The CUDA samples' sorting network: 2 * t - (t & (stride - 1)).
      CHECK(lower == 2 * t - (t & (stride - 1)));
      // Daskalopoulos' report: t + ((t >> s) << s), with stride = 2^s.
      CHECK(lower == t + ((t >> log2_stride) << log2_stride));
      // Rousomanis: the run start (t >> s) << (s + 1), plus the offset t & (stride - 1).
      CHECK(lower == ((t >> log2_stride) << (log2_stride + 1)) + (t & (stride - 1)));
    }
  }
}

TEST_CASE("one thread per pair covers every comparator of every step exactly once, up to 2^16") {
  for (unsigned q = 1; q <= 16; ++q) {
    const unsigned n = 1u << q;
    for (const bool ascending : {true, false}) {
      bool all_right = true;
      for (const auto &[size, stride] : network_steps(n)) {
        // Thread t's comparator, in the order of the threads; the reference lists its
        // comparators by lower element, and get_lower_partner is increasing in t.
        const std::vector<Comparator> expected =
            network_step_comparators(n, size, stride, ascending);
        for (unsigned thread = 0; thread < n / 2; ++thread) {
          const unsigned lower = get_lower_partner(thread, stride);
          const Comparator &c = expected[thread];
          all_right = all_right && lower == c.lower && lower + stride == c.upper &&
              sorts_ascending(lower, size, ascending) == c.ascending;
        }
      }
      INFO("n = 2^" << q << (ascending ? ", ascending" : ", descending"));
      CHECK(all_right);
    }
  }
}

TEST_CASE("inside a block, the tile-local pair of a thread is its global pair") {
  // Block b of the in-block kernels owns tile b: keys b * tile_size ..; its thread t is global
  // thread b * tile_size / 2 + t. Sizes from 2 keys to 4 tiles cover n below one tile.
  for (unsigned n = 2; n <= 4 * kTileSize; n *= 2) {
    const unsigned tile_size = n < kTileSize ? n : kTileSize;
    const unsigned block_threads = tile_size / 2;
    bool all_right = true;
    for (unsigned stride = 1; stride < tile_size; stride *= 2) {
      for (unsigned block = 0; block < n / tile_size; ++block) {
        for (unsigned t = 0; t < block_threads; ++t) {
          const unsigned lower = get_lower_partner(t, stride);
          all_right = all_right && lower + stride < tile_size &&
              block * tile_size + lower == get_lower_partner(block * block_threads + t, stride);
        }
      }
    }
    INFO("n = " << n);
    CHECK(all_right);
  }
}
