// cpu suite, v23_vector_stores on: the bank model (bank_model.h) on store_fours, the store of a
// tile of keys alone four keys to a 16-byte store, as the source writes it.
//
// Each thread first writes its kKeysPerThread keys thread-major (the accesses banks_layout_test
// checks). Then, for v = 0 .. kKeysPerThread / 4 - 1, it reads keys four_store_slot(t, v) + j,
// j = 0 .. 3, back and writes them to global memory with one 16-byte store. For every block of
// full warps (a tile of 512 keys or more; a smaller block stores key by key) the reads must cover
// the tile once, a warp's store must write 512 consecutive bytes, the kernel's words (its base
// plus constants) must be the padded positions, and each read of a warp must ask every bank for
// one word at most.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "bank_model.h"
#include "bitonic_index.h"

TEST_CASE("four_store_slot: the example of bitonic_index.h") {
  // Thread 35 is lane 3 of warp 1: store 2 writes keys 512 + 2 * 128 + 4 * 3 = 780 .. 783.
  CHECK(four_store_slot(35, 2) == 780);
  CHECK(four_store_slot(0, 0) == 0);
}

TEST_CASE("store_fours writes every key of the tile once, 512 consecutive bytes a warp's store") {
  for (unsigned threads = kWarpSize; threads <= kBlockThreads; threads *= 2) {
    INFO(threads << " threads, " << threads * kKeysPerThread << " keys");
    std::vector<unsigned> writes(threads * kKeysPerThread, 0);
    for (unsigned t = 0; t < threads; ++t) {
      for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
        for (unsigned j = 0; j < 4; ++j) {
          REQUIRE(four_store_slot(t, v) + j < writes.size());
          ++writes[four_store_slot(t, v) + j];
        }
      }
    }
    CHECK(std::count(writes.begin(), writes.end(), 1u) == static_cast<long>(writes.size()));
    // A warp's store v: lane l's four keys follow lane l - 1's, 128 keys (512 bytes) in all.
    for (unsigned t = 0; t < threads; t += kWarpSize) {
      for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
        for (unsigned lane = 1; lane < kWarpSize; ++lane) {
          CHECK(four_store_slot(t + lane, v) == four_store_slot(t, v) + 4 * lane);
        }
      }
    }
  }
}

TEST_CASE("four_store_word: the example of bitonic_index.h") {
  // Thread 35, store 2: base padded(524) = 540, plus padded(256) = 264.
  CHECK(padded(four_store_slot(35, 0)) == 540);
  CHECK(four_store_word(540, 2) == 804);
  CHECK(padded(780) == 804);
}

TEST_CASE("store_fours' words, its base plus constants, are the padded positions") {
  // The kernel reads word four_store_word(padded(base), v) + j for key four_store_slot(t, v) + j,
  // with base = four_store_slot(t, 0).
  for (unsigned t = 0; t < kBlockThreads; ++t) {
    const unsigned base = four_store_slot(t, 0);
    for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
      for (unsigned j = 0; j < 4; ++j) {
        CHECK(four_store_word(padded(base), v) + j == padded(four_store_slot(t, v) + j));
      }
    }
  }
}

TEST_CASE("store_fours' reads of the padded tile are conflict-free, and not without padding") {
  for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
    for (unsigned j = 0; j < 4; ++j) {
      INFO("store " << v << ", word " << j);
      const auto word = [&](unsigned t) { return padded(four_store_slot(t, v) + j); };
      CHECK(worst_ways(kBlockThreads, word) == 1);
      // Unpadded, lanes l and l + 8 are 32 words apart, in one bank: four ways.
      const auto unpadded = [&](unsigned t) { return four_store_slot(t, v) + j; };
      CHECK(worst_ways(kBlockThreads, unpadded) == 4);
    }
  }
}
