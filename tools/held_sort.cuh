// held_sort.cuh: v8_batched's sort of the keys a thread already holds, for the lab's argsorts of
// many short arrays (word_argsort.cu, rank_argsort.cu). It compiles v8_batched/bitonic_sort.cu
// in (v8's folder is on the include path), so that their kernels can call v8's device functions,
// which that file keeps to itself; v8 is not changed. One source file of a program includes it.
// Also the launch both argsorts share.
#pragma once

#include <string>

#include "bitonic_sort.cu"
#include "errors.h"

namespace {

// block_sort's network (v8_batched) on the keys a thread already holds: every array of `segment`
// keys of the tile sorted ascending. The same calls as block_sort, ascending, without the loads
// and stores, so that a kernel of the lab can sort keys it holds, and more than once.
__device__ void sort_held_keys(int (&key)[kKeysPerThread], int *tile, unsigned first,
                               unsigned tile_size, unsigned segment) {
  const unsigned lanes = warp_lanes(blockDim.x);
  sort_thread_keys(key, first, tile_size, segment, true);
  bool flipped = false;
#pragma unroll
  for (unsigned size_bit = kRegisterBits + 1; size_bit <= kTileBits; ++size_bit) {
    const unsigned size = 1u << size_bit;
    if (size > tile_size || size > segment) {
      break;
    }
    const bool flip = !sorts_ascending(index_in_array(first, segment), size, true);
    flip_keys(key, flip != flipped);
    flipped = flip;
    merge_in_block(key, tile, size_bit - 1, 0, lanes);
  }
  flip_keys(key, flipped);
}

// The kernel of a lab argsort: every array of `segment` keys of a tile of `tile_size` keys
// (block blockIdx.x's) sorted in the requested order, each key's position written to `indices`.
using TileArgsort = void (*)(int *keys, int *indices, unsigned tile_size, unsigned segment,
                             bool ascending);

// The argsort that --values runs (PairSort, sort_runner.h) with such a kernel: one launch, one
// block of v8's shape per tile, for arrays that fit in a tile; `name` is the program's, for the
// refusal of longer ones.
void launch_tile_argsort(TileArgsort kernel, const std::string &name, int *keys, int *indices,
                         unsigned n, unsigned segment, bool ascending) {
  if (segment > kTileSize) {
    throw FatalError(kExitBadInput,
                     "--values: " + name + " sorts arrays of at most " + std::to_string(kTileSize) +
                         " keys, one tile (give " + "--segment " + std::to_string(kTileSize) +
                         " or less)");
  }
  // A single key is sorted already, and its position is 0.
  if (n < 2) {
    CUDA_CHECK(cudaMemsetAsync(indices, 0, sizeof(int)));
    return;
  }
  const unsigned tile_size = std::min(n, kTileSize);
  const unsigned tile_threads = std::max(1u, tile_size / kKeysPerThread);
  kernel<<<n / tile_size, tile_threads>>>(keys, indices, tile_size, segment, ascending);
  CHECK_LAUNCH();
}

}  // namespace
