// cpu suite, stages with multistep passes (v6_multistep on).
//
// A multistep pass of `steps` steps from stride `top` down gives thread t the group of keys
// first + m * lowest, m = 0 .. 2^steps - 1, with first = get_first_key(t, lowest, steps) and
// lowest = top / 2^(steps - 1), and runs step j (stride lowest * 2^j) on the pairs (m, m + 2^j)
// whose bit j of m is 0, in the one direction sorts_ascending(first, size, ...). The test plays
// the passes that bitonic_sort makes (steps_in_pass) for every n up to 2^16, and checks that the
// pairs they compare are the reference network's, each exactly once, in the right direction,
// step by step; and that the reads of a warp are 32 consecutive keys. (The kernel finds the
// pairs (m, m + 2^j) of step j with get_lower_partner, in compare_registers: index_pair_test.cpp
// checks that those are the pairs whose bit j of m is 0.)
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "bitonic_index.h"
#include "reference_network.h"

namespace {

// The comparators one pass produces, step by step: (stride) -> comparators in thread order.
std::map<unsigned, std::vector<Comparator>> pass_comparators(unsigned n, unsigned size,
                                                             unsigned top, unsigned steps,
                                                             bool ascending, bool *groups_ok) {
  std::map<unsigned, std::vector<Comparator>> produced;
  const unsigned lowest = top >> (steps - 1);
  const unsigned keys_per_group = 1u << steps;
  std::vector<int> held(n, 0);
  for (unsigned thread = 0; thread < (n >> steps); ++thread) {
    const unsigned first = get_first_key(thread, lowest, steps);
    const bool group_ascending = sorts_ascending(first, size, ascending);
    for (unsigned m = 0; m < keys_per_group; ++m) {
      const unsigned key = first + m * lowest;
      *groups_ok =
          *groups_ok && key < n && sorts_ascending(key, size, ascending) == group_ascending;
      if (key < n) {
        ++held[key];
      }
    }
    for (unsigned j = 0; j < steps; ++j) {
      for (unsigned m = 0; m < keys_per_group; ++m) {
        if ((m & (1u << j)) == 0) {
          produced[lowest << j].push_back(
              {first + m * lowest, first + (m + (1u << j)) * lowest, group_ascending});
        }
      }
    }
  }
  for (int count : held) {
    *groups_ok = *groups_ok && count == 1;
  }
  return produced;
}

}  // namespace

TEST_CASE("the worked example of get_first_key, and one step is get_lower_partner") {
  CHECK(get_first_key(5, 4, 2) == 17);
  CHECK(get_first_key(3, 4, 2) == 3);
  CHECK(get_first_key(4, 4, 2) == 16);
  for (unsigned stride = 1; stride <= 4096; stride *= 2) {
    for (unsigned t = 0; t < 3000; ++t) {
      CHECK(get_first_key(t, stride, 1) == get_lower_partner(t, stride));
    }
  }
}

TEST_CASE("the multistep passes compare every pair of every global step exactly once, up to 2^16") {
  for (unsigned q = 1; q <= 16; ++q) {
    const unsigned n = 1u << q;
    const unsigned tile_size = n < kTileSize ? n : kTileSize;
    for (const bool ascending : {true, false}) {
      bool groups_ok = true;
      bool all_right = true;
      unsigned passes = 0;
      for (unsigned size = 2 * tile_size; size <= n; size *= 2) {
        unsigned stride = size / 2;
        while (stride >= tile_size) {
          const unsigned steps = steps_in_pass(stride, tile_size);
          REQUIRE(steps >= 1);
          REQUIRE(steps <= kStepsPerPass);
          const auto produced = pass_comparators(n, size, stride, steps, ascending, &groups_ok);
          for (unsigned j = 0; j < steps; ++j) {
            const unsigned step_stride = stride >> j;
            std::vector<Comparator> mine = produced.at(step_stride);
            std::sort(mine.begin(), mine.end(),
                      [](const Comparator &a, const Comparator &b) { return a.lower < b.lower; });
            const std::vector<Comparator> expected =
                network_step_comparators(n, size, step_stride, ascending);
            all_right = all_right && mine.size() == expected.size();
            for (std::size_t c = 0; all_right && c < expected.size(); ++c) {
              all_right = mine[c].lower == expected[c].lower &&
                  mine[c].upper == expected[c].upper && mine[c].ascending == expected[c].ascending;
            }
          }
          stride >>= steps;
          ++passes;
        }
        // The global steps end exactly at the tile; the rest is block_merge's.
        CHECK(stride == tile_size / 2);
      }
      INFO("n = 2^" << q << (ascending ? ", ascending" : ", descending") << ", " << passes
                    << " passes");
      CHECK(groups_ok);
      CHECK(all_right);
    }
  }
}

TEST_CASE("the 32 lanes of a warp read 32 consecutive keys for every key of their group") {
  for (unsigned steps = 1; steps <= kStepsPerPass; ++steps) {
    for (unsigned lowest = kTileSize; lowest <= (1u << 20); lowest *= 2) {
      for (unsigned warp_start = 0; warp_start < 4096; warp_start += 32) {
        const unsigned first = get_first_key(warp_start, lowest, steps);
        for (unsigned lane = 1; lane < 32; ++lane) {
          CHECK(get_first_key(warp_start + lane, lowest, steps) == first + lane);
        }
      }
    }
  }
}
