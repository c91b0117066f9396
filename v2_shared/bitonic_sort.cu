// v2_shared: the in-block kernels work on a copy of their tile in shared memory.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// What changes from v1_fused, and why
//   v1's block_sort and block_merge read and write global memory at every one of their steps:
//   55 steps for the sizes up to 1024 in block_sort, 10 in each block_merge. Every step's loads
//   and stores go through the L1 cache to L2 and device memory, and every __syncthreads() waits
//   for the slowest of them. Shared memory is the block's own on-chip scratchpad, next to the
//   multiprocessor's pipelines. Now block_sort and block_merge copy their tile into shared memory
//   once (load_tile), run all of its steps there, and copy it back once (store_tile).
//   merge_in_block does not change at all: it is handed a pointer to shared memory instead of
//   global memory. The copies are written for kKeysPerThread keys per thread, placed by
//   tile_slot (bitonic_index.h); here that is one key, thread t's own, and bitonic_sort() gives
//   the in-block kernels tile_size / kKeysPerThread threads. The bitonic_step launches
//   stay as they are: each of their steps touches each key once, with nothing to reuse, so
//   staging the keys through shared memory would only add a copy.
//
// Prediction
//   The same launches as v1 (210 at 2^29). Each fused launch becomes one clean pass: one read
//   and one write of its tile. Those launches are few (20 of 210 at 2^29, 11 of 66 at 2^20) but
//   they were the slow ones. Expect a clear gain where they dominate, at 2^20 and below, and a
//   smaller one (5-15%) at 2^24 and above, where the bitonic_step passes take most of the time.
//   Speedup at 2^29 over the stage before: 1.05x .. 1.15x; 5-15% at 2^24 and above.
//
// Build and run
//   meson setup build && meson compile -C build v2_shared
//   build/v2_shared/v2_shared --log2 24
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

// Copies the block's tile from global memory into shared memory: kKeysPerThread keys per
// thread, at the tile positions tile_slot gives.
__device__ void load_tile(int *tile, const int *keys, unsigned tile_start) {
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned slot = tile_slot(threadIdx.x, k, blockDim.x);
    tile[slot] = keys[tile_start + slot];
  }
  // Barrier: the first step reads partners' keys, which other threads have just loaded.
  __syncthreads();
}

// Copies the tile back to global memory. merge_in_block ends with a barrier, so every key of
// the tile is final when this runs.
__device__ void store_tile(int *keys, const int *tile, unsigned tile_start) {
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned slot = tile_slot(threadIdx.x, k, blockDim.x);
    keys[tile_start + slot] = tile[slot];
  }
}

// Sorts every tile: all steps of the sizes 2 .. tile size. Even tiles come out ascending and
// odd ones descending (sorts_ascending), so each pair of neighbouring tiles is a bitonic
// sequence, ready for the first merge above the tile. When n <= kTileSize there is one block,
// its last size is n, and the whole array comes out sorted.
__global__ void __launch_bounds__(kTileSize / kKeysPerThread)
    block_sort(int *keys, bool ascending) {
  // The block's tile in shared memory: loaded once, sorted by all the steps, stored once.
  __shared__ int tile[kTileSize];
  const unsigned tile_size = kKeysPerThread * blockDim.x;
  const unsigned tile_start = blockIdx.x * tile_size;
  load_tile(tile, keys, tile_start);
  for (unsigned size = 2; size <= tile_size; size *= 2) {
    merge_in_block(tile, tile_start, size, size / 2, ascending);
  }
  store_tile(keys, tile, tile_start);
}

// The strides of the merge of `size` that stay inside a tile: tile size / 2 down to 1.
__global__ void __launch_bounds__(kTileSize / kKeysPerThread)
    block_merge(int *keys, unsigned size, bool ascending) {
  __shared__ int tile[kTileSize];
  const unsigned tile_size = kKeysPerThread * blockDim.x;
  const unsigned tile_start = blockIdx.x * tile_size;
  load_tile(tile, keys, tile_start);
  merge_in_block(tile, tile_start, size, tile_size / 2, ascending);
  store_tile(keys, tile, tile_start);
}

}  // namespace

void bitonic_sort(int *keys, unsigned n, bool ascending) {
  // A single key is sorted already.
  if (n < 2) {
    return;
  }
  const unsigned threads = std::min(n, kThreadsPerBlock);
  const unsigned blocks = n / threads;
  // The in-block kernels run one block of tile_size / kKeysPerThread threads per tile.
  const unsigned tile_size = std::min(n, kTileSize);
  const unsigned tiles = n / tile_size;
  // The launches in the order for_each_launch gives (bitonic_index.h), each one its kernel.
  for_each_launch(n, [&](const Launch &launch) {
    switch (launch.kernel) {
      case Kernel::block_sort:
        // Every size up to the tile, in one launch.
        block_sort<<<tiles, tile_size / kKeysPerThread>>>(keys, ascending);
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
        block_merge<<<tiles, tile_size / kKeysPerThread>>>(keys, launch.size, ascending);
        CHECK_LAUNCH();
        break;
    }
  });
}
