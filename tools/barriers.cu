// barriers: three ways to put a barrier between the global steps of v0's sort, timed.
//
// v0_naive ends every compare step with the end of a kernel launch: the next launch starts only
// after every thread of the previous one has written its keys. Chapter 2 sets that barrier
// beside the two others CUDA offers for a whole sort, and this program measures all three on
// the same keys, each validated against std::sort:
//   launches   v0_naive's own bitonic_sort(): one launch per step, as the stage runs it
//   graph      the same launches captured once into a CUDA Graph and replayed with one call:
//              the launches are still there, but the host submits them all at once
//   grid_sync  one cooperative launch (cudaLaunchCooperativeKernel) whose blocks all stay
//              resident; each thread loops over the pairs of a step (a grid-stride loop, so any
//              n works) and the whole grid waits at grid.sync() between steps
// The timing is the stages' own (sort_runner.h): one warm-up sort (for graph, the capture), then
// the median of R sorts, CUDA events around each.
//
// This file is compiled together with v0_naive/bitonic_sort.cu, with nvcc's per-thread default
// stream: v0's launches then go to a stream that a graph can capture (the legacy default stream
// cannot be captured). v0 itself is not changed.
//
//   build/tools/barriers --log2 20 --reps 20 --csv
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <functional>
#include <iostream>
#include <vector>

#include "bitonic_index.h"
#include "cli.h"
#include "cuda_check.h"
#include "device.h"
#include "errors.h"
#include "keys.h"
#include "sort_runner.h"
#include "stage.h"
#include "validate.h"

namespace {

namespace cg = cooperative_groups;

// Threads per block of the cooperative kernel, as v0's bitonic_step.
constexpr unsigned kThreadsPerBlock = 256;

// Every step of the network in one launch. The grid is never larger than what the GPU holds at
// once (a cooperative launch refuses more), so each thread takes the pairs i, i + grid size,
// i + 2 * grid size, ... of a step, exactly the compares v0's threads make one each.
__global__ void sort_with_grid_sync(int *keys, unsigned n, bool ascending) {
  const cg::grid_group grid = cg::this_grid();
  const unsigned first = static_cast<unsigned>(grid.thread_rank());
  const unsigned threads = static_cast<unsigned>(grid.size());
  for (unsigned size = 2; size <= n; size *= 2) {
    for (unsigned stride = size / 2; stride > 0; stride /= 2) {
      for (unsigned i = first; i < n; i += threads) {
        const unsigned partner = partner_index(i, stride);
        if (partner > i) {
          const int a = keys[i];
          const int b = keys[partner];
          if (sorts_ascending(i, size, ascending) ? a > b : a < b) {
            keys[i] = b;
            keys[partner] = a;
          }
        }
      }
      // No thread starts the next step before every thread of the grid has written this one.
      grid.sync();
    }
  }
}

// The cooperative launch: as many blocks as fit on the GPU at once, but no more than n needs.
void launch_grid_sync(int *keys, unsigned n, bool ascending, int multiprocessors) {
  int blocks_per_multiprocessor = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks_per_multiprocessor, sort_with_grid_sync, kThreadsPerBlock, 0));
  const unsigned needed = (n + kThreadsPerBlock - 1) / kThreadsPerBlock;
  const unsigned blocks =
      std::min(needed, static_cast<unsigned>(blocks_per_multiprocessor * multiprocessors));
  void *arguments[] = {&keys, &n, &ascending};
  CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void *>(sort_with_grid_sync), blocks,
                                         kThreadsPerBlock, arguments, 0, cudaStreamPerThread));
  CHECK_LAUNCH();
}

// v0's launches for one n, captured once into a graph, then replayed with one call per sort.
class GraphedSort {
 public:
  ~GraphedSort() {
    if (exec_ != nullptr) {
      cudaGraphExecDestroy(exec_);
    }
    if (graph_ != nullptr) {
      cudaGraphDestroy(graph_);
    }
  }
  void operator()(int *keys, unsigned n, bool ascending) {
    if (exec_ == nullptr) {
      // The capture records v0's launches without running them.
      CUDA_CHECK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal));
      bitonic_sort(keys, n, ascending);
      CUDA_CHECK(cudaStreamEndCapture(cudaStreamPerThread, &graph_));
      CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
      launches_ = launch_count();
      captured_ = {keys, n, ascending};
    }
    // The graph holds the pointer and the sizes it was captured with: it can only sort those.
    if (captured_.keys != keys || captured_.n != n || captured_.ascending != ascending) {
      throw FatalError(kExitCudaError, "the graph was captured for another sort");
    }
    CUDA_CHECK(cudaGraphLaunch(exec_, cudaStreamPerThread));
  }
  // The kernel launches the graph holds.
  unsigned long long launches() const {
    return launches_;
  }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  unsigned long long launches_ = 0;
  struct {
    int *keys;
    unsigned n;
    bool ascending;
  } captured_ = {nullptr, 0, false};
};

