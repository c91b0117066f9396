// cluster_steps: what one compare step costs when its pairs lie in two blocks of a thread block
// cluster (sm_90's distributed shared memory), against one within a block, timed.
//
// v15_tile4096's passes hold 2^14 keys in one block's shared memory: a pass runs the compare
// steps of 14 index bits at most, and 2^29 keys take 31 passes. A cluster of C blocks (C = 2 ..
// 16 on sm_90) could hold C x 2^14 keys and run log2 C more steps a pass: fewer passes, but each
// extra step pairs a key with one in another block's shared memory, and the blocks of the
// cluster wait for each other at every such step. This program measures that price alone, on
// keys read from and written to device memory once, as a pass does:
//   pass     one launch that reads every key into registers and writes it out: no step, the
//            floor of any pass of this shape (512 threads a block, 32 keys a thread, 2^14 keys)
//   block    the same with `steps` compare steps (1 .. 4) within each block: step j pairs the
//            key of slot s with that of slot s ^ 2^(5 + j) of the block's shared memory, keys
//            of two warps, a block barrier on each side of the reads
//   cluster  the same on clusters of C = 2 .. 16 blocks with log2 C steps across them: step j
//            pairs block rank r with rank r ^ 2^j, each thread reading the partner block's
//            shared memory through cluster.map_shared_rank, a cluster barrier on each side
//   copy     a device-to-device cudaMemcpyAsync of the keys: the course's unit, a copy
// pass and block are launched as clusters of one block, so that every launch is made alike.
// Every step keeps the smaller key in the lower of its two slots, as an ascending merge's step
// does. Each method's output (its first run, which also warms it up) is checked against the same
// steps run on the host; then the median of R runs, CUDA events around each. Needs a GPU that
// launches clusters (compute capability 9.0 or newer); the file is compiled for sm_90 whatever the
// build's gpu_arch (tools/meson.build).
//
//   build/tools/cluster_steps --log2 24 --reps 10 --csv
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli.h"
#include "cuda_buffers.h"
#include "cuda_check.h"
#include "device.h"
#include "errors.h"
#include "keys.h"
#include "padding.h"
#include "sort_runner.h"

namespace {

namespace cg = cooperative_groups;

// A block as a v13 .. v15 group: 512 threads of 32 keys, 2^14 keys in 64 KB of shared memory.
constexpr unsigned kThreads = 512;
constexpr unsigned kKeysPerThread = 32;
constexpr unsigned kBlockKeys = kThreads * kKeysPerThread;
constexpr unsigned kBlockBits = 14;
constexpr unsigned kMostSteps = 4;
constexpr std::size_t kSharedBytes = kBlockKeys * sizeof(int);

// A block barrier or, across the blocks, a cluster barrier: after it every thread of the
// cluster has written its keys to its block's shared memory, or read its partner's.
template <bool kAcrossBlocks>
__device__ void wait_for_partners() {
  if constexpr (kAcrossBlocks) {
#if __CUDA_ARCH__ >= 900
    cg::this_cluster().sync();
#else
    __trap();  // No clusters below sm_90; main() refuses such a GPU before any launch.
#endif
  } else {
    __syncthreads();
  }
}

// The shared memory a thread reads its partners' keys from, and whether it keeps the smaller
// key, at step j. Across blocks: the block of rank r ^ 2^j, slot for slot, and the lower rank
// keeps the smaller (ranks are bits 14 .. of the key's index within the cluster). Within a block:
// the same memory, read at slot ^ 2^(5 + j) (see run_steps), and the thread without that bit
// keeps the smaller.
template <bool kAcrossBlocks>
__device__ const int *partner_words(int *words, unsigned j, bool &keeps_smaller) {
  if constexpr (kAcrossBlocks) {
#if __CUDA_ARCH__ >= 900
    const cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank();
    keeps_smaller = (rank & (1u << j)) == 0;
    return cluster.map_shared_rank(words, rank ^ (1u << j));
#else
    __trap();
    return words;
#endif
  } else {
    keeps_smaller = (threadIdx.x & (32u << j)) == 0;
    return words;
  }
}

// Reads 2^14 keys a block, runs kSteps compare steps on them, largest stride first, and writes
// them to `out`. Key m of thread t is key m * 512 + t of the block: a warp reads 32 neighbouring
// keys, and that is also the key's slot in shared memory, so a warp's accesses fall in 32
// different banks, in its own slots or, within a block, in those of the warp 2^j away.
template <bool kAcrossBlocks, unsigned kSteps>
__global__ void __launch_bounds__(kThreads) run_steps(const int *in, int *out) {
  extern __shared__ int words[];
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * kBlockKeys;
  int key[kKeysPerThread];
#pragma unroll
  for (unsigned m = 0; m < kKeysPerThread; ++m) {
    key[m] = in[first + m * kThreads + threadIdx.x];
  }
#pragma unroll
  for (unsigned steps_left = kSteps; steps_left > 0; --steps_left) {
    const unsigned j = steps_left - 1;
#pragma unroll
    for (unsigned m = 0; m < kKeysPerThread; ++m) {
      words[m * kThreads + threadIdx.x] = key[m];
    }
    // Every partner's keys are in its shared memory before any is read.
    wait_for_partners<kAcrossBlocks>();
    bool keeps_smaller = false;
    const int *partner = partner_words<kAcrossBlocks>(words, j, keeps_smaller);
    const unsigned slot = kAcrossBlocks ? threadIdx.x : threadIdx.x ^ (32u << j);
#pragma unroll
    for (unsigned m = 0; m < kKeysPerThread; ++m) {
      const int other = partner[m * kThreads + slot];
      key[m] = keeps_smaller ? min(key[m], other) : max(key[m], other);
    }
    // Every partner has read these keys before the next step overwrites them, and before a
    // block of the cluster ends: a block's shared memory must outlive the reads of the others.
    wait_for_partners<kAcrossBlocks>();
  }
#pragma unroll
  for (unsigned m = 0; m < kKeysPerThread; ++m) {
    out[first + m * kThreads + threadIdx.x] = key[m];
  }
}

using StepsKernel = void (*)(const int *, int *);

StepsKernel steps_kernel(bool across_blocks, unsigned steps) {
  static const StepsKernel within[] = {run_steps<false, 0>, run_steps<false, 1>,
                                       run_steps<false, 2>, run_steps<false, 3>,
                                       run_steps<false, 4>};
  static const StepsKernel across[] = {run_steps<true, 0>, run_steps<true, 1>, run_steps<true, 2>,
                                       run_steps<true, 3>, run_steps<true, 4>};
  return across_blocks ? across[steps] : within[steps];
}

// What one row measures: `steps` steps within a block, or across clusters of `cluster` blocks.
struct Method {
  std::string name;
  unsigned cluster;
  unsigned steps;
};

// The launch of one method over n keys, with clusters of method.cluster blocks.
cudaLaunchConfig_t launch_config(const Method &method, unsigned n, cudaLaunchAttribute &cluster) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(n / kBlockKeys);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = kSharedBytes;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = method.cluster;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  return config;
}

