// cpu suite, v16_register_top: the top-k that one register_top launch keeps, its plan and the
// kernel's rounds played on the host.
//
// A top-k of K <= 16 keys of arrays of 16 .. 4096 keys (uses_register_top) is one launch: each
// thread sorts the 16 keys j, j + T, j + 2T, ... of its array (T = the array's threads), lanes
// 1, 2, 4, ... apart keep the better half of their two runs (min(a[k], b[15 - k]), then a merge)
// up to T or a warp's 32 lanes, and an array that spans warps ends with the warps' runs traded
// by the lanes of its first warp. The test checks the plan for every n = 2^0 .. 2^30 and every
// array length and K: one launch where the chapter says, none of it elsewhere. Then it plays the
// kernel on the host, thread by thread and round by round, with the kernel's index functions
// (register_top_start, register_top_position) on v15's 64-bit items (the key above its
// position, make_word), and checks that every array's first K keys and positions are those of a
// stable sort, in both orders. The keys alone (32-bit words) and floats run on the GPU only
// (gpu_top, gpu_float).
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "bitonic_index.h"

namespace {

using Run = std::vector<Item>;

// The ascending merge of a run that rises, then falls: strides 8, 4, 2, 1, as the kernel's
// compare_registers runs it, pair by pair (get_lower_partner).
void merge_run(Run &run) {
  for (unsigned stride = kKeysPerThread / 2; stride > 0; stride /= 2) {
    for (unsigned pair = 0; pair < kKeysPerThread / 2; ++pair) {
      const unsigned lower = get_lower_partner(pair, stride);
      if (run[lower] > run[lower + stride]) {
        std::swap(run[lower], run[lower + stride]);
      }
    }
  }
}

// One round of keep_better_half on the runs of `lanes` consecutive threads: every lane l reads
// the run of l ^ distance backwards, as it was before the round, and keeps the smaller word.
void keep_better_half(std::vector<Run> &runs, unsigned first, unsigned lanes, unsigned distance) {
  const std::vector<Run> before(runs.begin() + first, runs.begin() + first + lanes);
  for (unsigned lane = 0; lane < lanes; ++lane) {
    Run &run = runs[first + lane];
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      run[k] = std::min(run[k], before[lane ^ distance][kKeysPerThread - 1 - k]);
    }
    merge_run(run);
  }
}

// register_top played on the host over n keys in arrays of `segment`: the first `top` keys of
// each array, and their positions, as the kernel writes them.
void play_register_top(std::vector<int> &keys, std::vector<int> &positions, unsigned segment,
                       unsigned top, bool ascending) {
  const unsigned n = static_cast<unsigned>(keys.size());
  const unsigned tile_size = std::min(n, kTileSize);
  const unsigned threads = tile_size / kKeysPerThread;
  const unsigned per_array = segment / kKeysPerThread;
  const Item flip = ascending ? 0 : ~Item{0};
  for (unsigned block = 0; block < n / tile_size; ++block) {
    std::vector<Run> runs(threads, Run(kKeysPerThread));
    for (unsigned thread = 0; thread < threads; ++thread) {
      // The kernel's own index functions (bitonic_index.h).
      const unsigned start = block * tile_size + register_top_start(thread, per_array);
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        const unsigned position = register_top_position(thread, k, per_array);
        runs[thread][k] =
            make_word<Item>(keys[start + position], position, ascending, false) ^ flip;
      }
      std::sort(runs[thread].begin(), runs[thread].end());
    }
    const unsigned lanes = warp_lanes(threads);
    for (unsigned distance = 1; distance < std::min(per_array, kWarpSize); distance *= 2) {
      for (unsigned warp = 0; warp < threads / lanes; ++warp) {
        keep_better_half(runs, warp * lanes, lanes, distance);
      }
    }
    if (per_array > kWarpSize) {
      const unsigned warps = per_array / kWarpSize;
      for (unsigned first_warp = 0; first_warp < threads / kWarpSize; first_warp += warps) {
        // Lane l of the array's first warp takes the run of its warp l % warps (its lane 0's).
        const std::vector<Run> before = runs;
        for (unsigned lane = 0; lane < kWarpSize; ++lane) {
          runs[first_warp * kWarpSize + lane] = before[(first_warp + lane % warps) * kWarpSize];
        }
        for (unsigned distance = 1; distance < warps; distance *= 2) {
          keep_better_half(runs, first_warp * kWarpSize, kWarpSize, distance);
        }
      }
    }
    for (unsigned thread = 0; thread < threads; ++thread) {
      if (register_top_thread(thread, per_array) != 0) {
        continue;
      }
      const unsigned start = block * tile_size + register_top_start(thread, per_array);
      for (unsigned k = 0; k < top; ++k) {
        const Item item = runs[thread][k] ^ flip;
        keys[start + k] = item_key(item, false);
        positions[start + k] = item_position(item, ascending);
      }
    }
  }
}

}  // namespace

