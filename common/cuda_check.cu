// cuda_check.cu: turning CUDA errors into FatalErrors, and counting launches.
#include "cuda_check.h"

#include <string>

#include "errors.h"

namespace {

unsigned long long launches = 0;

// Meson compiles from the build folder, so __FILE__ reads "../v0_naive/bitonic_sort.cu";
// the message is clearer without the leading "../".
std::string source_location(const char *file, int line) {
  std::string path = file;
  while (path.rfind("../", 0) == 0) {
    path = path.substr(3);
  }
  return path + ":" + std::to_string(line);
}

}  // namespace

void check_cuda(cudaError_t result, const char *call, const char *file, int line) {
  if (result == cudaSuccess) {
    return;
  }
  const std::string message = std::string(call) + " failed at " + source_location(file, line) +
      ": " + cudaGetErrorString(result);
  if (result == cudaErrorMemoryAllocation) {
    throw FatalError(kExitOutOfMemory, message + " (try fewer keys)");
  }
  throw FatalError(kExitCudaError, message);
}

void check_launch(const char *file, int line) {
  const cudaError_t result = cudaGetLastError();
  if (result == cudaErrorNoKernelImageForDevice) {
    throw FatalError(kExitCudaError,
                     "kernel launch at " + source_location(file, line) +
                         " failed: " + cudaGetErrorString(result) +
                         " (the build targets another GPU; reconfigure with -Dgpu_arch=auto on "
                         "this machine, or name its compute capability, e.g. -Dgpu_arch=90)");
  }
  if (result != cudaSuccess) {
    throw FatalError(kExitCudaError,
                     "kernel launch at " + source_location(file, line) +
                         " failed: " + cudaGetErrorString(result));
  }
  ++launches;
}

void reset_launch_count() {
  launches = 0;
}

unsigned long long launch_count() {
  return launches;
}
