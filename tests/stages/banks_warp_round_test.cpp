// cpu suite, v24_warp_rounds on: the words of a warp's round (warp_round_slot), the two
// exchanges through which each warp moves its keys between the thread-major layout (0) and the
// layout with the registers on tile bits 4 .. 7 (kRegisterBits), behind a warp's barrier alone.
//
// That barrier is enough only if every key stays in its warp's part of the tile; the round moves
// the keys correctly only if the word of a tile position is the same in both layouts; and it is
// free of bank conflicts only if each warp's store or load of one register asks every bank for
// one word. The model checks all three for every thread and register of a block, and that
// padded() alone, without the swap of bits 4 and 8, conflicts in layout kRegisterBits.
// Which merges take the round (takes_warp_round, as merge_in_block asks it) and which sorts
// launch the kernel built with rounds (sort_takes_warp_round) are checked against the list the
// chapter gives: merges of 256, 512, 2048 and 4096 keys, runs of 256 keys or more.
// store_fours' barriers rest on two facts checked last: each warp reads back only keys its own
// threads wrote (so the warp's barrier is enough between the writes and the reads), and a sort
// that launches the kernel built without rounds makes no exchange through the tile (so that
// kernel has no loads to wait for before the writes).
#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "bank_model.h"
#include "bitonic_index.h"

namespace {

const unsigned kRoundLayouts[] = {0, kRegisterBits};

}  // namespace

TEST_CASE("swap_bits_4_and_8 and warp_round_slot: the examples of bitonic_index.h") {
  CHECK(swap_bits_4_and_8(289) == 49);
  CHECK(swap_bits_4_and_8(49) == 289);
  CHECK(swap_bits_4_and_8(0x110) == 0x110);  // bits 4 and 8 both set: nothing changes
  CHECK(swap_bits_4_and_8(0xeef) == 0xeef);  // both clear
  // Layout 4, thread 17, register 2: tile position 289, swapped 49, the word padded(49) = 50.
  CHECK(layout_slot(17, 2, kRegisterBits) == 289);
  CHECK(warp_round_slot(17, 2, kRegisterBits) == 50);
}

TEST_CASE("takes_warp_round: the merges of 256, 512, 2048 and 4096 keys, in whole warps") {
  // The merge of 2^size_bit keys as merge_in_block opens it: its round across warps leaves the
  // bits below round_layout, a first step across lanes one bit fewer.
  for (unsigned size_bit = kRegisterBits + 1; size_bit <= kTileBits; ++size_bit) {
    const unsigned size = 1u << size_bit;
    const unsigned low = round_layout(size_bit - 1);
    const unsigned top_bit = low != 0 ? low - 1 : size_bit - 2;
    const bool listed = size == 256 || size == 512 || size == 2048 || size == 4096;
    INFO("merge of " << size << " keys");
    CHECK(takes_warp_round(top_bit, kWarpSize) == listed);
    // A block smaller than a warp (a sort of fewer than 512 keys) makes no round.
    CHECK_FALSE(takes_warp_round(top_bit, kWarpSize / 2));
  }
}

TEST_CASE("sort_takes_warp_round: runs of 256 keys or more, in blocks of whole warps") {
  for (unsigned run = 2; run <= kTileSize; run *= 2) {
    INFO("runs of " << run << " keys");
    CHECK(sort_takes_warp_round(run, kWarpSize) == (run >= 256));
  }
  // One array of 256 keys: one block of 16 threads, no whole warp.
  CHECK_FALSE(sort_takes_warp_round(256, warp_lanes(256 / kKeysPerThread)));
  CHECK(sort_takes_warp_round(512, warp_lanes(512 / kKeysPerThread)));
}

TEST_CASE("a tile position has one word in both layouts of the round: the base plus a constant") {
  for (const unsigned layout : kRoundLayouts) {
    for (unsigned t = 0; t < kBlockThreads; ++t) {
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        INFO("layout " << layout << ", thread " << t << ", register " << k);
        CHECK(warp_round_slot(t, k, layout) ==
              padded(swap_bits_4_and_8(layout_slot(t, k, layout))));
      }
    }
  }
}

TEST_CASE("the round keeps every key in its warp's part of the tile, one key a word") {
  const unsigned warp_keys = kWarpSize * kKeysPerThread;
  for (const unsigned layout : kRoundLayouts) {
    for (unsigned warp = 0; warp < kBlockThreads / kWarpSize; ++warp) {
      INFO("layout " << layout << ", warp " << warp);
      std::set<unsigned> words;
      for (unsigned t = warp * kWarpSize; t < (warp + 1) * kWarpSize; ++t) {
        for (unsigned k = 0; k < kKeysPerThread; ++k) {
          const unsigned position = layout_slot(t, k, layout);
          CHECK(position / warp_keys == warp);
          words.insert(warp_round_slot(t, k, layout));
        }
      }
      CHECK(words.size() == warp_keys);
      // The warp's words are those of its own positions, and no other warp's.
      CHECK(*words.begin() == padded(warp * warp_keys));
      CHECK(*words.rbegin() == padded((warp + 1) * warp_keys - 1));
    }
  }
}

TEST_CASE("both layouts of the round are free of bank conflicts; padded() alone is not") {
  for (const unsigned layout : kRoundLayouts) {
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      INFO("layout " << layout << ", register " << k);
      CHECK(worst_ways(kBlockThreads, [&](unsigned t) { return warp_round_slot(t, k, layout); }) ==
            1);
    }
  }
  // Unswapped, layout kRegisterBits puts lane bit 4 on tile bit 8, 264 words on: bank 8, where
  // lanes 8 .. 15 meet lanes 16 .. 23, two ways.
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    CHECK(worst_ways(kBlockThreads,
                     [&](unsigned t) { return padded(layout_slot(t, k, kRegisterBits)); }) == 2);
  }
}

TEST_CASE("store_fours: each warp reads back only the keys its own threads wrote") {
  // Thread-major, tile position p is written by thread p / kKeysPerThread.
  for (unsigned t = 0; t < kBlockThreads; ++t) {
    for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
      for (unsigned j = 0; j < 4; ++j) {
        const unsigned writer = (four_store_slot(t, v) + j) / kKeysPerThread;
        INFO("thread " << t << ", store " << v << ", key " << j << ", written by " << writer);
        CHECK(writer / kWarpSize == t / kWarpSize);
      }
    }
  }
}

TEST_CASE("a sort without rounds makes no exchange through the tile before its store") {
  // The kernel built without rounds runs where sort_takes_warp_round is false; in blocks of whole
  // warps its merges must all open across lanes (round_layout 0), never with a round across warps.
  for (unsigned run = 2; run <= kTileSize; run *= 2) {
    if (sort_takes_warp_round(run, kWarpSize)) {
      continue;
    }
    for (unsigned size_bit = kRegisterBits + 1; (1u << size_bit) <= run; ++size_bit) {
      INFO("runs of " << run << " keys, merge of " << (1u << size_bit));
      CHECK(round_layout(size_bit - 1) == 0);
    }
  }
}
