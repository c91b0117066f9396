// v0_naive: bitonic sort with one kernel launch per compare step, in global memory.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// The approach
//   The starting point of the course, a direct translation of the network. For n = 2^q keys the
//   network is a fixed list of q(q + 1) / 2 compare steps. Each step is one kernel launch
//   (bitonic_step) with one thread per element: thread i finds its partner i ^ stride and, if it
//   holds the lower element of the pair, compares the two keys in global memory and swaps them
//   when they are out of order. Kernels launched on one stream run one after another, so a
//   launch boundary is the barrier between two steps.
//
// Prediction
//   Every launch reads the whole array and writes back what it swaps: one pass, at most 8n bytes
//   (4 read + 4 written per key). The sort makes q(q + 1) / 2 passes, so its time is about that
//   many times the time of one copy of the array: at 2^24, 300 passes of 134 MB, about 13 ms at
//   the H100's 3 TB/s. For small n the few microseconds each launch costs dominate instead.
//
// Build and run
//   meson setup build && meson compile -C build v0_naive
//   build/v0_naive/v0_naive --log2 24
#include <algorithm>

#include "bitonic_index.h"
#include "cuda_check.h"
#include "stage.h"

namespace {

// Threads per block of bitonic_step. Any multiple of the warp size (32) works here; with 256 a
// multiprocessor keeps 8 blocks (2048 threads) resident, enough to hide the memory latency.
constexpr unsigned kThreadsPerBlock = 256;

// Puts keys[lower] and keys[upper] in the requested order: the smaller key first when ascending.
// The keys are written back only when they were out of order, so a step over data that is
// already in order reads the array but writes nothing.
__device__ void compare_and_swap(int *keys, unsigned lower, unsigned upper, bool ascending) {
  const int a = keys[lower];
  const int b = keys[upper];
  const bool out_of_order = ascending ? a > b : a < b;
  if (out_of_order) {
    keys[lower] = b;
    keys[upper] = a;
  }
}

// One compare step (size, stride) over all n keys. Thread i owns element i.
__global__ void bitonic_step(int *keys, unsigned size, unsigned stride, bool ascending) {
  // The grid has exactly n threads (n and the block are powers of two), so every i is a key.
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned partner = partner_index(i, stride);
  // Both threads of a pair find each other; the one holding the lower element does the work and
  // the other one has nothing to do. Half of the threads of every step idle this way.
  if (partner > i) {
    compare_and_swap(keys, i, partner, sorts_ascending(i, size, ascending));
  }
}

}  // namespace

void bitonic_sort(int *keys, unsigned n, bool ascending) {
  // A single key is sorted already.
  if (n < 2) {
    return;
  }
  const unsigned threads = std::min(n, kThreadsPerBlock);
  const unsigned blocks = n / threads;
  // One launch per step of the network, in the order for_each_launch gives (bitonic_index.h).
  for_each_launch(n, [&](const Launch &launch) {
    // The next launch starts only after this one has finished writing: the barrier between
    // two steps, paid for with one launch per step.
    bitonic_step<<<blocks, threads>>>(keys, launch.size, launch.stride, ascending);
    CHECK_LAUNCH();
  });
}
