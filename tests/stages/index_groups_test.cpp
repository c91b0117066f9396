// cpu suite, stages whose passes hold groups of any 14 index bits (v13_any_bits on).
//
// A group_steps launch gives block g the 2^14 keys group_key(g, slot, top_bit), slot = 0 ..
// 2^14 - 1, and thread t of the block register k of them, slot group_slot(t, k, low), in each
// round of the pass (round_low). The test plays every group_steps launch that for_each_launch
// makes for n up to 2^17 keys, in arrays of every length from a tile up, as the kernel plays
// them: the rounds, their register steps, the direction of each thread's keys. It checks that the
// pairs compared are the reference network's, each exactly once and in the right direction,
// step by step; that each group holds every key once; that the keys of a thread share their
// direction in every round and when stored; that a warp's loads and stores are 32 neighbouring
// keys; and that every exchange reaches 32 different banks with the 32 lanes of a warp
// (group_word). The round loop itself is the kernel's, replayed here; the gpu suite runs it.
// The kernel works out register k's key and word as its thread's part (register 0) combined
// with k's part, the same in every thread; key_of and word_of below do the same, and a test
// checks that they equal group_key and group_word of the whole slot.
#include <doctest/doctest.h>

#include <map>
#include <vector>

#include "bitonic_index.h"
#include "group_checks.h"
#include "reference_network.h"

namespace {

// Register k's key in group_steps: its thread's first key plus the index of k << low.
unsigned key_of(unsigned group, unsigned t, unsigned k, unsigned low, unsigned top_bit) {
  return group_key(group, group_slot(t, 0, low), top_bit) + group_key(0, k << low, top_bit);
}

// What one launch did: its comparators, by stride, and whether its groups and rounds kept the
// rules above.
struct PlayedPass {
  std::map<unsigned, std::vector<Comparator>> comparators;
  bool groups_ok = true;
  bool directions_ok = true;
  bool coalesced = true;
  bool banks_ok = true;
};

// Plays one group_steps launch on n keys in arrays of `segment`, as the kernel runs it.
PlayedPass play(unsigned n, unsigned segment, const Launch &launch, bool ascending) {
  PlayedPass pass;
  const unsigned group_size = std::min(n, kGroupSize);
  const unsigned threads = group_size / kGroupKeys;
  const unsigned stride_bit = exact_log2(launch.stride);
  const unsigned top_bit = std::max(stride_bit, kGroupBits - 1);
  const unsigned first_bit = stride_bit + (kGroupBits - 1) - top_bit;
  const unsigned last_bit = first_bit + 1 - launch.steps;
  // The lowest slot bit of the kernel's layouts (group_kernel): global strides end in layout 5,
  // whatever their steps; the strides below 2^14 run down to slot bit 0.
  const unsigned lowest_bit = top_bit > kGroupBits - 1 ? 5 : 0;
  std::vector<int> held(n, 0);
  for (unsigned group = 0; group < n / group_size; ++group) {
    const auto index = [&](unsigned t, unsigned k, unsigned low) {
      return key_of(group, t, k, low, top_bit);
    };
    for (unsigned slot = 0; slot < group_size; ++slot) {
      ++held[group_key(group, slot, top_bit)];
    }
    unsigned bit = first_bit;
    unsigned low = round_low(bit, lowest_bit);
    // The loads: lane l of a warp reads the key after lane l - 1's.
    for (unsigned t = 0; t < threads; ++t) {
      for (unsigned k = 0; k < kGroupKeys; ++k) {
        pass.coalesced =
            pass.coalesced && (t % 32 == 0 || index(t, k, low) == index(t - 1, k, low) + 1);
      }
    }
    while (true) {
      const unsigned bottom = std::max(low, last_bit);
      for (unsigned t = 0; t < threads; ++t) {
        const bool thread_ascending =
            sorts_ascending(index_in_array(index(t, 0, low), segment), launch.size, ascending);
        for (unsigned k = 0; k < kGroupKeys; ++k) {
          pass.directions_ok = pass.directions_ok &&
              sorts_ascending(index_in_array(index(t, k, low), segment), launch.size, ascending) ==
                  thread_ascending;
        }
        // compare_registers: register bits bit - low down to bottom - low.
        for (unsigned r = bit - low + 1; r-- > bottom - low;) {
          for (unsigned k = 0; k < kGroupKeys; ++k) {
            if ((k & (1u << r)) == 0) {
              const unsigned lower = index(t, k, low);
              const unsigned upper = index(t, k + (1u << r), low);
              pass.comparators[upper - lower].push_back({lower, upper, thread_ascending});
            }
          }
        }
      }
      if (low == lowest_bit) {
        break;
      }
      bit = low - 1;
      const unsigned next = round_low(bit, lowest_bit);
      pass.banks_ok = pass.banks_ok && conflict_free(low, threads) && conflict_free(next, threads);
      low = next;
    }
    // The stores, from lanes on bits 0 .. 4 (after one more exchange if the last round held
    // them): neighbouring keys across the lanes, one direction per thread.
    if (low < 5) {
      pass.banks_ok = pass.banks_ok && conflict_free(low, threads) && conflict_free(5, threads);
      low = 5;
    }
    for (unsigned t = 1; t < threads; ++t) {
      for (unsigned k = 0; k < kGroupKeys; ++k) {
        pass.coalesced =
            pass.coalesced && (t % 32 == 0 || index(t, k, low) == index(t - 1, k, low) + 1);
        pass.directions_ok = pass.directions_ok &&
            sorts_ascending(index_in_array(index(t, k, low), segment), launch.size, ascending) ==
                sorts_ascending(index_in_array(index(t, 0, low), segment), launch.size, ascending);
      }
    }
  }
  for (int count : held) {
    pass.groups_ok = pass.groups_ok && count == 1;
  }
  return pass;
}

}  // namespace

