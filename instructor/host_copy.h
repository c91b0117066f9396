// host_copy.h: what the host-side answers (host_answers.cu) use: they take the keys off the
// GPU, sort them on the host and put them back.
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

#include "cuda_check.h"

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
