// gpu suite, exercise 3 (docs/29_exercises.md): the check a student's stage lists in its
// stage_gpu_tests for bitonic_sort_floats(keys, n, ascending). Every output key's bit pattern
// must equal that of a reference sorted by IEEE 754 totalOrder (float_order.h), or its exact
// reverse for a descending sort: -0.0 and +0.0 differ, and so do NaNs of different payloads.
// The launches are counted: at least those of the stage's network (launches_per_sort in its
// bitonic_index.h), the sort must only queue its work on the GPU (gpu_queue.h), and the GPU must
// run at least those kernels and copy nothing to or from the host while it sorts (gpu_activity.h,
// from CUPTI), so an answer that sorts on the host, however right its keys, however many launches
// it counts and however it hides its copies, fails.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "bitonic_index.h"
#include "cuda_buffers.h"
#include "cuda_check.h"
#include "float_order.h"
#include "gpu_activity.h"
#include "gpu_queue.h"
#include "keys.h"

void bitonic_sort_floats(float *keys, unsigned n, bool ascending);

namespace {

// n floats: random bit patterns (every kind of float, NaNs included) mixed with the cases an
// order gets wrong: both zeros, both infinities, denormals, NaNs of both signs and payloads.
std::vector<float> hard_floats(unsigned n, std::uint64_t seed) {
  const std::vector<int> bits = generate_keys(Distribution::kUniform, n, seed);
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min(),
                            float_from_bits(0x7fc00000u),
                            float_from_bits(0x7f800001u),
                            float_from_bits(0xffc00000u),
                            float_from_bits(0xff800001u),
                            1.0f,
                            -1.0f};
  std::vector<float> values(n);
  for (unsigned i = 0; i < n; ++i) {
    std::memcpy(&values[i], &bits[i], sizeof(float));
    if (i % 3 == 0) {
      values[i] = specials[(i / 3) % (sizeof specials / sizeof specials[0])];
    }
  }
  return values;
}

std::vector<std::uint32_t> patterns(const std::vector<float> &values) {
  std::vector<std::uint32_t> bits(values.size());
  std::memcpy(bits.data(), values.data(), values.size() * sizeof(float));
  return bits;
}

}  // namespace

TEST_CASE("floats in IEEE 754 totalOrder, bit for bit") {
  for (unsigned n : {1u, 16u, 1024u, 4096u, 1u << 16, 1u << 20}) {
    for (const bool ascending : {true, false}) {
      const std::vector<float> input = hard_floats(n, n + 5);
      DeviceBuffer keys(n);
      CUDA_CHECK(cudaMemcpy(keys.data(), input.data(), n * sizeof(float), cudaMemcpyHostToDevice));
      reset_launch_count();
      bitonic_sort_floats(reinterpret_cast<float *>(keys.data()), n, ascending);
      CUDA_CHECK(cudaGetLastError());
      const unsigned long long launches = launch_count();
      std::vector<float> output(n);
      CUDA_CHECK(cudaMemcpy(output.data(), keys.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
      std::vector<float> expected(input);
      std::sort(expected.begin(), expected.end(), float_total_order_less);
      if (!ascending) {
        std::reverse(expected.begin(), expected.end());
      }
      INFO("n = " << n << (ascending ? ", ascending" : ", descending"));
      CHECK(patterns(output) == patterns(expected));
      CHECK(launches >= launches_per_sort(n));
    }
  }
}

TEST_CASE("the sort of floats only queues its work on the GPU") {
  const std::vector<float> input = hard_floats(1u << 20, 17);
  std::vector<int> keys(input.size());
  std::memcpy(keys.data(), input.data(), input.size() * sizeof(float));
  const double returned_ms = milliseconds_to_queue(
      [](int *device_keys, unsigned n) {
        bitonic_sort_floats(reinterpret_cast<float *>(device_keys), n, true);
      },
      keys);
  std::vector<float> output(keys.size());
  std::memcpy(output.data(), keys.data(), keys.size() * sizeof(float));
  std::vector<float> expected(input);
  std::sort(expected.begin(), expected.end(), float_total_order_less);
  CHECK(patterns(output) == patterns(expected));
  INFO("bitonic_sort_floats of 2^20 keys returned " << returned_ms << " ms after its call, "
                                                    << "behind a " << kBusyMs << " ms kernel");
  CHECK(returned_ms < kQueueingMs);
}

TEST_CASE("the GPU runs the sort of floats, and no key crosses to the host") {
  const std::vector<float> input = hard_floats(1u << 20, 19);
  std::vector<int> keys(input.size());
  std::memcpy(keys.data(), input.data(), input.size() * sizeof(float));
  // At least the kernels of the stage's network, as in the case above.
  const unsigned long long network = launches_per_sort(static_cast<unsigned>(keys.size()));
  const GpuActivity activity = gpu_activity_of_sort(
      [](int *device_keys, unsigned n) {
        bitonic_sort_floats(reinterpret_cast<float *>(device_keys), n, true);
      },
      keys);
  INFO("bitonic_sort_floats of 2^20 keys: the GPU ran "
       << activity.kernels << " kernels and copied " << activity.host_bytes
       << " bytes to or from the host");
  CHECK(activity.kernels >= network);
  CHECK(activity.host_bytes == 0);
}