StepsKernel prepared_kernel(const Method &method) {
  const StepsKernel kernel = steps_kernel(method.name == "cluster", method.steps);
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  static_cast<int>(kSharedBytes)));
  // 16 blocks is beyond the portable cluster size (8), which sm_90 allows when asked.
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  return kernel;
}

// How many clusters of the method the GPU runs at once (cudaOccupancyMaxActiveClusters).
int active_clusters(const Method &method, StepsKernel kernel, unsigned n) {
  cudaLaunchAttribute cluster;
  const cudaLaunchConfig_t config = launch_config(method, n, cluster);
  int count = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveClusters(&count, kernel, &config));
  return count;
}

// One run of the method: the copy, or `kernel` (prepared_kernel) launched on n keys.
void run_method(const Method &method, StepsKernel kernel, const int *in, int *out, unsigned n) {
  if (method.name == "copy") {
    CUDA_CHECK(cudaMemcpyAsync(out, in, std::size_t{n} * sizeof(int), cudaMemcpyDeviceToDevice));
    return;
  }
  cudaLaunchAttribute cluster;
  const cudaLaunchConfig_t config = launch_config(method, n, cluster);
  CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, in, out));
  CHECK_LAUNCH();
}

// The method's steps on the host: step j pairs index i with i ^ stride, stride 2^(14 + j)
// across blocks and 2^(5 + j) within one (a key's slot is its index within the block).
std::vector<int> expected_output(const Method &method, std::vector<int> keys) {
  const unsigned lowest_bit = method.name == "cluster" ? kBlockBits : 5;
  for (unsigned step = 0; step < method.steps; ++step) {
    const std::size_t stride = std::size_t{1} << (lowest_bit + method.steps - 1 - step);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if ((i & stride) == 0 && keys[i + stride] < keys[i]) {
        std::swap(keys[i], keys[i + stride]);
      }
    }
  }
  return keys;
}

// Where the output first differs from the host's, or -1.
long long first_mismatch(const std::vector<int> &expected, const std::vector<int> &output) {
  const auto found = std::mismatch(expected.begin(), expected.end(), output.begin());
  return found.first == expected.end() ? -1 : found.first - expected.begin();
}

struct Row {
  Method method;
  double kernel_ms;
  int clusters;
  long long mismatch;
};

