// baselines: what one would use instead of a hand-written bitonic sort, measured the same way.
//
// The same command line, timing, validation and report as the stages (driver.h):
//   std_sort   std::sort on one CPU core (no transfers; its time is the host's)
//   cub_radix  cub::DeviceRadixSort, the fastest sort for integer keys on NVIDIA GPUs
//   cub_merge  cub::DeviceMergeSort, a comparison sort like bitonic sort
//   thrust     thrust::sort, the one-line call most code uses (it picks a radix sort for int)
//   copy       not a sort: one device-to-device copy of the keys, the bandwidth ceiling that
//              the results compare every pass against (reads 4n bytes, writes 4n)
// The library calls need scratch memory. It is allocated at the first call (the warm-up run)
// and reused, so the timed runs measure the sort, except for thrust, which allocates inside
// every call, as a user of thrust::sort would see.
//
// Build and run
//   meson setup build && meson compile -C build baselines
//   build/common/baselines --log2 24 --algo cub_radix
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>
#include <thrust/system_error.h>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <functional>
#include <new>
#include <string>

#include "cuda_check.h"
#include "driver.h"
#include "errors.h"

namespace {

// Device memory that grows when asked for more and is kept between calls.
class Scratch {
 public:
  ~Scratch() {
    cudaFree(data_);
  }
  void *get(std::size_t bytes) {
    if (bytes > bytes_) {
      CUDA_CHECK(cudaFree(data_));
      data_ = nullptr;
      CUDA_CHECK(cudaMalloc(&data_, bytes));
      bytes_ = bytes;
    }
    return data_;
  }

 private:
  void *data_ = nullptr;
  std::size_t bytes_ = 0;
};

Scratch radix_alternate;
Scratch radix_temporary;
Scratch merge_temporary;
Scratch copy_target;

void std_sort_keys(std::vector<int> &keys, bool ascending) {
  if (ascending) {
    std::sort(keys.begin(), keys.end());
  } else {
    std::sort(keys.begin(), keys.end(), std::greater<int>());
  }
}

void cub_radix_sort(int *keys, unsigned n, bool ascending) {
  // Radix sort is not in place: it ping-pongs between two buffers, and `buffers` ends up
  // pointing at the one holding the result.
  cub::DoubleBuffer<int> buffers(keys, static_cast<int *>(radix_alternate.get(n * sizeof(int))));
  std::size_t temporary_bytes = 0;
  if (ascending) {
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, temporary_bytes, buffers, n));
    void *temporary = radix_temporary.get(temporary_bytes);
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temporary, temporary_bytes, buffers, n));
  } else {
    CUDA_CHECK(cub::DeviceRadixSort::SortKeysDescending(nullptr, temporary_bytes, buffers, n));
    void *temporary = radix_temporary.get(temporary_bytes);
    CUDA_CHECK(cub::DeviceRadixSort::SortKeysDescending(temporary, temporary_bytes, buffers, n));
  }
  if (buffers.Current() != keys) {
    CUDA_CHECK(cudaMemcpyAsync(keys, buffers.Current(), n * sizeof(int), cudaMemcpyDeviceToDevice));
  }
}

template <typename Before>
void cub_merge_sort_with(int *keys, unsigned n, Before before) {
  std::size_t temporary_bytes = 0;
  CUDA_CHECK(cub::DeviceMergeSort::SortKeys(nullptr, temporary_bytes, keys, n, before));
  void *temporary = merge_temporary.get(temporary_bytes);
  CUDA_CHECK(cub::DeviceMergeSort::SortKeys(temporary, temporary_bytes, keys, n, before));
}

void cub_merge_sort(int *keys, unsigned n, bool ascending) {
  if (ascending) {
    cub_merge_sort_with(keys, n, cuda::std::less<int>());
  } else {
    cub_merge_sort_with(keys, n, cuda::std::greater<int>());
  }
}

void thrust_sort(int *keys, unsigned n, bool ascending) {
  // thrust reports CUDA failures as exceptions; turn them into the course's errors.
  try {
    if (ascending) {
      thrust::sort(thrust::device, keys, keys + n);
    } else {
      thrust::sort(thrust::device, keys, keys + n, thrust::greater<int>());
    }
  } catch (const std::bad_alloc &) {
    throw FatalError(kExitOutOfMemory, "thrust::sort could not allocate its scratch memory");
  } catch (const thrust::system_error &error) {
    throw FatalError(kExitCudaError, std::string("thrust::sort failed: ") + error.what());
  }
  CUDA_CHECK(cudaGetLastError());
}

void copy_keys(int *keys, unsigned n, bool /*ascending*/) {
  CUDA_CHECK(cudaMemcpyAsync(copy_target.get(n * sizeof(int)), keys, n * sizeof(int),
                             cudaMemcpyDeviceToDevice));
}

Algorithm device_algorithm(const std::string &name, DeviceSort sort) {
  Algorithm algorithm;
  algorithm.name = name;
  algorithm.device_sort = sort;
  return algorithm;
}

}  // namespace

int main(int argc, char **argv) {
  Algorithm serial;
  serial.name = "std_sort";
  serial.host_sort = std_sort_keys;
  Algorithm copy = device_algorithm("copy", copy_keys);
  copy.is_copy = true;
  return run_program(argc, argv, "baselines",
                     {serial, device_algorithm("cub_radix", cub_radix_sort),
                      device_algorithm("cub_merge", cub_merge_sort),
                      device_algorithm("thrust", thrust_sort), copy});
}
