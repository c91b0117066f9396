// async_answers.cu: faked_answers.cu's sorts on the host, hidden behind asynchronous calls: the
// keys go to pinned host memory with cudaMemcpyAsync, a host function queued behind that copy
// (cudaLaunchHostFunc) sorts them, and a second cudaMemcpyAsync brings them back, all queued on
// the default stream, so the sort returns at once and its keys are right when the GPU is done.
// The launch counts and the check that the sort only queues its work (tests/gpu_queue.h) take it
// for GPU work; the checks that count what the GPU ran (tests/gpu_activity.h, from CUPTI) must
// reject it (instructor/checks_reject.py).
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "cuda_check.h"
#include "float_order.h"
#include "host_copy.h"

namespace {

// Pinned host memory for `count` words, kept for the program's life and grown only between
// sorts: a host function queued on the GPU may still be using it.
unsigned *pinned_words(std::size_t count, int which) {
  static unsigned *words[2] = {nullptr, nullptr};
  static std::size_t sizes[2] = {0, 0};
  if (sizes[which] < count) {
    CUDA_CHECK(cudaDeviceSynchronize());
    if (words[which] != nullptr) {
      CUDA_CHECK(cudaFreeHost(words[which]));
    }
    CUDA_CHECK(cudaMallocHost(&words[which], count * sizeof(unsigned)));
    sizes[which] = count;
  }
  return words[which];
}

// What the queued host function sorts: the words and how to order them.
struct HostSort {
  unsigned *keys;
  unsigned *values;  // nullptr for keys alone
  unsigned n;
  bool ascending;
  bool floats;
};

void CUDART_CB sort_queued(void *argument) {
  const HostSort *sort = static_cast<const HostSort *>(argument);
  std::vector<int> keys(sort->n);
  std::memcpy(keys.data(), sort->keys, sort->n * sizeof(int));
  if (sort->floats) {
    std::vector<float> floats(sort->n);
    std::memcpy(floats.data(), keys.data(), sort->n * sizeof(float));
    std::sort(floats.begin(), floats.end(), [sort](float a, float b) {
      return sort->ascending ? float_total_order_less(a, b) : float_total_order_less(b, a);
    });
    std::memcpy(sort->keys, floats.data(), sort->n * sizeof(float));
  } else if (sort->values == nullptr) {
    sort_keys(keys.begin(), keys.end(), sort->ascending);
    std::memcpy(sort->keys, keys.data(), sort->n * sizeof(int));
  } else {
    // Each key with its value, sorted by key: the pair's 64 bits, key above.
    std::vector<std::pair<int, unsigned>> pairs(sort->n);
    for (unsigned i = 0; i < sort->n; ++i) {
      pairs[i] = {keys[i], sort->values[i]};
    }
    std::sort(pairs.begin(), pairs.end(), [sort](const auto &a, const auto &b) {
      return sort->ascending ? a.first < b.first : a.first > b.first;
    });
    for (unsigned i = 0; i < sort->n; ++i) {
      sort->keys[i] = static_cast<unsigned>(pairs[i].first);
      sort->values[i] = pairs[i].second;
    }
  }
  delete sort;
}

// Queues the round trip: device to pinned host memory, the host sort, and back.
void sort_behind_copies(void *keys, void *values, unsigned n, bool ascending, bool floats) {
  const std::size_t bytes = n * sizeof(unsigned);
  HostSort *sort =
      new HostSort{pinned_words(n, 0), values ? pinned_words(n, 1) : nullptr, n, ascending, floats};
  CUDA_CHECK(cudaMemcpyAsync(sort->keys, keys, bytes, cudaMemcpyDeviceToHost));
  if (values != nullptr) {
    CUDA_CHECK(cudaMemcpyAsync(sort->values, values, bytes, cudaMemcpyDeviceToHost));
  }
  unsigned *host_keys = sort->keys;
  unsigned *host_values = sort->values;
  CUDA_CHECK(cudaLaunchHostFunc(0, sort_queued, sort));
  CUDA_CHECK(cudaMemcpyAsync(keys, host_keys, bytes, cudaMemcpyHostToDevice));
  if (values != nullptr) {
    CUDA_CHECK(cudaMemcpyAsync(values, host_values, bytes, cudaMemcpyHostToDevice));
  }
  count_launches_not_made(n);
}

}  // namespace

// Exercise 1: any n, no padding.
void bitonic_sort(int *keys, unsigned n, bool ascending) {
  sort_behind_copies(keys, nullptr, n, ascending, false);
}

// Exercise 2: pairs, sorted by key.
void bitonic_sort_pairs(int *keys, int *values, unsigned n, bool ascending) {
  sort_behind_copies(keys, values, n, ascending, false);
}

// Exercise 3: floats in IEEE 754 totalOrder.
void bitonic_sort_floats(float *keys, unsigned n, bool ascending) {
  sort_behind_copies(keys, nullptr, n, ascending, true);
}
