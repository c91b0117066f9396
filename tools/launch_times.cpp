// launch_times.cpp: every kernel a course program runs, with its time on the GPU, without
// Nsight Compute. The CUDA driver loads this library into a program that runs with
//
//   CUDA_INJECTION64_PATH=build/tools/liblaunch_times.so LAUNCH_TIMES_CSV=FILE PROGRAM ...
//
// and calls InitializeInjection below when the program first uses CUDA. From then on CUPTI, the
// toolkit's profiling interface, records each kernel's start and end as the GPU's clock read
// them; when the program exits, FILE gets one line a kernel launch, in the order they started:
//
//   kernel,duration_ns
//
// tools/profile_kernels.py reads it for the durations of kernel_times.csv: one run of the
// program, where Nsight Compute runs each launch again on its own (a second or so each, and a
// sort of 2^27 keys makes up to 378). The kernels run as in any run, one after another on one
// stream; the records add a little time between launches, not to a kernel's own.
#include <cupti.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

// The kernel record of this CUPTI (the fields read here are those of every form since CUDA 11).
#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
#else
using KernelRecord = CUpti_ActivityKernel9;
#endif

struct Launch {
  std::uint64_t start_ns;
  std::uint64_t end_ns;
  std::string kernel;
};

// CUPTI may hand a full buffer over on a thread of its own.
std::mutex launches_guard;
std::vector<Launch> launches;
bool records_lost = false;

// The function's name as the source writes it ("void group_steps<14u, 0u>(int*, ...)"), or as
// CUPTI gave it where it cannot be demangled.
std::string demangled(const char *name) {
  int status = 0;
  char *readable = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  const std::string result = status == 0 && readable != nullptr ? readable : name;
  std::free(readable);
  return result;
}

constexpr std::size_t kBufferBytes = std::size_t{8} << 20;

void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer, size_t,
                               size_t valid) {
  std::lock_guard<std::mutex> lock(launches_guard);
  CUpti_Activity *record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      const auto *kernel = reinterpret_cast<const KernelRecord *>(record);
      launches.push_back({kernel->start, kernel->end, demangled(kernel->name)});
    }
  }
  size_t dropped = 0;
  records_lost = records_lost ||
      cuptiActivityGetNumDroppedRecords(context, stream, &dropped) != CUPTI_SUCCESS || dropped;
  std::free(buffer);
}

// At the program's exit: the records still in CUPTI's buffers, then the file. A run whose
// records were lost writes no file, so that the caller sees a missing timeline, not a short one.
void write_launches() {
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  const char *path = std::getenv("LAUNCH_TIMES_CSV");
  std::lock_guard<std::mutex> lock(launches_guard);
  if (records_lost || path == nullptr) {
    std::fprintf(stderr, "launch_times: %s\n",
                 records_lost ? "CUPTI dropped records; no timeline written"
                              : "LAUNCH_TIMES_CSV names no file; no timeline written");
    return;
  }
  std::sort(launches.begin(), launches.end(),
            [](const Launch &a, const Launch &b) { return a.start_ns < b.start_ns; });
  std::FILE *file = std::fopen(path, "w");
  if (file == nullptr) {
    std::fprintf(stderr, "launch_times: cannot write %s\n", path);
    return;
  }
  std::fprintf(file, "kernel,duration_ns\n");
  for (const Launch &launch : launches) {
    // A template's arguments hold commas: the name is quoted, its quotes doubled (CSV).
    std::string quoted;
    for (char c : launch.kernel) {
      quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    std::fprintf(file, "\"%s\",%llu\n", quoted.c_str(),
                 static_cast<unsigned long long>(launch.end_ns - launch.start_ns));
  }
  std::fclose(file);
}

}  // namespace

// Called by the CUDA driver where CUDA_INJECTION64_PATH names this library; 1 where the
// kernels will be recorded.
extern "C" int InitializeInjection() {
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
    std::fprintf(stderr, "launch_times: CUPTI will not record kernels (is a profiler attached?)\n");
    return 0;
  }
  std::atexit(write_launches);
  return 1;
}
