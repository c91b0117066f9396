// reference.cpp: the host bitonic network and the std::sort yardstick.
#include "reference.h"

#include <algorithm>
#include <functional>
#include <thread>

std::vector<std::pair<std::uint32_t, std::uint32_t>> network_steps(std::uint32_t n) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> steps;
  // 64-bit counters: with n = 2^31, doubling a 32-bit size past n would wrap to 0.
  for (std::uint64_t size = 2; size <= n; size *= 2) {
    for (std::uint64_t stride = size / 2; stride > 0; stride /= 2) {
      steps.emplace_back(static_cast<std::uint32_t>(size), static_cast<std::uint32_t>(stride));
    }
  }
  return steps;
}

std::vector<Comparator> network_step_comparators(std::uint32_t n, std::uint32_t size,
                                                 std::uint32_t stride, bool ascending) {
  std::vector<Comparator> comparators;
  comparators.reserve(n / 2);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t partner = i ^ stride;
    if (partner > i) {
      const bool block_ascending = (i & size) == 0;
      comparators.push_back({i, partner, block_ascending == ascending});
    }
  }
  return comparators;
}

std::uint64_t reference_bitonic_sort(std::vector<int> &keys, bool ascending) {
  const std::uint32_t n = static_cast<std::uint32_t>(keys.size());
  std::uint64_t swaps = 0;
  for (const auto &[size, stride] : network_steps(n)) {
    for (const Comparator &comparator : network_step_comparators(n, size, stride, ascending)) {
      int &lower = keys[comparator.lower];
      int &upper = keys[comparator.upper];
      const bool out_of_order = comparator.ascending ? lower > upper : lower < upper;
      if (out_of_order) {
        std::swap(lower, upper);
        ++swaps;
      }
    }
  }
  return swaps;
}

namespace {

template <typename Before>
void parallel_sort(std::vector<int> &keys, Before before) {
  const std::size_t n = keys.size();
  unsigned pieces = 1;
  // Below a million keys one thread is quick enough; above, use up to 16 threads in a power
  // of two, so that the merge rounds pair pieces up evenly.
  if (n >= (std::size_t{1} << 20)) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    while (pieces * 2 <= std::min(cores, 16u)) {
      pieces *= 2;
    }
  }
  if (pieces == 1) {
    std::sort(keys.begin(), keys.end(), before);
    return;
  }
  auto bound = [&](std::size_t piece) { return n * piece / pieces; };
  std::vector<std::thread> threads;
  for (unsigned piece = 0; piece < pieces; ++piece) {
    threads.emplace_back([&, piece] {
      std::sort(keys.begin() + bound(piece), keys.begin() + bound(piece + 1), before);
    });
  }
  for (std::thread &thread : threads) {
    thread.join();
  }
  // Merge neighbouring sorted runs in rounds: runs of 1 piece into runs of 2, then 4, ...
  std::vector<int> buffer(n);
  std::vector<int> *source = &keys;
  std::vector<int> *target = &buffer;
  for (unsigned width = 1; width < pieces; width *= 2) {
    threads.clear();
    for (unsigned piece = 0; piece < pieces; piece += 2 * width) {
      threads.emplace_back([&, piece] {
        const auto begin = source->begin();
        std::merge(begin + bound(piece), begin + bound(piece + width), begin + bound(piece + width),
                   begin + bound(piece + 2 * width), target->begin() + bound(piece), before);
      });
    }
    for (std::thread &thread : threads) {
      thread.join();
    }
    std::swap(source, target);
  }
  if (source != &keys) {
    keys.swap(buffer);
  }
}

}  // namespace

std::vector<int> std_sorted_copy(const std::vector<int> &keys, bool ascending) {
  std::vector<int> sorted(keys);
  if (ascending) {
    parallel_sort(sorted, std::less<int>());
  } else {
    parallel_sort(sorted, std::greater<int>());
  }
  return sorted;
}

void std_sort_segments(int *keys, std::size_t arrays, std::size_t segment, bool ascending) {
  for (std::size_t array = 0; array < arrays; ++array) {
    int *begin = keys + array * segment;
    if (ascending) {
      std::sort(begin, begin + segment);
    } else {
      std::sort(begin, begin + segment, std::greater<int>());
    }
  }
}

std::vector<int> std_sorted_segments_copy(const std::vector<int> &keys, std::size_t segment,
                                          bool ascending) {
  std::vector<int> sorted(keys);
  const std::size_t arrays = keys.size() / segment;
  // Each thread sorts a contiguous share of the arrays.
  const unsigned threads = keys.size() >= (std::size_t{1} << 20)
      ? std::max(1u, std::min(16u, std::thread::hardware_concurrency()))
      : 1;
  std::vector<std::thread> workers;
  for (unsigned worker = 0; worker < threads; ++worker) {
    const std::size_t first = arrays * worker / threads;
    const std::size_t last = arrays * (worker + 1) / threads;
    workers.emplace_back(std_sort_segments, sorted.data() + first * segment, last - first, segment,
                         ascending);
  }
  for (std::thread &worker : workers) {
    worker.join();
  }
  return sorted;
}
