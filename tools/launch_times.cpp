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
// It is meant to give the profiles their durations from one run of the program, where Nsight
// Compute replays each launch on its own (a sort of 2^27 keys makes up to 378). The kernels run
// as in any run, one after another on one stream; that the records add time between launches
// and not to a kernel's own is the hypothesis, to be checked against Nsight Compute's durations.
// A run whose records were lost, or that left a kernel without times, writes no file.
#include <cupti.h>
#include <cxxabi.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

// CUPTI may hand a full buffer over on a thread of its own. Made once and never destroyed: a
// buffer CUPTI hands over during the program's exit still finds them (and is not written).
std::mutex &launches_guard = *new std::mutex;
std::vector<Launch> &launches = *new std::vector<Launch>;
bool records_lost = false;
bool written = false;

void report(const std::string &problem) {
  std::fprintf(stderr, "launch_times: %s; no timeline written\n", problem.c_str());
}

std::string cupti_text(CUptiResult result) {
  const char *text = nullptr;
  cuptiGetResultString(result, &text);
  return text != nullptr ? text : "unknown CUPTI error";
}

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
  if (written) {
    // Handed over after the file was written (the program's exit): too late to count.
    std::free(buffer);
    return;
  }
  CUpti_Activity *record = nullptr;
  CUptiResult result = CUPTI_SUCCESS;
  while ((result = cuptiActivityGetNextRecord(buffer, valid, &record)) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      const auto *kernel = reinterpret_cast<const KernelRecord *>(record);
      // A record without times (start and end 0) is a lost one.
      records_lost = records_lost || kernel->start == 0 || kernel->end <= kernel->start;
      launches.push_back({kernel->start, kernel->end, demangled(kernel->name)});
    }
  }
  // The buffer's records end with MAX_LIMIT_REACHED; any other result left some unread.
  records_lost = records_lost || result != CUPTI_ERROR_MAX_LIMIT_REACHED;
  size_t dropped = 0;
  records_lost = records_lost ||
      cuptiActivityGetNumDroppedRecords(context, stream, &dropped) != CUPTI_SUCCESS || dropped;
  std::free(buffer);
}

// At the program's exit: the records still in CUPTI's buffers, then the file, written beside
// its name and renamed, so that a reader finds the whole timeline or none.
void write_launches() {
  const CUptiResult flushed = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  const char *path = std::getenv("LAUNCH_TIMES_CSV");
  std::lock_guard<std::mutex> lock(launches_guard);
  written = true;
  if (flushed != CUPTI_SUCCESS) {
    return report("CUPTI would not hand over its last records: " + cupti_text(flushed));
  }
  if (records_lost) {
    return report("CUPTI lost records or their times");
  }
  if (path == nullptr) {
    return report("LAUNCH_TIMES_CSV names no file");
  }
  std::sort(launches.begin(), launches.end(),
            [](const Launch &a, const Launch &b) { return a.start_ns < b.start_ns; });
  const std::string partial = std::string(path) + ".partial";
  std::FILE *file = std::fopen(partial.c_str(), "w");
  if (file == nullptr) {
    return report("cannot write " + partial + ": " + std::strerror(errno));
  }
  bool ok = std::fprintf(file, "kernel,duration_ns\n") > 0;
  for (const Launch &launch : launches) {
    // A template's arguments hold commas: the name is quoted, its quotes doubled (CSV).
    std::string quoted;
    for (char c : launch.kernel) {
      quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    ok = ok &&
        std::fprintf(file, "\"%s\",%llu\n", quoted.c_str(),
                     static_cast<unsigned long long>(launch.end_ns - launch.start_ns)) > 0;
  }
  ok = std::fclose(file) == 0 && ok;
  if (!ok || std::rename(partial.c_str(), path) != 0) {
    std::remove(partial.c_str());
    report(std::string("cannot write ") + path + ": " + std::strerror(errno));
  }
}

}  // namespace

// Called by the CUDA driver where CUDA_INJECTION64_PATH names this library; 1 where the
// kernels will be recorded.
extern "C" int InitializeInjection() {
  CUptiResult result = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (result == CUPTI_SUCCESS) {
    result = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  }
  if (result != CUPTI_SUCCESS) {
    report("CUPTI will not record kernels (is a profiler attached?): " + cupti_text(result));
    return 0;
  }
  std::atexit(write_launches);
  return 1;
}
