// v4_half_threads: one thread per compare pair, so that no thread idles.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// What changes from v3_warp, and why
//   Until now every kernel ran one thread per key, and at every step half of them found their
//   partner below them and had nothing to do: bitonic_step launched n threads for n / 2 pairs,
//   and in the shared-memory steps half of every warp (for strides of 32 or more, whole warps)
//   sat out each compare. Now every compare step runs one thread per pair: thread t computes the
//   lower element of pair t with get_lower_partner (bitonic_index.h), the upper one is
//   lower + stride, and every thread compares, so no thread returns early and no warp splits
//   around a branch; the XOR partner, partner_index, has no caller left and goes. That changes
//   bitonic_step, the shared-memory steps of merge_in_block and the launch of bitonic_step in
//   bitonic_sort(). The in-block kernels keep blocks of 1024 threads, which now own a pair each:
//   kKeysPerThread becomes 2 and the tile (kTileSize) doubles to 2048 keys. load_tile,
//   store_tile, tile_slot and the register phase were written for any number of keys per thread
//   and do not change.
//
// Prediction
//   Launches fall from 1 + (q - 10)(q - 7) / 2 to 1 + (q - 11)(q - 8) / 2, because one more
//   stride fits in the doubled tile: 210 to 190 at 2^29, 171 to 153 at 2^27, about 10% fewer
//   passes. bitonic_step moves the same bytes with half the threads; if it was already at the
//   memory's speed it stays there, and the sort gains about the 10% of passes. The in-block
//   kernels do the same compares with half the threads, so they should gain at 2^20 and below.
//   Speedup at 2^29 over the stage before: 1.05x .. 1.15x; about the 10% of passes.
//
// Build and run
//   meson setup build && meson compile -C build v4_half_threads
//   build/v4_half_threads/v4_half_threads --log2 24
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

// One compare step (size, stride) over all n keys. Thread t owns compare pair t.
__global__ void bitonic_step(int *keys, unsigned size, unsigned stride, bool ascending) {
  // The grid has exactly n / 2 threads (n / 2 and the block are powers of two): one per pair.
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lower = get_lower_partner(thread, stride);
  // Every thread has a pair to compare: none returns early, no warp splits around a branch.
  compare_and_swap(keys, lower, lower + stride, sorts_ascending(lower, size, ascending));
}

// Steps first_stride, first_stride / 2, ..., 1 of the merge of `size`, inside one block.
// `tile` points at the block's keys, the first of which is key tile_start of the whole array;
// thread t owns compare pair t of the tile. Every stride is below the tile size, so every pair
// lies in the same tile.
__device__ void merge_in_block(int *tile, unsigned tile_start, unsigned size, unsigned first_stride,
                               bool ascending) {
  const unsigned lanes = warp_lanes(blockDim.x);
  unsigned stride = first_stride;
  // Strides of a warp or more pair keys of threads in different warps: shared memory.
  for (; stride >= lanes; stride /= 2) {
    // Tiles start at multiples of the tile size, so the pair's positions in the tile are lower
    // and lower + stride; the direction needs the position in the whole array.
    const unsigned lower = get_lower_partner(threadIdx.x, stride);
    compare_and_swap(tile, lower, lower + stride,
                     sorts_ascending(tile_start + lower, size, ascending));
    // Barrier: the next step reads keys that other threads of the block have just written.
    __syncthreads();
  }
  // Strides below the warp pair two lanes of one warp. Each thread takes its keys into
  // registers, at the tile positions warp_slot gives: for every such stride, the partner of the
  // key in register k of lane l is the key in register k of lane l ^ stride.
  unsigned slot[kKeysPerThread];
  int key[kKeysPerThread];
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    slot[k] = warp_slot(threadIdx.x, k, lanes);
    key[k] = tile[slot[k]];
  }
  for (; stride > 0; stride /= 2) {
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      // Each lane sends key[k] to lane ^ stride and receives that lane's key[k]. The shuffle
      // waits until every lane of the mask has arrived, reads all their values, then hands
      // them out: no lane can see a half-done exchange.
      const int other = __shfl_xor_sync(lane_mask(lanes), key[k], stride);
      // Both lanes of the pair compare the same two keys; each keeps the one its position needs.
      key[k] = keeps_smaller(tile_start + slot[k], size, stride, ascending) ? min(key[k], other)
                                                                            : max(key[k], other);
    }
  }
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    tile[slot[k]] = key[k];
  }
  // Barrier: the next merge, or the store to global memory, reads keys of other warps.
  __syncthreads();
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
  // One thread per compare pair: n / 2 threads in every bitonic_step launch.
  const unsigned pairs = n / 2;
  const unsigned threads = std::min(pairs, kThreadsPerBlock);
  const unsigned blocks = pairs / threads;
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