TEST_CASE("the threads of an array hold each of its keys once, neighbouring lanes neighbours") {
  // The comment's example: thread 6 with T = 4 is thread 2 of the array of threads 4 .. 7.
  CHECK(register_top_thread(6, 4) == 2);
  CHECK(register_top_start(6, 4) == 64);
  CHECK(register_top_position(6, 3, 4) == 14);
  for (unsigned per_array = 1; per_array <= kBlockThreads; per_array *= 2) {
    const unsigned segment = per_array * kKeysPerThread;
    for (unsigned first = 0; first < kBlockThreads; first += per_array) {
      std::vector<int> held(segment, 0);
      bool all_right = true;
      for (unsigned thread = first; thread < first + per_array; ++thread) {
        all_right = all_right && register_top_start(thread, per_array) == first * kKeysPerThread;
        for (unsigned k = 0; k < kKeysPerThread; ++k) {
          const unsigned position = register_top_position(thread, k, per_array);
          all_right = all_right && position < segment;
          if (position < segment) {
            ++held[position];
          }
          // Register k of neighbouring threads: neighbouring keys.
          all_right = all_right &&
              (thread == first || position == register_top_position(thread - 1, k, per_array) + 1);
        }
      }
      INFO("arrays of " << segment << " keys, threads " << first << " ..");
      CHECK(all_right);
      CHECK(std::all_of(held.begin(), held.end(), [](int count) { return count == 1; }));
    }
  }
}

TEST_CASE("a top-k of up to 16 keys of arrays of 16 .. 4096 keys is one register_top launch") {
  for (unsigned q = 0; q <= 30; ++q) {
    const unsigned n = 1u << q;
    for (unsigned segment = 1; segment <= n; segment *= 2) {
      for (unsigned top = 1; top <= segment && top <= kMaxTop; top *= 2) {
        // The chapter's promise: K at most 16 and below the array's length, the array 16 to
        // 4096 keys.
        const bool registers = top <= 16 && top < segment && segment >= 16 && segment <= 4096;
        std::vector<Launch> plan;
        for_each_top_launch(n, segment, top, [&](const Launch &launch) { plan.push_back(launch); });
        INFO("n = " << n << ", arrays of " << segment << ", top " << top);
        CHECK(uses_register_top(segment, top) == registers);
        const bool one_register_top = plan.size() == 1 && plan[0].kernel == Kernel::register_top &&
            plan[0].size == top && plan[0].stride == kKeysPerThread &&
            (kKeysPerThread << plan[0].steps) == segment;
        CHECK(one_register_top == registers);
        if (registers) {
          CHECK(launches_per_top(n, segment, top) == 1);
        }
        if (!registers) {
          CHECK(std::none_of(plan.begin(), plan.end(), [](const Launch &launch) {
            return launch.kernel == Kernel::register_top;
          }));
        }
      }
    }
  }
}

TEST_CASE("played on the host, register_top leaves each array's first keys as a stable sort's") {
  std::mt19937 random(11);
  for (unsigned segment = 16; segment <= kTileSize; segment *= 2) {
    // One array, a tile of arrays, and two tiles (two blocks).
    for (unsigned n : {segment, std::max(segment, kTileSize), 2 * kTileSize}) {
      for (unsigned top = 1; top <= 16 && top < segment; top *= 2) {
        for (const bool ascending : {true, false}) {
          std::vector<int> keys(n);
          // Few distinct keys, so that ties decide by position.
          for (int &key : keys) {
            key = static_cast<int>(random() % 32) - 16;
          }
          std::vector<int> played = keys;
          std::vector<int> positions(n, -1);
          play_register_top(played, positions, segment, top, ascending);
          bool all_right = true;
          for (unsigned start = 0; start < n; start += segment) {
            std::vector<int> order(segment);
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
              return ascending ? keys[start + a] < keys[start + b]
                               : keys[start + a] > keys[start + b];
            });
            for (unsigned k = 0; k < top; ++k) {
              all_right = all_right && positions[start + k] == order[k] &&
                  played[start + k] == keys[start + order[k]];
            }
          }
          INFO("n = " << n << ", arrays of " << segment << ", top " << top
                      << (ascending ? ", ascending" : ", descending"));
          CHECK(all_right);
        }
      }
    }
  }
}