TEST_CASE("the worked examples of group_key, group_slot and round_low") {
  CHECK(group_key(3, 37, 20) == 4197);
  CHECK(group_key(2, 37, kGroupBits - 1) == 2 * kGroupSize + 37);
  // Thread 37, register 3, registers on slot bits 9 .. 13: the thread's bits stay below.
  CHECK(group_slot(37, 3, 9) == 37 + (3u << 9));
  CHECK(group_slot(37, 3, 0) == 3 + (37u << 5));
  // A merge below 2^14: rounds on bits 9 .. 13, 4 .. 8, 0 .. 3. A pass of 9 global strides:
  // 9 .. 13, then 5 .. 9 (bit 9 already done), so that the lanes stay on bits 0 .. 4.
  CHECK(round_low(13, 0) == 9);
  CHECK(round_low(8, 0) == 4);
  CHECK(round_low(3, 0) == 0);
  CHECK(round_low(8, 5) == 5);
  CHECK(round_low(13, 11) == 9);
}

TEST_CASE("a thread's part and a register's part give the key and word of the whole slot") {
  for (unsigned low = 0; low + kGroupRegisterBits <= kGroupBits; ++low) {
    for (unsigned t = 0; t < kGroupThreads; ++t) {
      for (unsigned k = 0; k < kGroupKeys; ++k) {
        const unsigned slot = group_slot(t, k, low);
        INFO("low " << low << ", thread " << t << ", register " << k);
        REQUIRE(word_of(t, k, low) == group_word(slot));
        for (const unsigned top_bit : {13u, 14u, 20u, 29u}) {
          for (const unsigned group : {0u, 1u, 5u, (1u << (top_bit + 1 - kGroupBits)) - 1}) {
            REQUIRE(key_of(group, t, k, low, top_bit) == group_key(group, slot, top_bit));
          }
        }
      }
    }
  }
}

TEST_CASE("the group passes compare every pair of every step exactly once, up to 2^17") {
  for (unsigned q = kTileBits + 1; q <= 17; ++q) {
    const unsigned n = 1u << q;
    for (unsigned segment = 2 * kTileSize; segment <= n; segment *= 2) {
      for (const bool ascending : {true, false}) {
        INFO("n = 2^" << q << ", segment " << segment
                      << (ascending ? ", ascending" : ", descending"));
        unsigned passes = 0;
        for_each_launch(n, segment, [&](const Launch &launch) {
          if (launch.kernel != Kernel::group_steps) {
            return;
          }
          ++passes;
          const PlayedPass pass = play(n, segment, launch, ascending);
          CHECK(pass.groups_ok);
          CHECK(pass.directions_ok);
          CHECK(pass.coalesced);
          CHECK(pass.banks_ok);
          for (unsigned j = 0; j < launch.steps; ++j) {
            const unsigned stride = launch.stride >> j;
            const auto found = pass.comparators.find(stride);
            std::vector<Comparator> mine;
            if (found != pass.comparators.end()) {
              mine = found->second;
            }
            INFO("size " << launch.size << ", stride " << stride);
            CHECK(same_as_network(mine, n, segment, launch.size, stride, ascending));
          }
          CHECK(pass.comparators.size() == launch.steps);
        });
        CHECK(passes >= 1);
      }
    }
  }
}

TEST_CASE("the pass counts the chapter quotes, and the formula counts every plan") {
  // 1 block_sort, 18 merges below 2^14 (sizes 2^12 .. 2^29), 21 passes of global strides.
  CHECK(launches_per_sort(1u << 29) == 40);
  CHECK(launches_per_sort(1u << 27) == 34);
  for (unsigned q = 0; q <= 30; ++q) {
    for (unsigned s = 1; s <= q; ++s) {
      unsigned long long count = 0;
      for_each_launch(1u << q, 1u << s, [&](const Launch &) { ++count; });
      INFO("n = 2^" << q << ", segment 2^" << s);
      CHECK(count == launches_per_segment_sort(1u << q, 1u << s));
    }
  }
}
