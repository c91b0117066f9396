// v5_bank_free: the loads and stores of the tile no longer make two lanes share a bank.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// What changes from v4_half_threads, and why
//   Shared memory is split into 32 banks, 4-byte word w in bank w % 32; a bank serves one word
//   per cycle, so when two lanes of a warp touch two different words of one bank in the same
//   instruction, the access is split in two (a 2-way bank conflict). In v4 thread t moved the
//   tile words 2t and 2t + 1 between global and shared memory: in one instruction lane l
//   touches word 2l (or 2l + 1), and lanes l and l + 16 land in the same bank. Now thread t
//   moves words t and t + blockDim.x (tile_slot in bitonic_index.h, its only change): each
//   instruction covers 32 consecutive words, one per bank, and 128 consecutive bytes of global
//   memory. The compare steps and the register phase were conflict-free already
//   (tests/stages/banks_v4_test.cpp).
//
// Prediction
//   Only the tile loads and stores change: 2 shared-memory stores and 2 loads per thread per
//   in-block launch, against at least 2 loads and 2 stores per compare step. The in-block
//   launches are about 10% of the passes at large n, and a conflict costs a replay, not a trip
//   to memory. Expect a gain of a few percent at most at 2^20 and below and none that can be
//   measured at 2^24 and above, where bitonic_step dominates (Rousomanis measured 1%).
//   Speedup at 2^29 over the stage before: 1.0x .. 1.02x; none measurable at 2^24 and above.
//
// Build and run
//   meson setup build && meson compile -C build v5_bank_free
//   build/v5_bank_free/v5_bank_free --log2 24
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
