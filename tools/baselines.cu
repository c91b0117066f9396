// baselines: what one would use instead of a hand-written bitonic sort, measured the same way.
//
// The same command line, timing, validation and report as the stages (driver.h):
//   std_sort   std::sort on one CPU core (no transfers; its time is the host's)
//   cub_radix  cub::DeviceRadixSort, the fastest sort for integer keys on NVIDIA GPUs
//   cub_merge  cub::DeviceMergeSort, a comparison sort like bitonic sort
//   thrust     thrust::sort, the one-line call most code uses (it picks a radix sort for int)
//   copy       not a sort: one device-to-device copy of the keys, the bandwidth ceiling that
//              the results compare every pass against (reads 4n bytes, writes 4n)
// and, for many arrays of L keys sorted separately (--segment L, docs/10_v8_batched.md):
//   std_sort             std::sort of every array, one CPU core
//   cub_segmented        cub::DeviceSegmentedSort::SortKeys, CUB's sort for many arrays
//   cub_segmented_radix  cub::DeviceSegmentedRadixSort::SortKeys, one radix sort per array
//   cub_packed_radix     one cub::DeviceRadixSort of 64-bit words (array << 32 | key bits): the
//                        usual way to sort many arrays of one length with a single radix sort
// With --values (an argsort), cub_radix and cub_packed_radix run DeviceRadixSort::SortPairs
// and cub_segmented DeviceSegmentedSort::SortPairs, each key's position in its array as its
// value.
// The library calls need scratch memory. It is allocated at the first call (the warm-up run)
// and reused, so the timed runs measure the sort, except for thrust, which allocates inside
// every call, as a user of thrust::sort would see. The segmented calls find the arrays' bounds
// through an iterator that computes array * L: no offset table is read.
//
// Build and run
//   meson setup build && meson compile -C build baselines
//   build/tools/baselines --log2 24 --algo cub_radix
//   build/tools/baselines --log2 27 --segment 256 --algo cub_segmented
//   build/tools/baselines --log2 27 --segment 256 --algo cub_packed_radix --values
//   build/tools/baselines --log2 24 --algo cub_radix --values
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/sort.h>
#include <thrust/system_error.h>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <functional>
#include <new>
#include <string>

#include "cuda_check.h"
#include "driver.h"
#include "errors.h"

#include "validate.h"

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
Scratch packed_words;
Scratch value_alternate;

// Sorts every array of `segment` keys (segment == keys.size(): the whole input) on one core.
void std_sort_keys(std::vector<int> &keys, std::size_t segment, bool ascending) {
  std_sort_segments(keys.data(), keys.size() / segment, segment, ascending);
}

// After a sort that ping-pongs between two buffers, puts the result back where the keys were.
void copy_back(int *keys, cub::DoubleBuffer<int> &buffers, unsigned n) {
  if (buffers.Current() != keys) {
    CUDA_CHECK(cudaMemcpyAsync(keys, buffers.Current(), n * sizeof(int), cudaMemcpyDeviceToDevice));
  }
}

// CUB's two-call convention: the first call, without scratch memory, only says how many bytes
// of it the sort needs; the second sorts. `call(temporary, bytes)` makes one of the calls.
template <typename Call>
void with_temporary(Scratch &scratch, const char *what, Call call) {
  std::size_t temporary_bytes = 0;
  check_cuda(call(nullptr, temporary_bytes), what, __FILE__, __LINE__);
  check_cuda(call(scratch.get(temporary_bytes), temporary_bytes), what, __FILE__, __LINE__);
}

void cub_radix_sort(int *keys, unsigned n, bool ascending) {
  // Radix sort is not in place: it ping-pongs between two buffers, and `buffers` ends up
  // pointing at the one holding the result.
  cub::DoubleBuffer<int> buffers(keys, static_cast<int *>(radix_alternate.get(n * sizeof(int))));
  with_temporary(radix_temporary, "cub::DeviceRadixSort", [&](void *temporary, std::size_t &bytes) {
    return ascending ? cub::DeviceRadixSort::SortKeys(temporary, bytes, buffers, n)
                     : cub::DeviceRadixSort::SortKeysDescending(temporary, bytes, buffers, n);
  });
  copy_back(keys, buffers, n);
}

