// cpu suite, stages with several keys per thread in registers in the in-block kernels
// (v7_register_tile on).
//
// layout_slot places a thread's registers on the tile; round_layout says which layout a merge's
// one round through shared memory uses. The test checks that every layout covers every key of
// the tile exactly once, that a register bit and a lane bit pair keys as far apart as their
// stride, and then plays block_sort and block_merge on the host, step by step, with these
// helpers and the kernels' order of steps (merge_in_block: the round's register steps, the
// shuffle steps, the last register steps; keys flipped where a merge runs descending). The
// pairs they compare must be the reference network's, each once, in the right direction, step
// by step, for every tile from 2 keys to kTileSize and both orders.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "bitonic_index.h"
#include "block_player.h"
#include "reference_network.h"

TEST_CASE("every layout covers the tile once, and its bits pair keys their stride apart") {
  for (unsigned low = 0; low + kRegisterBits <= kTileBits; ++low) {
    std::vector<int> held(kTileSize, 0);
    bool strides_right = true;
    for (unsigned thread = 0; thread < kBlockThreads; ++thread) {
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        const unsigned slot = layout_slot(thread, k, low);
        REQUIRE(slot < kTileSize);
        ++held[slot];
        for (unsigned bit = 0; bit < kRegisterBits; ++bit) {
          if ((k & (1u << bit)) == 0) {
            strides_right = strides_right &&
                layout_slot(thread, k + (1u << bit), low) == slot + (1u << (low + bit));
          }
        }
      }
    }
    INFO("layout " << low);
    CHECK(std::all_of(held.begin(), held.end(), [](int count) { return count == 1; }));
    CHECK(strides_right);
  }
  // Thread-major: lane bit c pairs keys 2^(kRegisterBits + c) apart, in the same register.
  for (unsigned thread = 0; thread < kBlockThreads; ++thread) {
    for (unsigned c = 0; c < 5; ++c) {
      if ((thread & (1u << c)) == 0) {
        CHECK(layout_slot(thread ^ (1u << c), 3, 0) ==
              layout_slot(thread, 3, 0) + (1u << (kRegisterBits + c)));
      }
    }
  }
  // The worked examples of bitonic_index.h (v7_register_tile's, and v8_batched's).
  if (kRegisterBits == 4) {
    CHECK(layout_slot(37, 3, 9) == 1573);
  } else {
    CHECK(layout_slot(37, 3, 8) == 805);
  }
}

TEST_CASE("a register's padded word is its thread's padded base plus a constant for the register") {
  // v22_slot_offsets' exchange writes padded(layout_slot(thread, k, low)) as
  // padded(layout_slot(thread, 0, low)) + padded(k << low): the thread's bits and the register's
  // share no bit, so no carry crosses from one to the other. True of every stage's layout_slot
  // and padded; checked for each layout, thread and register (a mirrored round's base is another
  // thread's, covered by "each thread").
  for (unsigned low = 0; low + kRegisterBits <= kTileBits; ++low) {
    bool sums = true;
    for (unsigned thread = 0; thread < kBlockThreads; ++thread) {
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        sums = sums &&
            padded(layout_slot(thread, k, low)) ==
                padded(layout_slot(thread, 0, low)) + padded(k << low);
      }
    }
    INFO("layout " << low);
    CHECK(sums);
  }
  // The worked example of v22_slot_offsets' header: layout 6, thread 5, register 3.
  if (kRegisterBits == 4) {
    CHECK(padded(layout_slot(5, 3, 6)) == 203);
    CHECK(padded(layout_slot(5, 0, 6)) + padded(3u << 6) == 203);
  }
}

TEST_CASE("lane-major layouts: a warp's access to one register is 32 consecutive keys") {
  for (unsigned low = 5; low + kRegisterBits <= kTileBits; ++low) {
    for (unsigned warp = 0; warp < kBlockThreads / kWarpSize; ++warp) {
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        const unsigned first = layout_slot(warp * kWarpSize, k, low);
        for (unsigned lane = 1; lane < kWarpSize; ++lane) {
          CHECK(layout_slot(warp * kWarpSize + lane, k, low) == first + lane);
        }
      }
    }
  }
}

