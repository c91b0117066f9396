// cpu suite, stages with several keys per thread in registers in the in-block kernels
// (v7_register_tile on): the bank model (bank_model.h) on every shared-memory access of an
// exchange between layouts, as the source writes them and as the machine code makes them.
//
// In the thread-major layout the lanes of a warp hold keys kKeysPerThread apart (16 in v7, 8 in
// v8). As written, a warp's store or load of one register asks the banks for 32 words that far
// apart: a kKeysPerThread-way conflict. But without padding the compiler merges each 4
// neighbouring registers of a thread into one 16-byte access (STS.128 and LDS.128 in the
// unpadded build's machine code, docs/results/h100/sass.csv), so what the banks see is
// kKeysPerThread / 4 such accesses per exchange, each served a quarter warp at a time. With
// padded() the accesses stay 4-byte ones (a thread's padded words are not 16-byte aligned, and
// the machine code has STS and LDS only) and the model must find no conflict left, in the
// thread-major layout and in every lane-major layout a merge uses.
#include <doctest/doctest.h>

#include <vector>

#include "bank_model.h"
#include "bitonic_index.h"

namespace {

// The worst ways of a warp's accesses to register k, over all k, in layout `low`.
template <typename Word>
unsigned worst_ways_of_layout(unsigned low, Word word) {
  unsigned worst = 0;
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    worst = std::max(worst, worst_ways(kBlockThreads, [&](unsigned thread) {
                       return word(layout_slot(thread, k, low));
                     }));
  }
  return worst;
}

// The passes of one exchange's accesses to the thread-major layout by the first warp, as the
// unpadded machine code makes them: registers 4 v .. 4 v + 3 of lane l are one 16-byte access
// from word layout_slot(l, 4 v, 0).
unsigned unpadded_thread_major_passes() {
  unsigned passes = 0;
  for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
    std::vector<unsigned> first_words;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      first_words.push_back(layout_slot(lane, 4 * v, 0));
    }
    passes += wide_access_passes(first_words, 4);
  }
  return passes;
}

// The same with padding: kKeysPerThread 4-byte accesses, one per register.
unsigned padded_thread_major_passes() {
  unsigned passes = 0;
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    std::vector<unsigned> first_words;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      first_words.push_back(padded(layout_slot(lane, k, 0)));
    }
    passes += wide_access_passes(first_words, 1);
  }
  return passes;
}

}  // namespace

TEST_CASE("as written, the thread-major layout conflicts without padding, and not with it") {
  CHECK(worst_ways_of_layout(0, [](unsigned slot) { return slot; }) == kKeysPerThread);
  CHECK(worst_ways_of_layout(0, [](unsigned slot) { return padded(slot); }) == 1);
}

TEST_CASE("as compiled, each unpadded 16-byte access takes kKeysPerThread passes where 4 do") {
  // A quarter warp's 8 lanes, kKeysPerThread words apart, touch 8 runs of 4 words: in v7 they
  // fall on 8 banks, 4 words each (16 passes for the 4 quarters), in v8 on 16 banks, 2 words
  // each (8 passes). An access of 512 bytes needs 4 passes of 128 at the least.
  const unsigned accesses = kKeysPerThread / 4;
  CHECK(unpadded_thread_major_passes() == accesses * kKeysPerThread);
  // Padded: kKeysPerThread 4-byte accesses of one pass each.
  CHECK(padded_thread_major_passes() == kKeysPerThread);
  // So the padding trades kKeysPerThread / 4 wide instructions for kKeysPerThread narrow ones
  // and cuts the passes by kKeysPerThread / 4: 4x in v7, 2x in v8.
  CHECK(unpadded_thread_major_passes() / padded_thread_major_passes() == kKeysPerThread / 4);
}

TEST_CASE("every lane-major layout of a merge's round is conflict-free, padded or not") {
  for (unsigned top_bit = 0; top_bit < kTileBits; ++top_bit) {
    const unsigned low = round_layout(top_bit);
    if (low == 0) {
      continue;
    }
    INFO("round of a merge from bit " << top_bit << ", layout " << low);
    CHECK(low >= 5);
    CHECK(worst_ways_of_layout(low, [](unsigned slot) { return slot; }) == 1);
    CHECK(worst_ways_of_layout(low, [](unsigned slot) { return padded(slot); }) == 1);
  }
}

TEST_CASE("the padded tile fits in the words the kernels reserve") {
  unsigned largest = 0;
  for (unsigned thread = 0; thread < kBlockThreads; ++thread) {
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      largest = std::max(largest, padded(layout_slot(thread, k, 0)));
    }
  }
  CHECK(largest < padded(kTileSize));
}
