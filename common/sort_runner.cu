// sort_runner.cu: padding, transfers and CUDA-event timing around a device sort.
#include "sort_runner.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include "cuda_buffers.h"
#include "cuda_check.h"
#include "device.h"
#include "padding.h"

namespace {

// Sets keys[0 .. count) to value: the padding after the real keys (grid-stride loop, so any
// count works with a modest grid).
__global__ void fill_keys(int *keys, unsigned count, int value) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    keys[i] = value;
  }
}

void fill_padding(int *keys, std::uint64_t count, int value) {
  if (count == 0) {
    return;
  }
  const unsigned threads = 256;
  const unsigned blocks =
      static_cast<unsigned>(std::min<std::uint64_t>((count + threads - 1) / threads, 4096));
  fill_keys<<<blocks, threads>>>(keys, static_cast<unsigned>(count), value);
  CHECK_LAUNCH();
}

// Copies the first n sorted ints back to the host, or with `kept`, the first `kept` of each
// array of `array` ints (one strided copy: a row of kept ints every array ints; one array when
// the whole input, padded, is one).
void copy_back(int *host, const int *device, std::uint64_t n, unsigned array, std::uint64_t kept) {
  if (kept == 0) {
    CUDA_CHECK(cudaMemcpyAsync(host, device, n * sizeof(int), cudaMemcpyDeviceToHost));
    return;
  }
  const std::uint64_t arrays = n < array ? 1 : n / array;
  CUDA_CHECK(cudaMemcpy2DAsync(host, kept * sizeof(int), device, array * sizeof(int),
                               kept * sizeof(int), arrays, cudaMemcpyDeviceToHost));
}

}  // namespace

