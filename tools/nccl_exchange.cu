// nccl_exchange: the speed of the exchange v25_multi_gpu makes, alone: GPUs 0 .. P - 1 in pairs
// (g and g ^ 1), each sending N int32 keys to its partner and receiving N from it, through
// ncclSend and ncclRecv in one group, as exchange_keys does. One warm-up and R timed exchanges
// per size, the host's clock from all GPUs idle to all done, the median printed per size as a
// CSV line: the bytes each GPU sends, the time, and the bandwidth one way (bytes sent / time).
// chapter 27's time model takes the link's bandwidth from it.
//
//   build/tools/nccl_exchange --gpus 2 --reps 5 > exchange.csv
#include <cuda_runtime.h>
#include <nccl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "device.h"
#include "errors.h"
#include "sort_runner.h"

namespace {

void check_nccl(ncclResult_t result, const char *call) {
  if (result != ncclSuccess) {
    throw FatalError(kExitCudaError, std::string(call) + " failed: " + ncclGetErrorString(result));
  }
}

int run(int gpus, int reps) {
  std::vector<ncclComm_t> comms(gpus);
  std::vector<int> devices(gpus);
  for (int g = 0; g < gpus; ++g) {
    devices[g] = g;
  }
  check_nccl(ncclCommInitAll(comms.data(), gpus, devices.data()), "ncclCommInitAll");
  const std::size_t most = std::size_t{1} << 30;
  std::vector<int *> sent(gpus), received(gpus);
  std::vector<cudaStream_t> streams(gpus);
  for (int g = 0; g < gpus; ++g) {
    CUDA_CHECK(cudaSetDevice(g));
    CUDA_CHECK(cudaStreamCreateWithFlags(&streams[g], cudaStreamNonBlocking));
    CUDA_CHECK(cudaMalloc(&sent[g], most * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&received[g], most * sizeof(int)));
    CUDA_CHECK(cudaMemset(sent[g], 0, most * sizeof(int)));
  }
  std::printf("gpus,bytes_per_gpu,reps,exchange_ms,gb_s_one_way\n");
  for (std::size_t count = std::size_t{1} << 16; count <= most; count *= 4) {
    std::vector<double> times;
    for (int rep = 0; rep <= reps; ++rep) {
      synchronize_devices(static_cast<unsigned>(gpus));
      const auto start = std::chrono::steady_clock::now();
      check_nccl(ncclGroupStart(), "ncclGroupStart");
      for (int g = 0; g < gpus; ++g) {
        check_nccl(ncclSend(sent[g], count, ncclInt32, g ^ 1, comms[g], streams[g]), "ncclSend");
        check_nccl(ncclRecv(received[g], count, ncclInt32, g ^ 1, comms[g], streams[g]),
                   "ncclRecv");
      }
      check_nccl(ncclGroupEnd(), "ncclGroupEnd");
      synchronize_devices(static_cast<unsigned>(gpus));
      const auto end = std::chrono::steady_clock::now();
      // The first exchange is the warm-up.
      if (rep > 0) {
        times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
      }
    }
    const double ms = median(times);
    const double bytes = static_cast<double>(count * sizeof(int));
    std::printf("%d,%.0f,%d,%.4f,%.1f\n", gpus, bytes, reps, ms, bytes / (ms * 1e6));
  }
  for (int g = 0; g < gpus; ++g) {
    CUDA_CHECK(cudaSetDevice(g));
    CUDA_CHECK(cudaFree(sent[g]));
    CUDA_CHECK(cudaFree(received[g]));
    CUDA_CHECK(cudaStreamDestroy(streams[g]));
    ncclCommDestroy(comms[g]);
  }
  return kExitSuccess;
}

}  // namespace

int main(int argc, char **argv) {
  const std::string usage = "usage: nccl_exchange --gpus P --reps R (P even, at least 2)";
  if (argc != 5 || std::string(argv[1]) != "--gpus" || std::string(argv[3]) != "--reps" ||
      std::atoi(argv[2]) < 2 || std::atoi(argv[2]) % 2 != 0 || std::atoi(argv[4]) < 1) {
    std::fprintf(stderr, "nccl_exchange: error: %s\n", usage.c_str());
    return kExitBadInput;
  }
  try {
    const int gpus = std::atoi(argv[2]);
    if (usable_device_count() < gpus) {
      throw FatalError(kExitCudaError,
                       "--gpus " + std::to_string(gpus) + ": this machine has " +
                           std::to_string(usable_device_count()) + " GPU(s)");
    }
    return run(gpus, std::atoi(argv[4]));
  } catch (const FatalError &error) {
    std::fprintf(stderr, "nccl_exchange: error: %s\n", error.what());
    return error.exit_code();
  }
}
