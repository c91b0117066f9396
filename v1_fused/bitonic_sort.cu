// v1_fused: the steps whose pairs lie inside one block run together, in one launch.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// What changes from v0_naive, and why
//   v0 pays a launch, and a pass over the whole array, for each of the q(q + 1) / 2 steps. Yet a
//   step of stride s only pairs keys that are s apart. Cut the array into tiles of kTileSize
//   (1024) keys, one thread block per tile: every step whose stride is below the tile pairs two
//   keys of the same tile, so one block can run many such steps in a row, separated by
//   __syncthreads() instead of by launches. Two new kernels do that, both through
//   merge_in_block: block_sort runs all steps of the sizes 2 .. 1024, leaving each tile sorted
//   (alternately up and down), and block_merge finishes a larger merge once its stride has
//   dropped below the tile. Only the strides of a tile or more keep one bitonic_step launch
//   each, unchanged from v0. In bitonic_index.h, for_each_launch plans the new launches (Kernel
//   and kernel_name now name three kernels) and launches_per_sort counts them; bitonic_sort()
//   makes them. Global memory only.
//
// Prediction
//   Launches fall from q(q + 1) / 2 to 1 + (q - 10)(q - 7) / 2: from 300 to 120 at 2^24 and from
//   435 to 210 at 2^29. A fused launch still reads and writes global memory at each of its steps,
//   but a block's 4 KB tile stays in the on-chip cache between them, so device memory sees about
//   one pass per launch. Time should fall with the launch count, 2.5x at 2^24 and 2.1x at 2^29,
//   and by more at small n, where the launches were nearly all that v0 paid for.
//   Speedup at 2^29 over the stage before: 1.9x .. 2.3x; launches 435 -> 210, time down about as
//   much (2.1x).
//
// Build and run
//   meson setup build && meson compile -C build v1_fused
//   build/v1_fused/v1_fused --log2 24
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

// Steps first_stride, first_stride / 2, ..., 1 of the merge of `size`, inside one block.
// `tile` points at the block's keys, the first of which is key tile_start of the whole array;
// thread t owns key t of the tile. Every stride is below the tile size, so every partner lies in
// the same tile.
__device__ void merge_in_block(int *tile, unsigned tile_start, unsigned size, unsigned first_stride,
                               bool ascending) {
  const unsigned local = threadIdx.x;
  for (unsigned stride = first_stride; stride > 0; stride /= 2) {
    // Tiles start at multiples of the tile size, so the partner's position in the tile is
    // local ^ stride; the direction needs the position in the whole array, tile_start + local
    // (in block_sort's last merge, bit `size` of it says whether the tile is even or odd).
    const unsigned partner = partner_index(local, stride);
    if (partner > local) {
      compare_and_swap(tile, local, partner, sorts_ascending(tile_start + local, size, ascending));
    }
    // Barrier: the next step reads keys that other threads of the block have just written.
    // Every thread reaches it, the idle half too, because it stands outside the if.
    __syncthreads();
  }
}

// Sorts every tile: all steps of the sizes 2 .. tile size. Even tiles come out ascending and
// odd ones descending (sorts_ascending), so each pair of neighbouring tiles is a bitonic
// sequence, ready for the first merge above the tile. When n <= kTileSize there is one block,
// its last size is n, and the whole array comes out sorted.
__global__ void __launch_bounds__(kTileSize) block_sort(int *keys, bool ascending) {
  // One thread per key: the block is as wide as its tile.
  const unsigned tile_size = blockDim.x;
  const unsigned tile_start = blockIdx.x * tile_size;
  for (unsigned size = 2; size <= tile_size; size *= 2) {
    merge_in_block(keys + tile_start, tile_start, size, size / 2, ascending);
  }
}

// The strides of the merge of `size` that stay inside a tile: tile size / 2 down to 1.
__global__ void __launch_bounds__(kTileSize) block_merge(int *keys, unsigned size, bool ascending) {
  const unsigned tile_size = blockDim.x;
  const unsigned tile_start = blockIdx.x * tile_size;
  merge_in_block(keys + tile_start, tile_start, size, tile_size / 2, ascending);
}

}  // namespace

void bitonic_sort(int *keys, unsigned n, bool ascending) {
  // A single key is sorted already.
  if (n < 2) {
    return;
  }
  const unsigned threads = std::min(n, kThreadsPerBlock);
  const unsigned blocks = n / threads;
  // The in-block kernels run one block of tile_size threads per tile.
  const unsigned tile_size = std::min(n, kTileSize);
  const unsigned tiles = n / tile_size;
  // The launches in the order for_each_launch gives (bitonic_index.h), each one its kernel.
  for_each_launch(n, [&](const Launch &launch) {
    switch (launch.kernel) {
      case Kernel::block_sort:
        // Every size up to the tile, in one launch.
        block_sort<<<tiles, tile_size>>>(keys, ascending);
        CHECK_LAUNCH();
        break;
      case Kernel::bitonic_step:
        // Strides of a tile or more pair keys of different tiles. A block cannot wait for the
        // others inside an ordinary launch (only a cooperative launch can, at grid.sync();
        // chapter 2 measures it against a launch and finds the same cost at large n), so these
        // keep one launch per step, as in v0: the next launch starts only after this one has
        // finished writing.
        bitonic_step<<<blocks, threads>>>(keys, launch.size, launch.stride, ascending);
        CHECK_LAUNCH();
        break;
      case Kernel::block_merge:
        // The strides below the tile: one launch for all of them.
        block_merge<<<tiles, tile_size>>>(keys, launch.size, ascending);
        CHECK_LAUNCH();
        break;
    }
  });
}