// The first run checked, then the median of `reps` runs, CUDA events around each. The kernel's
// attributes are set before, so that the host's calls do not fall inside the timed runs.
Row measure(const Method &method, const std::vector<int> &input, const int *in, int *out,
            int reps) {
  const unsigned n = static_cast<unsigned>(input.size());
  const bool copy = method.name == "copy";
  const StepsKernel kernel = copy ? nullptr : prepared_kernel(method);
  std::vector<int> output(n);
  CUDA_CHECK(cudaMemset(out, 0, std::size_t{n} * sizeof(int)));
  run_method(method, kernel, in, out, n);
  CUDA_CHECK(cudaMemcpy(output.data(), out, std::size_t{n} * sizeof(int), cudaMemcpyDeviceToHost));
  const long long mismatch = first_mismatch(expected_output(method, input), output);
  CudaEvent start, stop;
  std::vector<double> times;
  for (int rep = 0; rep < reps; ++rep) {
    start.record();
    run_method(method, kernel, in, out, n);
    stop.record();
    stop.synchronize();
    times.push_back(stop.milliseconds_since(start));
  }
  return {method, median(times), copy ? 0 : active_clusters(method, kernel, n), mismatch};
}

std::vector<Method> methods() {
  std::vector<Method> list = {{"copy", 1, 0}, {"pass", 1, 0}};
  for (unsigned steps = 1; steps <= kMostSteps; ++steps) {
    list.push_back({"block", 1, steps});
  }
  for (unsigned steps = 1; steps <= kMostSteps; ++steps) {
    list.push_back({"cluster", 1u << steps, steps});
  }
  return list;
}

}  // namespace

int main(int argc, char **argv) {
  const ProgramSpec program{"cluster_steps", {}};
  try {
    const Options options =
        parse_command_line(std::vector<std::string>(argv + 1, argv + argc), program);
    if (options.help) {
      std::cout << "usage: cluster_steps [--log2 Q] [--reps R] [--dist D] [--seed S] [--device ID]"
                   " [--csv]\n"
                   "Times one pass over 2^Q keys with compare steps within a block and across\n"
                   "the blocks of a thread block cluster (2 .. 16 blocks), against a copy.\n"
                   "Q from 18 to 30; needs compute capability 9.0 or newer.\n";
      return kExitSuccess;
    }
    if (!options.input_path.empty() || !options.output_path.empty() || !options.ascending) {
      throw FatalError(kExitBadInput,
                       "cluster_steps makes its own keys and steps: no --input, --output or "
                       "--order");
    }
    const std::uint64_t smallest = std::uint64_t{kBlockKeys} << kMostSteps;
    if (options.n < smallest || (options.n & (options.n - 1)) != 0 || options.n > kMaxKeys) {
      throw FatalError(kExitBadInput,
                       "n must be a power of two from 2^18 (a cluster of 16 "
                       "blocks of 2^14 keys) to 2^30 (use --log2)");
    }
    const DeviceInfo device = select_device(options.device);
    int clusters = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device.id));
    if (!clusters) {
      throw FatalError(kExitCudaError,
                       device.name + " (compute capability " + device.compute_capability +
                           ") cannot launch thread block clusters: 9.0 or newer");
    }
    const unsigned n = static_cast<unsigned>(options.n);
    require_device_memory(2 * std::uint64_t{n} * sizeof(int), "the keys and their output");
    const std::vector<int> input = generate_keys(options.distribution, n, options.seed);
    DeviceBuffer in(n), out(n);
    CUDA_CHECK(
        cudaMemcpy(in.data(), input.data(), std::size_t{n} * sizeof(int), cudaMemcpyHostToDevice));
    std::vector<Row> rows;
    for (const Method &method : methods()) {
      rows.push_back(measure(method, input, in.data(), out.data(), options.reps));
    }
    if (options.format == OutputFormat::kCsv && options.header) {
      std::printf(
          "method,cluster_blocks,steps,n,reps,kernel_ms,active_clusters,validation,"
          "device,cuda_runtime,cuda_driver\n");
    }
    bool all_passed = true;
    for (const Row &row : rows) {
      const bool passed = row.mismatch < 0;
      all_passed = all_passed && passed;
      if (options.format == OutputFormat::kCsv) {
        std::printf("%s,%u,%u,%u,%d,%.6f,%d,%s,%s,%s,%s\n", row.method.name.c_str(),
                    row.method.cluster, row.method.steps, n, options.reps, row.kernel_ms,
                    row.clusters, passed ? "pass" : "FAIL", device.name.c_str(),
                    device.runtime_version.c_str(), device.driver_version.c_str());
      } else {
        std::printf("%-8s %2u blocks %u steps %10.4f ms %5d clusters at once  %s\n",
                    row.method.name.c_str(), row.method.cluster, row.method.steps, row.kernel_ms,
                    row.clusters, passed ? "pass" : "FAIL");
      }
      if (!passed) {
        std::fprintf(stderr, "cluster_steps: %s of %u steps: first mismatch at key %lld\n",
                     row.method.name.c_str(), row.method.steps, row.mismatch);
      }
    }
    return all_passed ? kExitSuccess : kExitValidationFailed;
  } catch (const FatalError &error) {
    std::cerr << "cluster_steps: error: " << error.what() << "\n";
    return error.exit_code();
  }
}
