// gpu suite, exercise 2 (docs/29_exercises.md): the check a student's stage lists in its
// stage_gpu_tests for bitonic_sort_pairs(keys, values, n, ascending). Bitonic sort is not
// stable, so the values are checked for what any right answer has: the keys equal std::sort of
// the keys, and every (key, value) pair that went in comes out once. The values are not the
// keys' positions (i * 2654435761, all different), so an answer that writes each key's position
// instead of carrying its value fails. The launches are counted: at least those of the stage's
// network (launches_per_sort in its bitonic_index.h), the sort must only queue its work on the
// GPU (gpu_queue.h), and the GPU must run at least those kernels and copy nothing to or from the
// host while it sorts (gpu_activity.h, from CUPTI), so an answer that sorts on the host, however
// right its keys, however many launches it counts and however it hides its copies, fails.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "bitonic_index.h"
#include "cuda_buffers.h"
#include "cuda_check.h"
#include "gpu_activity.h"
#include "gpu_queue.h"
#include "keys.h"

void bitonic_sort_pairs(int *keys, int *values, unsigned n, bool ascending);

TEST_CASE("keys sorted, each value still with its key") {
  for (unsigned n : {1u, 2u, 64u, 1024u, 4096u, 1u << 16, 1u << 20}) {
    for (Distribution distribution : {Distribution::kUniform, Distribution::kFewUnique,
                                      Distribution::kEqual, Distribution::kExtremes}) {
      for (const bool ascending : {true, false}) {
        const std::vector<int> keys = generate_keys(distribution, n, n + 3);
        // All different, since 2654435761 is odd, and not positions: value i is not i.
        std::vector<int> values(n);
        for (unsigned i = 0; i < n; ++i) {
          values[i] = static_cast<int>(i * 2654435761u);
        }
        DeviceBuffer device_keys(n), device_values(n);
        CUDA_CHECK(
            cudaMemcpy(device_keys.data(), keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(device_values.data(), values.data(), n * sizeof(int),
                              cudaMemcpyHostToDevice));
        reset_launch_count();
        bitonic_sort_pairs(device_keys.data(), device_values.data(), n, ascending);
        CUDA_CHECK(cudaGetLastError());
        const unsigned long long launches = launch_count();
        std::vector<int> out_keys(n), out_values(n);
        CUDA_CHECK(cudaMemcpy(out_keys.data(), device_keys.data(), n * sizeof(int),
                              cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(out_values.data(), device_values.data(), n * sizeof(int),
                              cudaMemcpyDeviceToHost));
        std::vector<int> expected(keys);
        if (ascending) {
          std::sort(expected.begin(), expected.end());
        } else {
          std::sort(expected.begin(), expected.end(), std::greater<int>());
        }
        INFO("n = " << n << ", " << distribution_name(distribution)
                    << (ascending ? ", ascending" : ", descending"));
        CHECK(out_keys == expected);
        // Each pair out is a pair that went in, and each comes out once: the two lists of
        // pairs, sorted, are equal.
        std::vector<std::pair<int, int>> pairs_in(n), pairs_out(n);
        for (unsigned i = 0; i < n; ++i) {
          pairs_in[i] = {keys[i], values[i]};
          pairs_out[i] = {out_keys[i], out_values[i]};
        }
        std::sort(pairs_in.begin(), pairs_in.end());
        std::sort(pairs_out.begin(), pairs_out.end());
        CHECK(pairs_out == pairs_in);
        CHECK(launches >= launches_per_sort(n));
      }
    }
  }
}

TEST_CASE("the sort of pairs only queues its work on the GPU") {
  DeviceBuffer values(1u << 20);
  check_only_queues(
      [&values](int *device_keys, unsigned n) {
        bitonic_sort_pairs(device_keys, values.data(), n, true);
      },
      1u << 20, 13, "bitonic_sort_pairs of 2^20 keys");
}

TEST_CASE("the GPU runs the sort of pairs, and no key or value crosses to the host") {
  const std::vector<int> keys = generate_keys(Distribution::kUniform, 1u << 20, 23);
  DeviceBuffer values(keys.size());
  CUDA_CHECK(cudaMemset(values.data(), 0, keys.size() * sizeof(int)));
  // At least the kernels of the stage's network, as in the case above.
  const unsigned long long network = launches_per_sort(static_cast<unsigned>(keys.size()));
  const GpuActivity activity = gpu_activity_of_sort(
      [&values](int *device_keys, unsigned n) {
        bitonic_sort_pairs(device_keys, values.data(), n, true);
      },
      keys);
  INFO("bitonic_sort_pairs of 2^20 keys: the GPU ran " << activity.kernels << " kernels and copied "
                                                       << activity.host_bytes
                                                       << " bytes to or from the host");
  CHECK(activity.kernels >= network);
  CHECK(activity.host_bytes == 0);
}
