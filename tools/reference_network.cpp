// reference_network.cpp: the bitonic network, comparator by comparator, on the host.
#include "reference_network.h"

#include <algorithm>

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

std::vector<Comparator> mirrored_step_comparators(std::uint32_t n, std::uint32_t size,
                                                  std::uint32_t stride) {
  std::vector<Comparator> comparators;
  comparators.reserve(n / 2);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t partner = stride == size / 2 ? i ^ (size - 1) : i ^ stride;
    if (partner > i) {
      comparators.push_back({i, partner, true});
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
