// device.cu: device selection and memory checks.
#include "device.h"

#include <cuda_runtime.h>

#include "cuda_check.h"
#include "errors.h"
#include "host_memory.h"
#include "padding.h"

namespace {

std::string version_name(int version) {
  // The runtime encodes CUDA 13.0 as 13000.
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

int usable_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    // Clear the sticky error so that later calls report their own failures.
    cudaGetLastError();
    return 0;
  }
  return count;
}

DeviceInfo select_device(int id) {
  int count = 0;
  const cudaError_t result = cudaGetDeviceCount(&count);
  if (result != cudaSuccess || count == 0) {
    const std::string reason =
        result != cudaSuccess ? cudaGetErrorString(result) : "the driver reports no device";
    throw FatalError(kExitCudaError,
                     "no usable CUDA device (" + reason +
                         "); run on a machine with an NVIDIA GPU and its driver");
  }
  if (id >= count) {
    throw FatalError(kExitCudaError,
                     "--device " + std::to_string(id) + " does not exist: this machine has " +
                         std::to_string(count) + " CUDA device(s), ids 0 to " +
                         std::to_string(count - 1));
  }
  CUDA_CHECK(cudaSetDevice(id));
  cudaDeviceProp properties;
  CUDA_CHECK(cudaGetDeviceProperties(&properties, id));
  int runtime = 0;
  int driver = 0;
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  DeviceInfo info;
  info.id = id;
  info.name = properties.name;
  info.compute_capability =
      std::to_string(properties.major) + "." + std::to_string(properties.minor);
  info.multiprocessors = properties.multiProcessorCount;
  info.total_bytes = properties.totalGlobalMem;
  info.runtime_version = version_name(runtime);
  info.driver_version = version_name(driver);
  return info;
}

unsigned choose_gpus(unsigned asked) {
  // Says in one line that there is no device at all, if so.
  select_device(0);
  const unsigned usable = static_cast<unsigned>(usable_device_count());
  if (asked > usable) {
    throw FatalError(kExitCudaError,
                     "--gpus " + std::to_string(asked) + ": this machine has " +
                         std::to_string(usable) + " usable CUDA device(s)");
  }
  unsigned gpus = asked == 0 ? 1 : asked;
  while (asked == 0 && 2 * gpus <= usable && 2 * gpus <= kMaxGpus) {
    gpus *= 2;
  }
  return gpus;
}

void require_device_memory(std::uint64_t bytes, const std::string &what) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > free_bytes) {
    throw FatalError(kExitOutOfMemory,
                     "not enough device memory: " + what + " need " + mebibytes(bytes) +
                         ", the device has " + mebibytes(free_bytes) + " free of " +
                         mebibytes(total_bytes) + " (try fewer keys)");
  }
}
