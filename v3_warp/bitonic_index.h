// bitonic_index.h: the index arithmetic of this stage's kernels.
//
// The functions are __host__ __device__: the kernels call them on the GPU, and the cpu test
// suite calls the very same functions on the host and checks them against the reference
// network (tools/reference_network.h), step by step.
#pragma once

#include "host_device.h"

// The partner of element i in a compare step of stride `stride` (a power of two): the element
// whose index differs from i in exactly that one bit. XOR flips the bit.
//
//   stride 4, i = 1:  0001 ^ 0100 = 0101, partner 5
//   stride 4, i = 5:  0101 ^ 0100 = 0001, partner 1
//
// So the pairs are symmetric: i and its partner name each other. The element whose bit is 0 is
// the lower one of the pair (i < partner).
__host__ __device__ inline unsigned partner_index(unsigned i, unsigned stride) {
  return i ^ stride;
}

// Whether the pair whose lower element is i must end up with the smaller key first.
//
// The steps with a given `size` sort the array in blocks of `size` elements; block b covers
// indices [b * size, (b + 1) * size). "Bit `size` of i" means the bit worth `size` (size is a
// power of two), i & size: it is the lowest bit of b, so it is 0 for even blocks, which sort
// ascending, and 1 for odd blocks, which sort descending. Each even block and the odd block
// after it then form one bitonic sequence (up, then down) of 2 * size elements: exactly what the
// steps of the next size need. In the last steps size = n, the bit is 0 for every i < n, and the
// whole array comes out ascending.
//
// A descending sort flips every direction (ascending == false): the mirror image of the network.
__host__ __device__ inline bool sorts_ascending(unsigned i, unsigned size, bool ascending) {
  const bool even_block = (i & size) == 0;
  return even_block == ascending;
}

// q for n = 2^q.
inline unsigned exact_log2(unsigned n) {
  unsigned q = 0;
  while ((1u << q) < n) {
    ++q;
  }
  return q;
}

// Keys one block of the in-block kernels owns, one per thread: its tile. Every compare step
// whose stride is below the tile pairs two keys of the same tile, so one block can run it
// alone. 1024 is the largest block CUDA allows, and the larger the tile, the more steps a
// block runs and the fewer launches remain (docs/03_v1_fused.md weighs the choice).
constexpr unsigned kTileSize = 1024;

// Keys each thread of the in-block kernels copies between global and shared memory: one here,
// so thread t moves key t of its tile (v4_half_threads gives every thread two).
constexpr unsigned kKeysPerThread = 1;

// The tile element that thread `thread` of a block of `threads` threads moves in its k-th copy
// between global and shared memory, k = 0 .. kKeysPerThread - 1: a thread's keys sit next to
// each other, at thread * kKeysPerThread + k. With one key per thread (v2_shared, v3_warp) that
// is element `thread`: the 32 lanes of a warp touch 32 consecutive words, one in each
// shared-memory bank, and 128 consecutive bytes of global memory. With two (v4_half_threads),
// lane l touches words 2l and 2l + 1: in one instruction lanes l and l + 16 hit the same bank
// (docs/07_v5_bank_free.md), and the warp's 32 accesses spread over 256 bytes of global memory,
// every other word (docs/06_v4_half_threads.md).
__host__ __device__ inline unsigned tile_slot(unsigned thread, unsigned k, unsigned /*threads*/) {
  return thread * kKeysPerThread + k;
}

// The threads of a warp, its lanes. __shfl_xor_sync lets them read each other's registers.
constexpr unsigned kWarpSize = 32;

// The lanes of each warp in a block of block_threads threads: 32, or the whole block when it is
// smaller than a warp (n < 32). Blocks are powers of two, so no other warp is partly filled.
__host__ __device__ inline unsigned warp_lanes(unsigned block_threads) {
  return block_threads < kWarpSize ? block_threads : kWarpSize;
}

// The mask a shuffle takes: bit k set for every lane k that executes it. A full warp: all 32
// bits. A block smaller than a warp has only lanes 0 .. lanes - 1, and a mask must not name a
// lane that does not exist.
__host__ __device__ inline unsigned lane_mask(unsigned lanes) {
  return lanes == kWarpSize ? 0xffffffffu : (1u << lanes) - 1;
}

