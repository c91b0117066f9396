// cpu suite, v10_top_k: the launch plan of a top-k, and the top-k itself played on the host.
//
// bitonic_top_segments sorts every run of `top` keys (the launches of for_each_launch(n, top)),
// then walks for_each_top_launch: block_top launches whose rounds each halve the runs left of
// every array, until one is left. The test checks that plan for every n = 2^0 .. 2^30, every
// array length and every `top` the stage takes: the rounds add up to log2(segment / top), no
// launch asks a block for more than its tile holds, and launches_per_top counts the launches.
// Then it plays the whole top-k on the host, launch by launch and block by block, with the rule
// block_top follows (keep min(a[j], b[top - 1 - j]) of two runs, then merge), and checks the
// first `top` keys of every array against std::sort. The top-ks that a stage keeps in a kernel of
// its own (v16's register_top) are launches_register_top_test's.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "bitonic_index.h"

namespace {

// Every `top` the stage takes for arrays of `segment` keys: 1, 2, 4, ... up to kMaxTop, and the
// whole array.
std::vector<unsigned> tops_for(unsigned segment) {
  std::vector<unsigned> tops;
  for (unsigned top = 1; top <= segment && top <= kMaxTop; top *= 2) {
    tops.push_back(top);
  }
  if (tops.back() != segment) {
    tops.push_back(segment);
  }
  return tops;
}

// One block_top launch on the host: block by block, the rounds of the kernel on runs of `top`
// keys that each arrive sorted ascending.
void play_block_top(std::vector<int> &keys, unsigned top, const Launch &launch) {
  const unsigned n = static_cast<unsigned>(keys.size());
  const unsigned per_block = runs_per_block(n, top, launch.stride);
  for (unsigned first_run = 0; first_run < n / launch.stride; first_run += per_block) {
    std::vector<int> tile(per_block * top);
    for (unsigned e = 0; e < tile.size(); ++e) {
      tile[e] = keys[(first_run + e / top) * launch.stride + e % top];
    }
    for (unsigned round = 0; round < launch.steps; ++round) {
      const unsigned span = top << round;
      for (unsigned a = 0; a < tile.size(); a += 2 * span) {
        // The smaller half of two sorted runs, rising then falling, then sorted by one merge.
        for (unsigned j = 0; j < top; ++j) {
          tile[a + j] = std::min(tile[a + j], tile[a + span + top - 1 - j]);
        }
        for (unsigned step = top / 2; step > 0; step /= 2) {
          for (unsigned pair = 0; pair < top / 2; ++pair) {
            const unsigned lower = a + get_lower_partner(pair, step);
            if (tile[lower] > tile[lower + step]) {
              std::swap(tile[lower], tile[lower + step]);
            }
          }
        }
      }
    }
    const unsigned span = top << launch.steps;
    for (unsigned e = 0; e < (per_block >> launch.steps) * top; ++e) {
      const unsigned run = first_run + ((e / top) << launch.steps);
      keys[run * launch.stride + e % top] = tile[(e / top) * span + e % top];
    }
  }
}

// Whether the top-k's plan is block_top's. A stage may keep some top-ks in a kernel of its own
// (v16's register_top), whose plan launches_register_top_test checks.
bool block_top_plan(unsigned n, unsigned segment, unsigned top) {
  bool block_top = true;
  for_each_top_launch(n, segment, top, [&](const Launch &launch) {
    block_top = block_top && launch.kernel == Kernel::block_top;
  });
  return block_top;
}

}  // namespace

TEST_CASE("the block_top launches halve the runs of every array to one, a tile at a time") {
  for (unsigned q = 0; q <= 30; ++q) {
    const unsigned n = 1u << q;
    for (unsigned segment = 1; segment <= n; segment *= 2) {
      for (const unsigned top : tops_for(segment)) {
        if (!block_top_plan(n, segment, top)) {
          continue;
        }
        unsigned long long launches = 0;
        for_each_launch(n, top, [&](const Launch &) { ++launches; });
        unsigned stride = top;
        bool all_right = true;
        for_each_top_launch(n, segment, top, [&](const Launch &launch) {
          ++launches;
          all_right = all_right && launch.kernel == Kernel::block_top && launch.size == top &&
              launch.stride == stride && launch.steps >= 1 && (top << launch.steps) <= kTileSize &&
              (stride << launch.steps) <= segment;
          stride <<= launch.steps;
        });
        INFO("n = " << n << ", arrays of " << segment << ", top " << top);
        REQUIRE(all_right);
        CHECK(stride == segment);
        CHECK(launches == launches_per_top(n, segment, top));
      }
    }
  }
}

TEST_CASE("chapter 12's example: the better half of two runs of 4, merged") {
  // Runs a = 1 4 6 9 and b = 2 3 5 8: one block_top round keeps 1 4 3 2 and merges it.
  std::vector<int> keys = {1, 4, 6, 9, 2, 3, 5, 8};
  play_block_top(keys, 4, Launch{Kernel::block_top, 4, 4, 1});
  CHECK(keys == std::vector<int>{1, 2, 3, 4, 2, 3, 5, 8});
}

TEST_CASE("played on the host, the plan leaves each array's smallest keys first, in order") {
  std::mt19937 random(7);
  for (unsigned q = 1; q <= 14; ++q) {
    const unsigned n = 1u << q;
    for (unsigned segment = 2; segment <= n; segment *= 2) {
      for (const unsigned top : tops_for(segment)) {
        if (!block_top_plan(n, segment, top)) {
          continue;
        }
        std::vector<int> keys(n);
        // Few distinct keys in the short arrays, so that ties come up.
        for (int &key : keys) {
          key = static_cast<int>(random() % (q < 8 ? 16 : 1u << 20));
        }
        std::vector<int> expected = keys;
        for (unsigned start = 0; start < n; start += segment) {
          std::sort(expected.begin() + start, expected.begin() + start + segment);
        }
        // The runs of `top` keys sorted, as the first launches leave them.
        std::vector<int> played = keys;
        for (unsigned start = 0; start < n; start += top) {
          std::sort(played.begin() + start, played.begin() + start + top);
        }
        for_each_top_launch(n, segment, top,
                            [&](const Launch &launch) { play_block_top(played, top, launch); });
        bool all_right = true;
        for (unsigned start = 0; start < n; start += segment) {
          all_right = all_right &&
              std::equal(played.begin() + start, played.begin() + start + top,
                         expected.begin() + start);
        }
        INFO("n = " << n << ", arrays of " << segment << ", top " << top);
        CHECK(all_right);
      }
    }
  }
}
