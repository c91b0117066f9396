// cpu suite, v8_batched: many arrays of `segment` keys sorted at once.
//
// The stage runs the network of each array by stopping the merges at size `segment` and taking
// every direction from a key's position in its array (index_in_array). The test checks that this
// rule produces, step by step, exactly the comparators of the reference network of `segment`
// keys on every array; that block_sort, played on the host with the stage's helpers
// (block_player.h), runs that network on every array shorter than a tile; and that
// launches_per_segment_sort counts the launches bitonic_sort_segments makes.
#include <doctest/doctest.h>

#include <vector>

#include "bitonic_index.h"
#include "block_player.h"
#include "launch_steps.h"
#include "reference_network.h"

TEST_CASE("directions from the position in the array give every array its own network") {
  for (unsigned q = 1; q <= 12; ++q) {
    const unsigned n = 1u << q;
    for (unsigned segment = 2; segment <= n; segment *= 2) {
      for (const bool ascending : {true, false}) {
        bool all_right = true;
        for (const auto &[size, stride] : network_steps(segment)) {
          std::vector<Comparator> expected;
          for (unsigned start = 0; start < n; start += segment) {
            for (const Comparator &c : network_step_comparators(segment, size, stride, ascending)) {
              expected.push_back({start + c.lower, start + c.upper, c.ascending});
            }
          }
          std::vector<Comparator> produced;
          // One thread per pair (get_lower_partner), its direction from its place in its array.
          for (unsigned thread = 0; thread < n / 2; ++thread) {
            const unsigned lower = get_lower_partner(thread, stride);
            produced.push_back({lower, lower + stride,
                                sorts_ascending(index_in_array(lower, segment), size, ascending)});
          }
          all_right = all_right && same_comparators(produced, expected);
        }
        INFO("n = " << n << ", arrays of " << segment << (ascending ? ", ascending" : ""));
        CHECK(all_right);
      }
    }
  }
}

TEST_CASE("with one array, the position in the array is the index") {
  for (unsigned i = 0; i < 5000; ++i) {
    CHECK(index_in_array(i, 1u << 13) == i);
    CHECK(index_in_array(i, 8) == i % 8);
  }
}

TEST_CASE("block_sort with arrays shorter than its tile runs every array's own network") {
  for (unsigned segment = 2; segment <= kTileSize; segment *= 2) {
    for (const bool ascending : {true, false}) {
      BlockPlayer block(0, kTileSize);
      const auto direction = [&](unsigned i, unsigned size) {
        return sorts_ascending(index_in_array(i, segment), size, ascending);
      };
      block.sort_thread_keys(segment, direction);
      for (unsigned size = 2 * kKeysPerThread; size <= segment; size *= 2) {
        for (unsigned thread = 0; thread < block.threads(); ++thread) {
          block.set_flip(thread, !direction(layout_slot(thread, 0, 0), size));
        }
        block.merge(exact_log2(size) - 1);
      }
      bool all_right = true;
      std::size_t s = 0;
      for (const auto &[size, stride] : network_steps(segment)) {
        std::vector<Comparator> expected;
        for (unsigned start = 0; start < kTileSize; start += segment) {
          for (const Comparator &c : network_step_comparators(segment, size, stride, ascending)) {
            expected.push_back({start + c.lower, start + c.upper, c.ascending});
          }
        }
        all_right =
            all_right && s < block.steps.size() && same_comparators(block.steps[s], expected);
        ++s;
      }
      INFO("arrays of " << segment << (ascending ? ", ascending" : ", descending"));
      CHECK(all_right);
      CHECK(block.steps.size() == s);
    }
  }
}

TEST_CASE("the launches for arrays of L keys run every array's network once, in order") {
  // for_each_launch(n, L) is the plan bitonic_sort_segments walks: its launches, their steps
  // expanded in the network's order, must be the steps of the reference network of L keys, and
  // launches_per_segment_sort(n, L) must count them.
  for (unsigned q = 1; q <= 30; ++q) {
    const unsigned n = 1u << q;
    for (unsigned segment = 2; segment <= n; segment *= 2) {
      INFO("n = 2^" << q << ", arrays of " << segment);
      unsigned long long count = 0;
      bool named = false;
      const auto steps =
          launch_steps([&](auto visit) { for_each_launch(n, segment, visit); }, count, named);
      CHECK(steps == network_steps(segment));
      CHECK(count == launches_per_segment_sort(n, segment));
      CHECK(named);
    }
    CHECK(launches_per_segment_sort(n, n) == launches_per_sort(n));
  }
}
