// held_sort.cuh: v8_batched's sort of the keys a thread already holds, for the lab's argsorts of
// many short arrays (word_argsort.cu, rank_argsort.cu, prefix_argsort.cu). It compiles
// v8_batched/bitonic_sort.cu in (v8's folder is on the include path), so that their kernels can
// call v8's device functions, which that file keeps to itself; v8 is not changed. One source
// file of a program includes it. Also word_argsort's two sorts of words, which prefix_argsort
// falls back on, and the launch the argsorts share.
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

// The top bit of a 32-bit word: XOR with it turns the order of unsigned words into the order of
// ints (v8's network compares ints), and back.
constexpr unsigned kTopBit = 0x80000000u;

// A key as an unsigned word that orders like the key does in the requested order: the top bit
// flipped (INT_MIN becomes 0, INT_MAX 0xFFFFFFFF), and every bit flipped for a descending sort.
// Its two digits, sorted ascending, put the keys in the requested order.
__device__ unsigned order_word(int key, bool ascending) {
  const unsigned bits = static_cast<unsigned>(key) ^ kTopBit;
  return ascending ? bits : ~bits;
}

// The key of an order word: order_word undone.
__device__ int key_of(unsigned word, bool ascending) {
  return static_cast<int>((ascending ? word : ~word) ^ kTopBit);
}

// word_argsort's argsort (tools/word_argsort.cu says why), steps 1 to 3 of its header: two
// sorts of 32-bit words, the lowest digit first, for the tile of `tile_size` keys at tile_start,
// whose keys each thread holds in key[] in their first order (thread-major, as
// load_thread_major gives them) and `keys` still holds in device memory. On return key[k] is
// the key at place mine + k of the tile in the requested order, and position[k] its position
// in its array. `tile` is the sort's shared memory; `first_words` is kTileSize words more. The
// words travel through v8's network as ints, their top bit flipped (kTopBit).
__device__ void sort_two_words(int (&key)[kKeysPerThread], int (&position)[kKeysPerThread],
                               const int *keys, int *tile, unsigned *first_words,
                               unsigned tile_start, unsigned tile_size, unsigned segment,
                               bool ascending) {
  // Thread-major: register k holds the key at place `mine + k` of the tile.
  const unsigned mine = threadIdx.x * kKeysPerThread;
  const unsigned first = tile_start + mine;
  // segment = 2^position_bits: a position takes position_bits bits, a digit the other ones.
  const unsigned position_bits = __ffs(segment) - 1;
  const unsigned digit_bits = 32 - position_bits;
  const unsigned position_mask = segment - 1;
  // Step 1: the low digit (the shift drops the high one) and the key's position in its array.
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned position = (first + k) & position_mask;
    const unsigned word = (order_word(key[k], ascending) << position_bits) | position;
    key[k] = static_cast<int>(word ^ kTopBit);
  }
  sort_held_keys(key, tile, first, tile_size, segment);
  // Step 2: the high digit of the key each word came from, and the word's rank, its place in
  // the array now. The key is read again from global memory, through the read-only cache: this
  // block writes its tile only at the end, and no other block touches it. Registers past a tile
  // shorter than a thread's keys (n < 16) hold no key: they read the tile's first key instead of
  // one past its end, and their words are never stored. (A select of the address, not a skipped
  // load: with the load skipped, ptxas gave the kernel more registers, and it ran slower in a
  // probe, not recorded.)
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned word = static_cast<unsigned>(key[k]) ^ kTopBit;
    first_words[mine + k] = word;
    const unsigned array_start = (first + k) & ~position_mask;
    const unsigned position = word & position_mask;
    const unsigned place = mine + k < tile_size ? array_start + position : tile_start;
    const int source = __ldg(keys + place);
    const unsigned high_digit = order_word(source, ascending) >> digit_bits;
    const unsigned rank = (first + k) & position_mask;
    key[k] = static_cast<int>(((high_digit << position_bits) | rank) ^ kTopBit);
  }
  sort_held_keys(key, tile, first, tile_size, segment);
  // Barrier: every thread's first_words must be written before any thread reads another's.
  // (The sort's exchanges have barriers too; this one does not lean on them.)
  __syncthreads();
  // Step 3: the rank finds step 1's word, which holds the low digit and the position.
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned word = static_cast<unsigned>(key[k]) ^ kTopBit;
    const unsigned rank = word & position_mask;
    const unsigned array_place = (mine + k) & ~position_mask;
    const unsigned first_word = first_words[array_place + rank];
    const unsigned high_digit = word >> position_bits;
    key[k] = key_of((high_digit << digit_bits) | (first_word >> position_bits), ascending);
    position[k] = static_cast<int>(first_word & position_mask);
  }
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
