// cpu suite, stages whose passes span merges (v14_span on).
//
// A group_steps launch gives block g the 2^14 keys group_key(g, slot, top_bit, low_bits), and
// thread t of the block register k of them, slot group_slot(t, k, low), in each round of the
// pass. A pass runs the network's steps in order while their strides lie among its group's
// bits: strides of 2^14 or more (global), or a merge's tail, slot bits a .. 0, then either the
// next merge's head (slot bits 13 .. a + 1) or, on neighbouring keys after block_sort, every
// later merge up to 2^14. The test plays every group_steps launch that for_each_launch makes for
// n up to 2^18 keys, in arrays of every length from two tiles up, as the kernel plays them: the
// rounds and their layouts (run_rounds, its first layout and the layout a pass stores from),
// their register steps, the direction of each thread's keys in each merge. It checks that the
// pairs compared are the reference network's, each exactly once, in the right direction and in
// the network's order of steps; that each group holds every key once; that the keys of a
// thread share their direction in every round and when stored; that a warp's loads and stores
// are 32 neighbouring keys; and that every exchange reaches 32 different banks with the 32
// lanes of a warp. The kernel works out register k's key and word as its thread's part
// (register 0) combined with k's part; key_of and word_of below do the same.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "bitonic_index.h"
#include "group_checks.h"
#include "launch_steps.h"
#include "reference_network.h"