template <typename Before>
void cub_merge_sort_with(int *keys, unsigned n, Before before) {
  with_temporary(merge_temporary, "cub::DeviceMergeSort", [&](void *temporary, std::size_t &bytes) {
    return cub::DeviceMergeSort::SortKeys(temporary, bytes, keys, n, before);
  });
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

// The offset of array `array` when every array holds `segment` keys: the iterator the segmented
// sorts read their arrays' bounds from (begin: array a starts at a * segment; end: at the next).
struct ArrayStart {
  int segment;
  __host__ __device__ int operator()(int array) const {
    return array * segment;
  }
};

using ArrayStarts = thrust::transform_iterator<ArrayStart, thrust::counting_iterator<int>>;

ArrayStarts array_starts(unsigned segment) {
  return ArrayStarts(thrust::counting_iterator<int>(0), ArrayStart{static_cast<int>(segment)});
}

// Both segmented CUB sorts take the same arguments; `Sort` names which one runs.
template <typename Sort>
void cub_segmented_with(int *keys, unsigned n, unsigned segment, bool ascending, const char *what) {
  cub::DoubleBuffer<int> buffers(keys, static_cast<int *>(radix_alternate.get(n * sizeof(int))));
  const int count = static_cast<int>(n);
  const int arrays = static_cast<int>(n / segment);
  const ArrayStarts begins = array_starts(segment);
  const ArrayStarts ends = begins + 1;
  with_temporary(radix_temporary, what, [&](void *temporary, std::size_t &bytes) {
    return ascending
        ? Sort::SortKeys(temporary, bytes, buffers, count, arrays, begins, ends)
        : Sort::SortKeysDescending(temporary, bytes, buffers, count, arrays, begins, ends);
  });
  copy_back(keys, buffers, n);
}

void cub_segmented_sort(int *keys, unsigned n, unsigned segment, bool ascending) {
  cub_segmented_with<cub::DeviceSegmentedSort>(keys, n, segment, ascending,
                                               "cub::DeviceSegmentedSort");
}

void cub_segmented_radix_sort(int *keys, unsigned n, unsigned segment, bool ascending) {
  cub_segmented_with<cub::DeviceSegmentedRadixSort>(keys, n, segment, ascending,
                                                    "cub::DeviceSegmentedRadixSort");
}

// The argsort's starting values: every key's position in its array, i % segment (segment is n,
// any number, for one array). A user of the libraries' pair sorts writes them before each sort,
// so they are part of the timed sort.
__global__ void write_positions(int *indices, unsigned n, unsigned segment) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    indices[i] = static_cast<int>(i % segment);
  }
}

void launch_write_positions(int *indices, unsigned n, unsigned segment) {
  const unsigned threads = 256;
  write_positions<<<(n + threads - 1) / threads, threads>>>(indices, n, segment);
  CUDA_CHECK(cudaGetLastError());
}

// What the argsorts of --values share: each key's position in its array written as its value,
// keys and values in CUB's double buffers for `sort(key_buffers, index_buffers)`, and both put
// back where they were.
template <typename Sort>
void sort_with_positions(int *keys, int *indices, unsigned n, unsigned segment, Sort sort) {
  launch_write_positions(indices, n, segment);
  cub::DoubleBuffer<int> key_buffers(keys,
                                     static_cast<int *>(radix_alternate.get(n * sizeof(int))));
  cub::DoubleBuffer<int> index_buffers(indices,
                                       static_cast<int *>(value_alternate.get(n * sizeof(int))));
  sort(key_buffers, index_buffers);
  copy_back(keys, key_buffers, n);
  copy_back(indices, index_buffers, n);
}

// --values: cub::DeviceRadixSort::SortPairs (the whole input is one array: `segment` is n).
void cub_radix_pairs(int *keys, int *indices, unsigned n, unsigned segment, bool ascending) {
  sort_with_positions(keys, indices, n, segment, [&](auto &key_buffers, auto &index_buffers) {
    with_temporary(
        radix_temporary, "cub::DeviceRadixSort", [&](void *temporary, std::size_t &bytes) {
          using Sort = cub::DeviceRadixSort;
          return ascending
              ? Sort::SortPairs(temporary, bytes, key_buffers, index_buffers, n)
              : Sort::SortPairsDescending(temporary, bytes, key_buffers, index_buffers, n);
        });
  });
}

// --values: cub::DeviceSegmentedSort::SortPairs.
void cub_segmented_pairs(int *keys, int *indices, unsigned n, unsigned segment, bool ascending) {
  const int arrays = static_cast<int>(n / segment);
  const ArrayStarts begins = array_starts(segment);
  const ArrayStarts ends = begins + 1;
  sort_with_positions(keys, indices, n, segment, [&](auto &key_buffers, auto &index_buffers) {
    with_temporary(
        radix_temporary, "cub::DeviceSegmentedSort", [&](void *temporary, std::size_t &bytes) {
          using Sort = cub::DeviceSegmentedSort;
          return ascending ? Sort::SortPairs(temporary, bytes, key_buffers, index_buffers,
                                             static_cast<int>(n), arrays, begins, ends)
                           : Sort::SortPairsDescending(temporary, bytes, key_buffers, index_buffers,
                                                       static_cast<int>(n), arrays, begins, ends);
        });
  });
}

