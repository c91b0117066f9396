// gpu_activity.cu: gpu_activity_of_sort from CUPTI's activity records (gpu_activity.h). CUPTI hands
// its records over in buffers this file gives it (buffer_requested) and takes back full
// (buffer_completed), where the kernels and the host copies are counted.
#include "gpu_activity.h"

#include <stdexcept>
#include <string>

#include "cuda_buffers.h"
#include "cuda_check.h"

#ifdef COURSE_NO_CUPTI

GpuActivity gpu_activity_of_sort(const std::function<void(int *, unsigned)> &,
                                 const std::vector<int> &) {
  throw std::runtime_error(
      "CUPTI (cupti.h and libcupti, part of the CUDA toolkit) was not found when the build was "
      "configured, so the kernels the GPU ran cannot be counted: install it and run meson setup "
      "--reconfigure");
}

#else

#include <cupti.h>

#include <atomic>
#include <cstdlib>

namespace {

// The memory-copy record of this CUPTI: its sixth form from CUDA 12.8 (CUPTI API 26) on, the
// fifth before; the fields read here are the same in both.
#if CUPTI_API_VERSION >= 26
using MemcpyRecord = CUpti_ActivityMemcpy6;
#else
using MemcpyRecord = CUpti_ActivityMemcpy5;
#endif

void check_cupti(CUptiResult result, const char *call) {
  if (result != CUPTI_SUCCESS) {
    const char *text = nullptr;
    cuptiGetResultString(result, &text);
    throw std::runtime_error(std::string("CUPTI: ") + call +
                             " failed: " + (text != nullptr ? text : "unknown error") +
                             " (under compute-sanitizer or Nsight Compute CUPTI is taken)");
  }
}

// CUPTI may complete a buffer on a thread of its own: the counts are atomic. A record that
// could not be read or was dropped would make the counts too small, which a right answer would
// fail on: that is reported instead (records_lost).
std::atomic<unsigned long long> kernels_seen{0};
std::atomic<unsigned long long> host_bytes_seen{0};
std::atomic<bool> records_lost{false};

// A record buffer of 1 MiB, aligned to the 8 bytes CUPTI asks for; no limit on its records.
constexpr std::size_t kBufferBytes = std::size_t{1} << 20;

void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

// Whether a copy reads or writes host memory: by its kind (array copies included) or by the
// memory at either end, pageable or pinned. A sort that only runs kernels copies nothing, and a
// copy within the device is no host work.
bool touches_host(const MemcpyRecord &copy) {
  const uint8_t kind = copy.copyKind;
  const auto host = [](uint8_t memory) {
    return memory == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE ||
        memory == CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  };
  return kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD || kind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ||
      kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOA || kind == CUPTI_ACTIVITY_MEMCPY_KIND_ATOH ||
      kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOH || host(copy.srcKind) || host(copy.dstKind);
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer, size_t,
                               size_t valid) {
  CUpti_Activity *record = nullptr;
  CUptiResult result = CUPTI_SUCCESS;
  while ((result = cuptiActivityGetNextRecord(buffer, valid, &record)) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      ++kernels_seen;
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY &&
               touches_host(*reinterpret_cast<const MemcpyRecord *>(record))) {
      host_bytes_seen += reinterpret_cast<const MemcpyRecord *>(record)->bytes;
    }
  }
  size_t dropped = 0;
  if (result != CUPTI_ERROR_MAX_LIMIT_REACHED ||
      cuptiActivityGetNumDroppedRecords(context, stream, &dropped) != CUPTI_SUCCESS ||
      dropped != 0) {
    records_lost = true;
  }
  std::free(buffer);
}

// The two kinds of record, enabled for the life of one object, disabled even where the sort
// throws.
class Recording {
 public:
  Recording() {
    check_cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                "cuptiActivityEnable(CONCURRENT_KERNEL)");
    check_cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityEnable(MEMCPY)");
  }
  ~Recording() {
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
  }
  Recording(const Recording &) = delete;
  Recording &operator=(const Recording &) = delete;
};

}  // namespace

GpuActivity gpu_activity_of_sort(const std::function<void(int *device_keys, unsigned n)> &sort,
                                 const std::vector<int> &keys) {
  static const bool registered = [] {
    check_cupti(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
                "cuptiActivityRegisterCallbacks");
    return true;
  }();
  (void)registered;
  const unsigned n = static_cast<unsigned>(keys.size());
  const std::size_t bytes = keys.size() * sizeof(int);
  DeviceBuffer device_keys(keys.size());
  CUDA_CHECK(cudaMemcpy(device_keys.data(), keys.data(), bytes, cudaMemcpyHostToDevice));
  // One sort first, not counted: CUDA loads a kernel on its first launch, and a sort may set
  // itself up on its first call.
  sort(device_keys.data(), n);
  CUDA_CHECK(cudaMemcpy(device_keys.data(), keys.data(), bytes, cudaMemcpyHostToDevice));
  // What ran before is not the sort's: the GPU is idle and its records are handed over first.
  CUDA_CHECK(cudaDeviceSynchronize());
  check_cupti(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  kernels_seen = 0;
  host_bytes_seen = 0;
  records_lost = false;
  {
    const Recording recording;
    sort(device_keys.data(), n);
    // The sort may only have queued its work: its records exist once the GPU has done it.
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  check_cupti(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
  if (records_lost) {
    throw std::runtime_error(
        "CUPTI lost activity records: the kernels and copies cannot be "
        "counted");
  }
  GpuActivity activity;
  activity.kernels = kernels_seen;
  activity.host_bytes = host_bytes_seen;
  return activity;
}

#endif
