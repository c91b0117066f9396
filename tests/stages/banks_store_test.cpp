// cpu suite, v8_batched: the bank model (bank_model.h) on store_through_tile, the store of
// block_sort's tile through shared memory, as the source writes it.
//
// Each thread first writes its kKeysPerThread keys thread-major: slot t * kKeysPerThread + k,
// the accesses banks_layout_test checks. Then, for v = 0 .. kKeysPerThread / 4 - 1, thread t
// reads four store_four(v, t, blockDim.x) back, word j of it from slot 4 four + j, and
// stores the four to global memory as one 16-byte store. For every block the kernels launch
// (one thread per kKeysPerThread keys, up to kBlockThreads) the reads must cover the tile once,
// slot by slot, and each read of a warp must ask every bank for one word at most.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "bank_model.h"
#include "bitonic_index.h"

namespace {

// The slot that word j of four v of thread t reads, in a block of `threads` threads: word j of
// the four that store_four (bitonic_index.h, the helper the kernel calls) gives the thread.
unsigned four_slot(unsigned v, unsigned t, unsigned j, unsigned threads) {
  return 4 * store_four(v, t, threads) + j;
}

}  // namespace

TEST_CASE("store_four: the fours of a round are consecutive across the block") {
  // bitonic_index.h's example: 256 threads, round 1 of thread 1 is four 257, keys 1028 .. 1031.
  CHECK(store_four(1, 1, 256) == 257);
  CHECK(store_four(0, 31, 256) + 1 == store_four(0, 32, 256));
}

TEST_CASE("store_through_tile reads every slot of the tile once") {
  for (unsigned threads = 1; threads <= kBlockThreads; threads *= 2) {
    INFO(threads << " threads, " << threads * kKeysPerThread << " keys");
    std::vector<unsigned> reads(threads * kKeysPerThread, 0);
    for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
      for (unsigned t = 0; t < threads; ++t) {
        for (unsigned j = 0; j < 4; ++j) {
          const unsigned slot = four_slot(v, t, j, threads);
          REQUIRE(slot < reads.size());
          ++reads[slot];
        }
      }
    }
    CHECK(std::count(reads.begin(), reads.end(), 1u) == static_cast<long>(reads.size()));
  }
}

TEST_CASE("store_through_tile's reads of the padded tile are conflict-free for every block") {
  for (unsigned threads = 1; threads <= kBlockThreads; threads *= 2) {
    for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
      for (unsigned j = 0; j < 4; ++j) {
        INFO(threads << " threads, four " << v << ", word " << j);
        const auto word = [&](unsigned t) { return padded(four_slot(v, t, j, threads)); };
        CHECK(worst_ways(threads, word) == 1);
      }
    }
  }
}

TEST_CASE("unpadded, the same reads conflict: the padding is what spreads them") {
  // Lanes t and t + 8 are 32 words apart unpadded, in one bank: a 4-way conflict in a warp.
  const auto word = [](unsigned t) { return four_slot(0, t, 0, kBlockThreads); };
  CHECK(worst_ways(kBlockThreads, word) == 4);
}
