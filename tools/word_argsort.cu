// word_argsort: an argsort of many short arrays as two sorts of 32-bit words, on v8_batched's
// network. An experiment of the lab (docs/11_v9_argsort.md, "Two sorts of 32-bit words"), not a
// stage: it answers whether v9's 64-bit items are the only way to carry a key's position.
//
// The idea
//   A key's position in an array of L = 2^b keys takes b bits. v9 puts the key and its position
//   in one 64-bit item, and every compare, shuffle and shared-memory access of its network then
//   moves 64 bits. Here the key is cut into two digits instead, each sorted with the position
//   (or rank) in the bits it leaves free, as a radix sort that starts from the lowest digit
//   would, with v8's 32-bit network as the sort of each digit:
//     1. word = (low 32 - b bits of the key) << b | position; sort the words of each array.
//        Keys equal in those bits come out in the order of their positions.
//     2. word = (high b bits of the key) << b | rank, where rank is the word's place after
//        step 1 and the high bits are read from the key at the position that word holds; sort
//        again. Keys equal in the high bits come out in the order of step 1, so the result is
//        in the order of the whole key, and equal keys in the order of their positions.
//     3. At each place, the rank in the word gives step 1's word: the key's low bits and its
//        position, which the output gets; the key is its two digits put back together.
//   Arrays of 4 keys (b = 2) of 8-bit keys, for a picture: the first word holds the key's low
//   6 bits and a 2-bit position, the second its high 2 bits and a 2-bit rank.
//   Both sorts and all three steps run in one kernel, one block per tile of 4096 keys (v8's), so
//   the keys are read twice (step 2 reads each again, by position, before the block writes
//   anything) and the keys and positions written once. Only arrays that fit in a tile can be
//   sorted this way: L <= 4096 with --values (longer ones are refused).
//
// What it measures
//   Both sorts are v8's block_sort network, unchanged: the cost is two sorts of 32-bit keys plus
//   the steps around them, against v9's one sort of 64-bit items (tools/experiments.py
//   word_argsorts). Without --values it runs v8_batched's own sort of keys.
//
// This file compiles v8_batched/bitonic_sort.cu in (held_sort.cuh; v8's folder is on the
// include path), so that its kernel can call v8's device functions, which that file keeps to
// itself. v8 is not changed.
//
//   meson compile -C build word_argsort
//   build/tools/word_argsort --log2 27 --segment 1024 --values
#include "driver.h"
#include "held_sort.cuh"

namespace {

// The argsort of every array of `segment` keys (segment <= tile_size): steps 1 to 3 above
// (sort_two_words, held_sort.cuh).
__global__ void __launch_bounds__(kBlockThreads)
    block_word_argsort(int *keys, int *indices, unsigned tile_size, unsigned segment,
                       bool ascending) {
  __shared__ int tile[padded(kTileSize)];
  // Step 1's sorted words, by their place in the tile, for step 3.
  __shared__ unsigned first_words[kTileSize];
  const unsigned tile_start = blockIdx.x * tile_size;
  int key[kKeysPerThread];
  load_thread_major(key, keys + tile_start, tile_size);
  int position[kKeysPerThread];
  sort_two_words(key, position, keys, tile, first_words, tile_start, tile_size, segment, ascending);
  store_thread_major(keys + tile_start, key, tile_size);
  store_thread_major(indices + tile_start, position, tile_size);
}

// The argsort that --values runs: one launch of block_word_argsort.
void word_argsort_segments(int *keys, int *indices, unsigned n, unsigned segment, bool ascending) {
  launch_tile_argsort(block_word_argsort, "word_argsort", keys, indices, n, segment, ascending);
}

}  // namespace

int main(int argc, char **argv) {
  // Keys alone: v8_batched's sort. With --values: the two sorts of words.
  const Algorithm word_argsort{"word_argsort", Kind::kStage, bitonic_sort_segments, {},
                               true,           nullptr,      word_argsort_segments};
  return run_program(argc, argv, "word_argsort", {word_argsort});
}
