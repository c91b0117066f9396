// gpu_queue.cu: the busy kernel and the timing of gpu_queue.h.
#include "gpu_queue.h"

#include <chrono>

#include "cuda_buffers.h"
#include "cuda_check.h"

namespace {

// One thread that reads the GPU's nanosecond clock (%globaltimer) until `nanoseconds` passed.
__global__ void stay_busy(unsigned long long nanoseconds) {
  unsigned long long start = 0;
  unsigned long long now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

}  // namespace

double milliseconds_to_queue(const std::function<void(int *device_keys, unsigned n)> &sort,
                             std::vector<int> &keys) {
  const unsigned n = static_cast<unsigned>(keys.size());
  const std::size_t bytes = keys.size() * sizeof(int);
  DeviceBuffer input(keys.size());
  DeviceBuffer device_keys(keys.size());
  CUDA_CHECK(cudaMemcpy(input.data(), keys.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(device_keys.data(), keys.data(), bytes, cudaMemcpyHostToDevice));
  sort(device_keys.data(), n);
  CUDA_CHECK(cudaMemset(device_keys.data(), 0, bytes));
  CUDA_CHECK(cudaDeviceSynchronize());
  // Not CHECK_LAUNCH: this launch is the test's, not the sort's, and is not counted. The keys
  // reach the sort's buffer only after it, in the same (default) stream.
  stay_busy<<<1, 1>>>(static_cast<unsigned long long>(kBusyMs * 1e6));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(device_keys.data(), input.data(), bytes, cudaMemcpyDeviceToDevice));
  const auto start = std::chrono::steady_clock::now();
  sort(device_keys.data(), n);
  const auto stop = std::chrono::steady_clock::now();
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(keys.data(), device_keys.data(), bytes, cudaMemcpyDeviceToHost));
  return std::chrono::duration<double, std::milli>(stop - start).count();
}