namespace {

// What a pass is, from its Launch, as group_kernel reads it.
struct PassShape {
  unsigned first_bit;  // the slot bit of its first stride
  unsigned low_bits;  // index bits 0 .. low_bits - 1 that the group keeps
  unsigned top_bit;  // the index bit of slot bit 13
  bool global;
  bool head;
};

PassShape shape_of(const Launch &launch) {
  const unsigned stride_bit = exact_log2(launch.stride);
  if (stride_bit >= kGroupBits) {
    return {kGroupBits - 1, 5, stride_bit, true, false};
  }
  const bool head = launch.size > kGroupSize && launch.steps > stride_bit + 1;
  return {stride_bit, stride_bit + 1, head ? exact_log2(launch.size) : kGroupBits - 1, false, head};
}

// Register k's key: its thread's first key plus the index of k << low.
unsigned key_of(unsigned group, unsigned t, unsigned k, unsigned low, const PassShape &pass) {
  return group_key(group, group_slot(t, 0, low), pass.top_bit, pass.low_bits) +
      group_key(0, k << low, pass.top_bit, pass.low_bits);
}

// A step of the network: (size, stride).
using Step = std::pair<unsigned, unsigned>;

// What one launch did: its comparators, by step, and whether its groups and rounds kept the
// rules above.
struct PlayedPass {
  std::map<Step, std::vector<Comparator>> comparators;
  std::vector<Step> order;
  bool groups_ok = true;
  bool directions_ok = true;
  bool coalesced = true;
  bool banks_ok = true;
};

// Plays one group_steps launch on n keys in arrays of `segment`, as the kernel runs it.
PlayedPass play(unsigned n, unsigned segment, const Launch &launch, bool ascending) {
  PlayedPass played;
  const PassShape pass = shape_of(launch);
  const unsigned group_size = std::min(n, kGroupSize);
  const unsigned threads = group_size / kGroupKeys;
  // The layout of the first round: round_low, but with the lanes on slot bits 0 .. 4.
  const unsigned lowest_bit = pass.global ? 5 : 0;
  const unsigned first_low = std::max(round_low(pass.first_bit, lowest_bit), 5u);
  std::vector<int> held(n, 0);
  for (unsigned group = 0; group < n / group_size; ++group) {
    const auto index = [&](unsigned t, unsigned k, unsigned low) {
      return key_of(group, t, k, low, pass);
    };
    for (unsigned slot = 0; slot < group_size; ++slot) {
      ++held[group_key(group, slot, pass.top_bit, pass.low_bits)];
    }
    // Lane l of a warp reads or writes the key after lane l - 1's, and a thread's keys share
    // their direction in the merge of `size`.
    const auto check_layout = [&](unsigned low, unsigned size) {
      for (unsigned t = 0; t < threads; ++t) {
        const bool up = sorts_ascending(index_in_array(index(t, 0, low), segment), size, ascending);
        for (unsigned k = 0; k < kGroupKeys; ++k) {
          played.coalesced =
              played.coalesced && (t % 32 == 0 || index(t, k, low) == index(t - 1, k, low) + 1);
          played.directions_ok = played.directions_ok &&
              sorts_ascending(index_in_array(index(t, k, low), segment), size, ascending) == up;
        }
      }
    };
    check_layout(first_low, launch.size);
    unsigned low = first_low;
    // run_rounds<bit, lowest>, starting in layout `low`: the steps of the merge of `size`, each
    // round its register steps, then an exchange to the next layout while one is left.
    const auto rounds = [&](unsigned bit, unsigned lowest, unsigned last_bit, unsigned size) {
      while (true) {
        const unsigned bottom = std::max(low, last_bit);
        for (unsigned t = 0; t < threads; ++t) {
          const bool up =
              sorts_ascending(index_in_array(index(t, 0, low), segment), size, ascending);
          for (unsigned r = bit - low + 1; r-- > bottom - low;) {
            for (unsigned k = 0; k < kGroupKeys; ++k) {
              played.directions_ok = played.directions_ok &&
                  sorts_ascending(index_in_array(index(t, k, low), segment), size, ascending) == up;
              if ((k & (1u << r)) == 0) {
                const unsigned lower = index(t, k, low);
                const unsigned upper = index(t, k + (1u << r), low);
                played.comparators[{size, upper - lower}].push_back({lower, upper, up});
              }
            }
          }
        }
        // The steps in the order the kernel runs them: one per register bit, largest first.
        for (unsigned r = bit - low + 1; group == 0 && r-- > bottom - low;) {
          const unsigned lower = index(0, 0, low);
          played.order.push_back({size, index(0, 1u << r, low) - lower});
        }
        if (low <= lowest) {
          return;
        }
        bit = low - 1;
        const unsigned next = round_low(bit, lowest);
        played.banks_ok =
            played.banks_ok && conflict_free(low, threads) && conflict_free(next, threads);
        low = next;
      }
    };
    // An exchange to layout `next` outside run_rounds.
    const auto exchange = [&](unsigned next) {
      played.banks_ok =
          played.banks_ok && conflict_free(low, threads) && conflict_free(next, threads);
      low = next;
    };
    unsigned stored_size = launch.size;
    if (pass.global) {
      rounds(kGroupBits - 1, 5, kGroupBits - launch.steps, launch.size);
    } else {
      // The tail, down to slot bit 0.
      rounds(pass.first_bit, 0, 0, launch.size);
      unsigned steps_left = launch.steps - pass.low_bits;
      if (pass.head) {
        // The head: the next merge's largest strides, from slot bit 13.
        exchange(round_low(kGroupBits - 1, pass.low_bits));
        rounds(kGroupBits - 1, pass.low_bits, kGroupBits - steps_left, 2 * launch.size);
        stored_size = 2 * launch.size;
      } else {
        // later_merges: on neighbouring keys, each later merge whole.
        unsigned bit = pass.first_bit;
        while (steps_left > 0) {
          REQUIRE(pass.first_bit == kTileBits);
          REQUIRE(bit + 1 < kGroupBits);
          stored_size *= 2;
          ++bit;
          exchange(round_low(bit, 0));
          rounds(bit, 0, 0, stored_size);
          steps_left -= bit + 1;
        }
        // The layout the tail stores from: another than the first round's.
        exchange(first_low == 5 ? 9 : 5);
      }
    }
    REQUIRE(low >= 5);
    check_layout(low, stored_size);
  }
  for (int count : held) {
    played.groups_ok = played.groups_ok && count == 1;
  }
  return played;
}

// The steps a launch runs, in the network's order (launch_steps.h).
std::vector<Step> launch_order(const Launch &launch) {
  unsigned long long count = 0;
  bool named = false;
  return launch_steps([&](auto visit) { visit(launch); }, count, named);
}

}  // namespace

TEST_CASE("the worked examples of group_key, group_slot and round_low") {
  CHECK(group_key(3, 37, 20) == 4197);
  CHECK(group_key(2, 37, kGroupBits - 1) == 2 * kGroupSize + 37);
  // A tail of strides 2^8 .. 1 (low_bits 9) and a head of 2^16 .. 2^12 (top_bit 16).
  CHECK(group_key(1, 1u << 9, 16, 9) == 4608);
  // Thread 37, register 3, registers on slot bits 9 .. 13: the thread's bits stay below.
  CHECK(group_slot(37, 3, 9) == 37 + (3u << 9));
  CHECK(group_slot(37, 3, 0) == 3 + (37u << 5));
  // A merge below 2^14: rounds on bits 9 .. 13, 4 .. 8, 0 .. 3. A pass of 9 global strides:
  // 9 .. 13, then 5 .. 9 (bit 9 already done), so that the lanes stay on bits 0 .. 4.
  CHECK(round_low(13, 0) == 9);
  CHECK(round_low(8, 0) == 4);
  CHECK(round_low(3, 0) == 0);
  CHECK(round_low(8, 5) == 5);
  // A head that ends at slot bit 8 (a tail of 8 bits): 9 .. 13, then 8 .. 12.
  CHECK(round_low(13, 8) == 9);
  CHECK(round_low(8, 8) == 8);
  // A head of 3 bits, 13 .. 11: one round, 9 .. 13.
  CHECK(round_low(13, 11) == 9);
}

