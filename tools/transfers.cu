// transfers: host <-> device copy speed from pageable and from pinned host memory.
//
// Copies n int32 keys to the device and back, from an ordinary (pageable) std::vector and from
// a pinned buffer, one warm-up and R timed copies each way, CUDA events around each copy, and
// prints the medians. Pageable memory can be swapped out by the operating system, so the driver
// first copies it through a pinned staging buffer of its own; pinned memory is read by the copy
// engine directly. The results chapter sets these times beside the sort times.
//
//   build/tools/transfers --log2 29 --reps 5 --csv
#include <cuda_runtime.h>

#include <cstdio>
#include <iostream>
#include <vector>

#include "cli.h"
#include "cuda_buffers.h"
#include "cuda_check.h"
#include "device.h"
#include "errors.h"
#include "host_memory.h"
#include "sort_runner.h"

namespace {

double time_copy(void *target, const void *source, std::size_t bytes, cudaMemcpyKind kind,
                 int reps) {
  CudaEvent start, stop;
  std::vector<double> times;
  for (int rep = 0; rep <= reps; ++rep) {
    start.record();
    CUDA_CHECK(cudaMemcpyAsync(target, source, bytes, kind));
    stop.record();
    stop.synchronize();
    // The first copy is the warm-up.
    if (rep > 0) {
      times.push_back(stop.milliseconds_since(start));
    }
  }
  return median(times);
}

}  // namespace

int main(int argc, char **argv) {
  const ProgramSpec program{"transfers", {}};
  try {
    const Options options =
        parse_command_line(std::vector<std::string>(argv + 1, argv + argc), program);
    if (options.help) {
      std::cout << "usage: transfers [--log2 Q | -n N] [--reps R] [--device ID] [--csv]\n"
                   "Times host-to-device and device-to-host copies of n int32 keys from pageable\n"
                   "and from pinned host memory.\n";
      return kExitSuccess;
    }
    const std::size_t bytes = options.n * sizeof(int);
    const DeviceInfo device = select_device(options.device);
    require_device_memory(bytes, std::to_string(options.n) + " keys on the device");
    require_host_memory(2 * bytes, std::to_string(options.n) + " keys, pageable and pinned");
    // Filled, so that every page of the pageable buffer really exists before the timing.
    std::vector<int> pageable(options.n, 1);
    PinnedBuffer pinned(options.n);
    DeviceBuffer keys(options.n);
    std::fill(pinned.data(), pinned.data() + options.n, 1);

    struct Row {
      const char *memory;
      const char *direction;
      double ms;
    };
    const Row rows[] = {
        {"pageable", "host_to_device",
         time_copy(keys.data(), pageable.data(), bytes, cudaMemcpyHostToDevice, options.reps)},
        {"pageable", "device_to_host",
         time_copy(pageable.data(), keys.data(), bytes, cudaMemcpyDeviceToHost, options.reps)},
        {"pinned", "host_to_device",
         time_copy(keys.data(), pinned.data(), bytes, cudaMemcpyHostToDevice, options.reps)},
        {"pinned", "device_to_host",
         time_copy(pinned.data(), keys.data(), bytes, cudaMemcpyDeviceToHost, options.reps)},
    };
    if (options.format == OutputFormat::kCsv && options.header) {
      std::printf("memory,direction,n,bytes,reps,ms,gb_s,device,cuda_runtime,cuda_driver\n");
    }
    for (const Row &row : rows) {
      const double gb_s = bytes / (row.ms * 1e6);
      if (options.format == OutputFormat::kCsv) {
        std::printf("%s,%s,%llu,%zu,%d,%.4f,%.2f,%s,%s,%s\n", row.memory, row.direction,
                    static_cast<unsigned long long>(options.n), bytes, options.reps, row.ms, gb_s,
                    device.name.c_str(), device.runtime_version.c_str(),
                    device.driver_version.c_str());
      } else {
        std::printf("%-8s %-14s %10.3f ms %8.2f GB/s\n", row.memory, row.direction, row.ms, gb_s);
      }
    }
    return kExitSuccess;
  } catch (const FatalError &error) {
    std::cerr << "transfers: error: " << error.what() << "\n";
    return error.exit_code();
  }
}
