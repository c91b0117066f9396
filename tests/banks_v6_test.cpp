// cpu suite, stages with several keys per thread in registers in the in-block kernels
// (v6_multistep on): the bank model (bank_model.h) on every shared-memory access of an exchange
// between layouts.
//
// In the thread-major layout the lanes of a warp hold keys kKeysPerThread apart (16 in v6, 8 in
// v7), so a warp's store or load of one register asks the banks for 32 words that far apart:
// without padding, 32 / kKeysPerThread banks for all 32 lanes, a kKeysPerThread-way conflict.
// padded() puts one spare word after every 32; the model must find no conflict left, in the
// thread-major layout and in every lane-major layout a merge uses.
#include <doctest/doctest.h>

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

}  // namespace

TEST_CASE("the thread-major layout conflicts without padding, and not with it") {
  CHECK(worst_ways_of_layout(0, [](unsigned slot) { return slot; }) == kKeysPerThread);
  CHECK(worst_ways_of_layout(0, [](unsigned slot) { return padded(slot); }) == 1);
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