TEST_CASE("a thread's part and a register's part give the key and word of the whole slot") {
  // Every number of low bits a pass keeps: 5 for global strides, a + 1 for a tail from 2^a.
  for (unsigned low_bits = 5; low_bits <= kGroupBits; ++low_bits) {
    for (unsigned low = 0; low + kGroupRegisterBits <= kGroupBits; ++low) {
      for (unsigned t = 0; t < kGroupThreads; t += 7) {
        for (unsigned k = 0; k < kGroupKeys; ++k) {
          const unsigned slot = group_slot(t, k, low);
          INFO("low bits " << low_bits << ", layout " << low << ", thread " << t << ", register "
                           << k);
          REQUIRE(word_of(t, k, low) == group_word(slot));
          for (const unsigned top_bit : {13u, 16u, 20u, 29u}) {
            const PassShape pass{0, low_bits, top_bit, false, false};
            for (const unsigned group : {0u, 1u, 5u, (1u << (top_bit + 1 - kGroupBits)) - 1}) {
              REQUIRE(key_of(group, t, k, low, pass) == group_key(group, slot, top_bit, low_bits));
            }
          }
        }
      }
    }
  }
}

TEST_CASE("the passes compare every pair of every step exactly once, in order, up to 2^18") {
  for (unsigned q = kTileBits + 1; q <= 18; ++q) {
    const unsigned n = 1u << q;
    for (unsigned segment = 2 * kTileSize; segment <= n; segment *= 2) {
      for (const bool ascending : {true, false}) {
        INFO("n = 2^" << q << ", segment " << segment << ", ascending " << ascending);
        unsigned passes = 0;
        for_each_launch(n, segment, [&](const Launch &launch) {
          if (launch.kernel != Kernel::group_steps) {
            return;
          }
          ++passes;
          INFO("launch: size " << launch.size << ", stride " << launch.stride << ", steps "
                               << launch.steps);
          const PlayedPass pass = play(n, segment, launch, ascending);
          CHECK(pass.groups_ok);
          CHECK(pass.directions_ok);
          CHECK(pass.coalesced);
          CHECK(pass.banks_ok);
          CHECK(pass.order == launch_order(launch));
          CHECK(pass.comparators.size() == launch.steps);
          for (const Step &step : launch_order(launch)) {
            const auto found = pass.comparators.find(step);
            std::vector<Comparator> mine;
            if (found != pass.comparators.end()) {
              mine = found->second;
            }
            INFO("size " << step.first << ", stride " << step.second);
            CHECK(same_as_network(mine, n, segment, step.first, step.second, ascending));
          }
        });
        CHECK(passes >= 1);
      }
    }
  }
}

TEST_CASE("a merge's last pass starts at stride 2^7 or above, and only the first runs merges") {
  for (unsigned q = 1; q <= 30; ++q) {
    for (unsigned s = 1; s <= q; ++s) {
      INFO("n = 2^" << q << ", segment 2^" << s);
      unsigned passes = 0;
      for_each_launch(1u << q, 1u << s, [&](const Launch &launch) {
        ++passes;
        if (launch.kernel != Kernel::group_steps || launch.stride >= kGroupSize) {
          return;
        }
        const unsigned stride_bit = exact_log2(launch.stride);
        const bool merges = launch.size <= kGroupSize;
        // The pass after block_sort runs the merges up to 2^14 from the tile's; every other
        // pass that ends a merge starts at stride 2^(kFewestTailSteps - 1) or above.
        CHECK(merges == (passes == 2));
        CHECK(stride_bit >= (merges ? kTileBits : kFewestTailSteps - 1));
        CHECK(launch.steps <= (merges ? 3 * kGroupBits : kGroupBits));
      });
    }
  }
}

TEST_CASE("the pass counts the chapter quotes") {
  // 1 block_sort, 1 pass of the merges of 2^12 .. 2^14, 15 passes that end a merge (2^15 ..
  // 2^29), 14 passes of global strides.
  CHECK(launches_per_sort(1u << 29) == 31);
  CHECK(launches_per_sort(1u << 27) == 26);
  CHECK(launches_per_sort(1u << 20) == 11);
  CHECK(launches_per_sort(1u << 16) == 5);
}
