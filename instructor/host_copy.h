// host_copy.h: the sorts on the host that the host-side answers (host_answers.cu,
// faked_answers.cu) make: they take the keys off the GPU, sort them on the host and put them back;
// and the launches that faked_answers.cu and async_answers.cu count without making them.
#pragma once

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

#include "bitonic_index.h"
#include "cuda_check.h"
#include "float_order.h"
#include "padding.h"

// Counts as many launches as v0_naive's network makes for n keys padded, none of them real.
inline void count_launches_not_made(unsigned n) {
  const unsigned long long launches =
      launches_per_sort(static_cast<unsigned>(next_power_of_two(n)));
  for (unsigned long long launch = 0; launch < launches; ++launch) {
    CHECK_LAUNCH();
  }
}

template <typename T>
std::vector<T> to_host(const T *device, unsigned n) {
  std::vector<T> host(n);
  CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

template <typename T>
void to_device(T *device, const std::vector<T> &host) {
  CUDA_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
}

// std::sort of [begin, end): smallest key first when ascending, largest first otherwise.
inline void sort_keys(std::vector<int>::iterator begin, std::vector<int>::iterator end,
                      bool ascending) {
  if (ascending) {
    std::sort(begin, end);
  } else {
    std::sort(begin, end, std::greater<int>());
  }
}

// Exercise 1: any n, no padding.
inline void sort_on_host(int *keys, unsigned n, bool ascending) {
  std::vector<int> host = to_host(keys, n);
  sort_keys(host.begin(), host.end(), ascending);
  to_device(keys, host);
}

// Exercise 2: pairs, sorted by key.
inline void sort_pairs_on_host(int *keys, int *values, unsigned n, bool ascending) {
  const std::vector<int> key = to_host(keys, n);
  const std::vector<int> value = to_host(values, n);
  std::vector<unsigned> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](unsigned a, unsigned b) { return ascending ? key[a] < key[b] : key[a] > key[b]; });
  std::vector<int> sorted_keys(n), sorted_values(n);
  for (unsigned i = 0; i < n; ++i) {
    sorted_keys[i] = key[order[i]];
    sorted_values[i] = value[order[i]];
  }
  to_device(keys, sorted_keys);
  to_device(values, sorted_values);
}

// Exercise 3: floats in IEEE 754 totalOrder.
inline void sort_floats_on_host(float *keys, unsigned n, bool ascending) {
  std::vector<float> host = to_host(keys, n);
  std::sort(host.begin(), host.end(), [&](float a, float b) {
    return ascending ? float_total_order_less(a, b) : float_total_order_less(b, a);
  });
  to_device(keys, host);
}