// The 64-bit word that sorts key `key` of array `array` among all the arrays' keys: the array in
// the high half, so that arrays stay apart and in order, and the key's bits in the low half,
// the sign bit flipped so that unsigned order is signed order (INT_MIN -> 0, INT_MAX -> 2^32 - 1).
// For a descending sort every other bit flips too, which reverses the order of the keys.
__host__ __device__ unsigned long long pack_key(unsigned array, int key, bool ascending) {
  const unsigned flip = ascending ? 0x80000000u : 0x7fffffffu;
  return (static_cast<unsigned long long>(array) << 32) | (static_cast<unsigned>(key) ^ flip);
}

// The key back from its word: the same flip undoes itself.
__host__ __device__ int unpack_key(unsigned long long word, bool ascending) {
  const unsigned flip = ascending ? 0x80000000u : 0x7fffffffu;
  return static_cast<int>(static_cast<unsigned>(word) ^ flip);
}

__global__ void pack_keys(const int *keys, unsigned long long *words, unsigned n,
                          unsigned segment_bits, bool ascending) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    words[i] = pack_key(i >> segment_bits, keys[i], ascending);
  }
}

__global__ void unpack_keys(const unsigned long long *words, int *keys, unsigned n,
                            bool ascending) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    keys[i] = unpack_key(words[i], ascending);
  }
}

unsigned log2_of(unsigned power_of_two) {
  unsigned bits = 0;
  while ((1u << bits) < power_of_two) {
    ++bits;
  }
  return bits;
}

// Packs every key with its array's number, radix-sorts the words on the bits that can differ
// (the 32 of the key and log2(n / segment) of the array), and unpacks: three launches of the
// user's own plus CUB's, all timed. With `indices` (--values), each word carries its key's
// position in its array as a value (SortPairs), which the sort leaves in `indices`.
void cub_packed_radix(int *keys, int *indices, unsigned n, unsigned segment, bool ascending) {
  unsigned long long *words =
      static_cast<unsigned long long *>(packed_words.get(2ull * n * sizeof(unsigned long long)));
  const unsigned threads = 256;
  const unsigned blocks = (n + threads - 1) / threads;
  const unsigned segment_bits = log2_of(segment);
  pack_keys<<<blocks, threads>>>(keys, words, n, segment_bits, ascending);
  CUDA_CHECK(cudaGetLastError());
  cub::DoubleBuffer<unsigned long long> buffers(words, words + n);
  const int end_bit = 32 + static_cast<int>(log2_of(n) - segment_bits);
  if (indices == nullptr) {
    with_temporary(
        radix_temporary, "cub::DeviceRadixSort", [&](void *temporary, std::size_t &bytes) {
          return cub::DeviceRadixSort::SortKeys(temporary, bytes, buffers, n, 0, end_bit);
        });
  } else {
    launch_write_positions(indices, n, segment);
    cub::DoubleBuffer<int> index_buffers(indices,
                                         static_cast<int *>(value_alternate.get(n * sizeof(int))));
    with_temporary(radix_temporary, "cub::DeviceRadixSort",
                   [&](void *temporary, std::size_t &bytes) {
                     return cub::DeviceRadixSort::SortPairs(temporary, bytes, buffers,
                                                            index_buffers, n, 0, end_bit);
                   });
    copy_back(indices, index_buffers, n);
  }
  unpack_keys<<<blocks, threads>>>(buffers.Current(), keys, n, ascending);
  CUDA_CHECK(cudaGetLastError());
}

void cub_packed_radix_sort(int *keys, unsigned n, unsigned segment, bool ascending) {
  cub_packed_radix(keys, nullptr, n, segment, ascending);
}

}  // namespace

int main(int argc, char **argv) {
  // name, kind, device sort, host sort, sorts segments, --trace-launches (stages only), and the
  // argsort of --values where there is one.
  return run_program(
      argc, argv, "baselines",
      {{"std_sort", Kind::kHost, {}, std_sort_keys, true, {}, {}},
       {"cub_radix", Kind::kLibrary, whole_array(cub_radix_sort), {}, false, {}, cub_radix_pairs},
       {"cub_merge", Kind::kLibrary, whole_array(cub_merge_sort), {}, false, {}, {}},
       {"thrust", Kind::kLibrary, whole_array(thrust_sort), {}, false, {}, {}},
       {"copy", Kind::kCopy, whole_array(copy_keys), {}, false, {}, {}},
       {"cub_segmented", Kind::kLibrary, cub_segmented_sort, {}, true, {}, cub_segmented_pairs},
       {"cub_segmented_radix", Kind::kLibrary, cub_segmented_radix_sort, {}, true, {}, {}},
       {"cub_packed_radix",
        Kind::kLibrary,
        cub_packed_radix_sort,
        {},
        true,
        {},
        cub_packed_radix}});
}