// The tile elements a thread holds in registers in the register phase (strides below the warp
// size), k = 0 .. kKeysPerThread - 1. The lanes of a warp hold one run of lanes *
// kKeysPerThread consecutive elements, register k of lane l the element l + k * lanes of it:
//
//   one key per thread           two keys per thread (v4_half_threads)
//   lane        0  1 .. 31       lane          0   1 ..  31
//   register 0  0  1 .. 31       register 0    0   1 ..  31      (run start +)
//                                register 1   32  33 ..  63
//
// Element and lane differ by a constant in each register, so for every stride below the warp
// size the partner element (element ^ stride) sits in the same register of lane ^ stride: one
// shuffle per register exchanges every pair. With one key per thread the element is the
// thread's own, `thread`.
__host__ __device__ inline unsigned warp_slot(unsigned thread, unsigned k, unsigned lanes) {
  // The position of the lane in its warp: thread % lanes, as lanes is a power of two.
  const unsigned lane = thread & (lanes - 1);
  // The warp's run starts after the keys of the warps before it, kKeysPerThread per thread.
  const unsigned run_start = (thread - lane) * kKeysPerThread;
  return run_start + lane + k * lanes;
}

// In a register exchange, the two lanes of a pair hold one key each, and both compute the same
// compare: each keeps the key that belongs at its own position. Position i is the lower one of
// its pair when its bit `stride` (i & stride) is 0. The lower position keeps the smaller key
// when the pair sorts ascending, the upper position when it sorts descending. Both positions
// get the same direction from sorts_ascending: they differ only in bit `stride`, and
// stride < size, so bit `size` is the same.
__host__ __device__ inline bool keeps_smaller(unsigned i, unsigned size, unsigned stride,
                                              bool ascending) {
  const bool lower = (i & stride) == 0;
  return lower == sorts_ascending(i, size, ascending);
}

// The kernels bitonic_sort launches.
enum class Kernel { block_sort, bitonic_step, block_merge };

// A kernel's name, as --trace-launches prints it.
inline const char *kernel_name(Kernel kernel) {
  switch (kernel) {
    case Kernel::block_sort:
      return "block_sort";
    case Kernel::bitonic_step:
      return "bitonic_step";
    case Kernel::block_merge:
      return "block_merge";
  }
  return "unknown";
}

// One kernel launch of bitonic_sort: which kernel, and which compare steps of the network it
// runs: `steps` consecutive steps in the network's order (sizes 2, 4, ..., n; in each size the
// strides size / 2, ..., 1), the first of them at merge size `size` and stride `stride`.
struct Launch {
  Kernel kernel;
  unsigned size;
  unsigned stride;
  unsigned steps;
};

// The launches bitonic_sort makes for n keys (a power of two), in order, each handed to
// launch(...): bitonic_sort makes it a kernel launch, and the program's --trace-launches a
// printed line. The cpu tests check that the launches run every step of the network once, in
// order, and that there are launches_per_sort(n) of them.
template <typename LaunchFunction>
void for_each_launch(unsigned n, LaunchFunction launch) {
  if (n < 2) {
    return;
  }
  const unsigned tile_size = n < kTileSize ? n : kTileSize;
  const unsigned t = exact_log2(tile_size);
  // Every size up to the tile, in one block_sort: all t(t + 1) / 2 of their steps.
  launch(Launch{Kernel::block_sort, 2, 1, t * (t + 1) / 2});
  for (unsigned size = 2 * tile_size; size <= n; size *= 2) {
    // Strides of a tile or more pair keys of different tiles: one bitonic_step each.
    for (unsigned stride = size / 2; stride >= tile_size; stride /= 2) {
      launch(Launch{Kernel::bitonic_step, size, stride, 1});
    }
    // The t strides below the tile, tile_size / 2 .. 1: one block_merge.
    launch(Launch{Kernel::block_merge, size, tile_size / 2, t});
  }
}

// The kernel launches bitonic_sort makes for n = 2^q keys, with tiles of 2^t = min(n, kTileSize)
// keys: one block_sort for every size up to the tile, then for each larger size 2^k, one
// bitonic_step per stride from 2^(k-1) down to the tile (k - t of them) and one block_merge:
//   1 + sum over k = t+1 .. q of (k - t + 1)  =  1 + (q - t)(q - t + 3) / 2
inline unsigned long long launches_per_sort(unsigned n) {
  if (n < 2) {
    return 0;
  }
  const unsigned long long q = exact_log2(n);
  const unsigned long long t = exact_log2(n < kTileSize ? n : kTileSize);
  return 1 + (q - t) * (q - t + 3) / 2;
}