TEST_CASE("a tile of whole warps covers its keys once in the layout of its lanes (low = 5)") {
  // v19's store_through_tile moves a tile of 32 or more threads to layout 5 before it stores:
  // every tile from one warp to a block must fill its own keys, each once.
  for (unsigned threads = kWarpSize; threads <= kBlockThreads; threads *= 2) {
    std::vector<int> held(threads * kKeysPerThread, 0);
    for (unsigned thread = 0; thread < threads; ++thread) {
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        const unsigned slot = layout_slot(thread, k, 5);
        REQUIRE(slot < held.size());
        ++held[slot];
      }
    }
    INFO("threads " << threads);
    CHECK(std::all_of(held.begin(), held.end(), [](int count) { return count == 1; }));
  }
  // The worked example of store_through_tile: thread 35 (lane 3 of warp 1), register 2, is
  // 3 + 2 * 32 + 512 with 16 keys a thread (a warp's keys: 32 << kRegisterBits).
  CHECK(layout_slot(35, 2, 5) == 3 + 2 * 32 + (kWarpSize << kRegisterBits));
}

TEST_CASE("block_sort, played on the host, is the network of every size up to its tile") {
  for (unsigned tile_size = 2; tile_size <= kTileSize; tile_size *= 2) {
    // Two tiles, so that the second sorts in the other direction.
    const unsigned n = 2 * tile_size;
    for (const bool ascending : {true, false}) {
      bool all_right = true;
      for (unsigned tile_start = 0; tile_start < n; tile_start += tile_size) {
        BlockPlayer block(tile_start, tile_size);
        block.sort_thread_keys(tile_size, [&](unsigned i, unsigned size) {
          return sorts_ascending(i, size, ascending);
        });
        for (unsigned size = 2 * kKeysPerThread; size <= tile_size; size *= 2) {
          for (unsigned thread = 0; thread < block.threads(); ++thread) {
            const unsigned first = tile_start + layout_slot(thread, 0, 0);
            block.set_flip(thread, !sorts_ascending(first, size, ascending));
          }
          block.merge(exact_log2(size) - 1);
        }
        std::vector<std::vector<Comparator>> expected;
        for (const auto &[size, stride] : network_steps(tile_size)) {
          expected.push_back(reference_step(n, size, stride, ascending, tile_start, tile_size));
        }
        all_right = all_right && block.steps.size() == expected.size();
        for (std::size_t s = 0; all_right && s < expected.size(); ++s) {
          all_right = same_comparators(block.steps[s], expected[s]);
        }
      }
      INFO("tile of " << tile_size << (ascending ? ", ascending" : ", descending"));
      CHECK(all_right);
    }
  }
}

TEST_CASE("block_merge, played on the host, is the network's steps below the tile") {
  for (unsigned n = 2 * kTileSize; n <= 4 * kTileSize; n *= 2) {
    for (unsigned size = 2 * kTileSize; size <= n; size *= 2) {
      for (const bool ascending : {true, false}) {
        bool all_right = true;
        for (unsigned tile_start = 0; tile_start < n; tile_start += kTileSize) {
          BlockPlayer block(tile_start, kTileSize);
          for (unsigned thread = 0; thread < block.threads(); ++thread) {
            block.set_flip(thread, !sorts_ascending(tile_start, size, ascending));
          }
          block.merge(kTileBits - 1);
          all_right = all_right && block.steps.size() == kTileBits;
          for (unsigned s = 0; all_right && s < kTileBits; ++s) {
            const unsigned stride = kTileSize >> (s + 1);
            all_right = same_comparators(
                block.steps[s], reference_step(n, size, stride, ascending, tile_start, kTileSize));
          }
        }
        INFO("n = " << n << ", size " << size << (ascending ? ", ascending" : ", descending"));
        CHECK(all_right);
      }
    }
  }
}