struct Row {
  const char *method;
  unsigned long long launches;
  double sort_ms;
  bool passed;
};

}  // namespace

int main(int argc, char **argv) {
  const ProgramSpec program{"barriers", {}};
  try {
    const Options options =
        parse_command_line(std::vector<std::string>(argv + 1, argv + argc), program);
    if (options.help) {
      std::cout << "usage: barriers [--log2 Q] [--reps R] [--device ID] [--csv]\n"
                   "Times v0_naive's sort of 2^Q keys with three barriers between its steps:\n"
                   "one launch per step, the launches replayed as a CUDA Graph, and one\n"
                   "cooperative launch with grid.sync() between steps.\n";
      return kExitSuccess;
    }
    if (!options.input_path.empty() || !options.output_path.empty()) {
      throw FatalError(kExitBadInput, "barriers makes its own keys: no --input or --output");
    }
    if (options.n < 2 || (options.n & (options.n - 1)) != 0 || options.n > (1u << 30)) {
      throw FatalError(kExitBadInput, "n must be a power of two from 2 to 2^30 (use --log2)");
    }
    const DeviceInfo device = select_device(options.device);
    int cooperative = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device.id));
    if (!cooperative) {
      throw FatalError(kExitCudaError, device.name + " has no cooperative launch");
    }
    const unsigned n = static_cast<unsigned>(options.n);
    const std::vector<int> input = generate_keys(options.distribution, n, options.seed);
    const std::vector<int> expected = std_sorted_copy(input, options.ascending);

    GraphedSort graphed;
    const int multiprocessors = device.multiprocessors;
    const std::vector<std::pair<const char *, DeviceSort>> methods = {
        {"launches",
         [](int *keys, unsigned size, unsigned, bool up) { bitonic_sort(keys, size, up); }},
        {"graph", [&](int *keys, unsigned size, unsigned, bool up) { graphed(keys, size, up); }},
        {"grid_sync",
         [&](int *keys, unsigned size, unsigned, bool up) {
           launch_grid_sync(keys, size, up, multiprocessors);
         }},
    };
    std::vector<Row> rows;
    for (const auto &[method, sort] : methods) {
      const TimedRun run =
          time_device_sort(sort, false, input, 0, options.ascending, 1, options.reps);
      const bool graph = std::string(method) == "graph";
      rows.push_back({method, graph ? graphed.launches() : run.launches, run.sort_ms,
                      compare_keys(expected, run.output).passed()});
    }
    const unsigned q = exact_log2(n);
    const unsigned steps = q * (q + 1) / 2;
    if (options.format == OutputFormat::kCsv && options.header) {
      std::printf(
          "method,n,steps,kernel_launches,reps,sort_ms,us_per_step,validation,device,"
          "cuda_runtime,cuda_driver\n");
    }
    bool all_passed = true;
    for (const Row &row : rows) {
      all_passed = all_passed && row.passed;
      const double us_per_step = row.sort_ms * 1000 / steps;
      if (options.format == OutputFormat::kCsv) {
        std::printf("%s,%u,%u,%llu,%d,%.6f,%.3f,%s,%s,%s,%s\n", row.method, n, steps, row.launches,
                    options.reps, row.sort_ms, us_per_step, row.passed ? "pass" : "FAIL",
                    device.name.c_str(), device.runtime_version.c_str(),
                    device.driver_version.c_str());
      } else {
        std::printf("%-10s %6u steps %6llu launches %10.4f ms %8.3f us/step  %s\n", row.method,
                    steps, row.launches, row.sort_ms, us_per_step, row.passed ? "pass" : "FAIL");
      }
    }
    return all_passed ? kExitSuccess : kExitValidationFailed;
  } catch (const FatalError &error) {
    std::cerr << "barriers: error: " << error.what() << "\n";
    return error.exit_code();
  }
}