TimedRun time_device_sort(const PairSort &sort, bool with_indices, bool pad_to_power_of_two,
                          const std::vector<int> &input, std::uint64_t segment, bool ascending,
                          int warmups, int reps, std::uint64_t kept, bool floats) {
  TimedRun run;
  const std::uint64_t n = input.size();
  run.padded_n = pad_to_power_of_two ? next_power_of_two(n) : n;
  const unsigned array = static_cast<unsigned>(segment == 0 ? run.padded_n : segment);
  require_device_memory((with_indices ? 2 : 1) * run.padded_n * sizeof(int),
                        std::to_string(run.padded_n) + " keys on the device");

  DeviceBuffer keys(run.padded_n);
  DeviceBuffer indices(with_indices ? run.padded_n : 0);
  // What comes back: n keys, or the first `kept` of each of the arrays of the real keys.
  const std::uint64_t arrays = segment == 0 ? 1 : n / segment;
  const std::uint64_t returned = kept == 0 ? n : arrays * kept;
  PinnedBuffer host_input(n);
  PinnedBuffer host_output(returned);
  PinnedBuffer host_indices(with_indices ? returned : 0);
  std::memcpy(host_input.data(), input.data(), n * sizeof(int));
  CudaEvent start, sort_start, sort_end, end;
  std::vector<double> sort_ms, total_ms;

  for (int run_index = 0; run_index < warmups + reps; ++run_index) {
    start.record();
    CUDA_CHECK(
        cudaMemcpyAsync(keys.data(), host_input.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    fill_padding(keys.data() + n, run.padded_n - n, padding_value(ascending, floats));
    sort_start.record();
    reset_launch_count();
    sort(keys.data(), with_indices ? indices.data() : nullptr, static_cast<unsigned>(run.padded_n),
         array, ascending);
    run.launches = launch_count();
    sort_end.record();
    copy_back(host_output.data(), keys.data(), n, array, kept);
    if (with_indices) {
      copy_back(host_indices.data(), indices.data(), n, array, kept);
    }
    end.record();
    end.synchronize();
    if (run_index >= warmups) {
      sort_ms.push_back(sort_end.milliseconds_since(sort_start));
      total_ms.push_back(end.milliseconds_since(start));
    }
  }
  run.output.assign(host_output.data(), host_output.data() + returned);
  if (with_indices) {
    run.indices.assign(host_indices.data(), host_indices.data() + returned);
  }
  run.sort_ms = median(sort_ms);
  run.total_ms = median(total_ms);
  return run;
}

void synchronize_devices(unsigned gpus) {
  for (unsigned g = 0; g < gpus; ++g) {
    CUDA_CHECK(cudaSetDevice(static_cast<int>(g)));
    CUDA_CHECK(cudaDeviceSynchronize());
  }
}

namespace {

double milliseconds_between(std::chrono::steady_clock::time_point start,
                            std::chrono::steady_clock::time_point end) {
  return std::chrono::duration<double, std::milli>(end - start).count();
}

}  // namespace

TimedRun time_gpus_sort(const GpusSort &sort, unsigned gpus, const std::vector<int> &input,
                        bool ascending, int warmups, int reps) {
  TimedRun run;
  const std::uint64_t n = input.size();
  run.padded_n = std::max<std::uint64_t>(next_power_of_two(n), gpus);
  const std::uint64_t per_gpu = run.padded_n / gpus;
  // Part g: keys first .. first + per_gpu - 1 of the padded array, of which `real` are input.
  std::vector<std::unique_ptr<DeviceBuffer>> parts;
  std::vector<int *> keys;
  for (unsigned g = 0; g < gpus; ++g) {
    CUDA_CHECK(cudaSetDevice(static_cast<int>(g)));
    // The part, and the sort's buffer for a partner's part.
    require_device_memory(2 * per_gpu * sizeof(int),
                          std::to_string(per_gpu) + " keys on GPU " + std::to_string(g) +
                              ", and as many from its partner");
    parts.push_back(std::make_unique<DeviceBuffer>(per_gpu));
    keys.push_back(parts.back()->data());
  }
  PinnedBuffer host_input(n);
  PinnedBuffer host_output(n);
  std::memcpy(host_input.data(), input.data(), n * sizeof(int));
  std::vector<double> sort_ms, total_ms, exchange_ms;
  for (int run_index = 0; run_index < warmups + reps; ++run_index) {
    const auto start = std::chrono::steady_clock::now();
    for (unsigned g = 0; g < gpus; ++g) {
      const std::uint64_t first = g * per_gpu;
      const std::uint64_t real = std::min(per_gpu, n - std::min(n, first));
      CUDA_CHECK(cudaSetDevice(static_cast<int>(g)));
      CUDA_CHECK(cudaMemcpyAsync(keys[g], host_input.data() + first, real * sizeof(int),
                                 cudaMemcpyHostToDevice));
      fill_padding(keys[g] + real, per_gpu - real, padding_value(ascending));
    }
    synchronize_devices(gpus);
    const auto sort_start = std::chrono::steady_clock::now();
    reset_launch_count();
    const double exchange = sort(keys, static_cast<unsigned>(per_gpu), ascending);
    run.launches = launch_count();
    synchronize_devices(gpus);
    const auto sort_end = std::chrono::steady_clock::now();
    for (unsigned g = 0; g < gpus; ++g) {
      const std::uint64_t first = g * per_gpu;
      const std::uint64_t real = std::min(per_gpu, n - std::min(n, first));
      CUDA_CHECK(cudaSetDevice(static_cast<int>(g)));
      CUDA_CHECK(cudaMemcpyAsync(host_output.data() + first, keys[g], real * sizeof(int),
                                 cudaMemcpyDeviceToHost));
    }
    synchronize_devices(gpus);
    const auto end = std::chrono::steady_clock::now();
    if (run_index >= warmups) {
      sort_ms.push_back(milliseconds_between(sort_start, sort_end));
      total_ms.push_back(milliseconds_between(start, end));
      exchange_ms.push_back(exchange);
    }
  }
  CUDA_CHECK(cudaSetDevice(0));
  run.output.assign(host_output.data(), host_output.data() + n);
  run.sort_ms = median(sort_ms);
  run.total_ms = median(total_ms);
  run.exchange_ms = median(exchange_ms);
  return run;
}
