// host_answers.cu: answers to exercises 1 to 3 that give the right keys without doing the work
// on the GPU: each copies the keys to the host, sorts them there with the order the exercise
// asks for, and copies them back. The exercises' checks count the launches, so they must reject
// these on that one assertion (instructor/checks_reject.py), however right the keys are.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "float_order.h"
#include "host_copy.h"

// Exercise 1: any n, no padding.
void bitonic_sort(int *keys, unsigned n, bool ascending) {
  std::vector<int> host = to_host(keys, n);
  sort_keys(host.begin(), host.end(), ascending);
  to_device(keys, host);
}

// Exercise 2: pairs, sorted by key.
void bitonic_sort_pairs(int *keys, int *values, unsigned n, bool ascending) {
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
void bitonic_sort_floats(float *keys, unsigned n, bool ascending) {
  std::vector<float> host = to_host(keys, n);
  std::sort(host.begin(), host.end(), [&](float a, float b) {
    return ascending ? float_total_order_less(a, b) : float_total_order_less(b, a);
  });
  to_device(keys, host);
}
