// rank_argsort: an argsort of many short arrays as v8_batched's sort of the keys alone, followed
// by a search for each key's place. An experiment of the lab (docs/11_v9_argsort.md, "Sort the
// keys, then search"), not a stage: it asks what an argsort costs beyond the sort of its keys
// when no position travels through the network at all.
//
// The idea
//   Once an array's keys are sorted, the place of each key is the number of keys smaller than
//   it, which a binary search of the sorted array finds in log2 L steps. Equal keys share that
//   number; each takes the next free place after it, counted by an atomic add in shared memory,
//   so the equal keys of an array fill their places in no set order (an argsort may break ties
//   either way: README, "Running a stage", --values). The key's position goes to its place.
//   The steps:
//     1. sort the keys of each array with v8's 32-bit network, ascending (descending sorts
//        ~key, which reverses the order of ints);
//     2. put the sorted keys in shared memory, and a count of 0 at every place;
//     3. read the keys again in their first order; for each, place = its array's start + the
//        keys below it (the search) + the count at that place, which the key then raises;
//     4. write each key's position in its array at its place, then the sorted keys and the
//        positions to device memory.
//   One kernel, one block per tile of 4096 keys (v8's): the keys are read twice (the second
//   time after the sort, before the block writes anything), the keys and positions written
//   once. Only arrays that fit in a tile can be sorted this way: L <= 4096 with --values.
//   An array of 4 keys (3, 1, 3, 0), ascending: sorted (0, 1, 3, 3); key 3 at position 0 finds
//   2 keys below it and takes place 2 (count 0), key 3 at position 2 place 3 (count 1), so the
//   positions come out (3, 1, 0, 2) or (3, 1, 2, 0), whichever atomic add came first.
//
// What it measures
//   The sort is v8's block_sort network, unchanged: the cost is one sort of 32-bit keys plus the
//   search (tools/experiments.py word_argsorts sets it against v8's keys, v9's 64-bit items and
//   word_argsort's two sorts of words). Without --values it runs v8_batched's own sort of keys.
//
//   meson compile -C build rank_argsort
//   build/tools/rank_argsort --log2 27 --segment 1024 --values
#include "driver.h"
#include "held_sort.cuh"

namespace {

// A key as the network sorts it: ascending as it is, descending as ~key (~INT_MIN is INT_MAX).
// Applied twice it gives the key back.
__device__ int sort_key(int key, bool ascending) {
  return ascending ? key : ~key;
}

// Step 3's search, for all of a thread's keys at once: place[k] starts at the first place of key
// k's array of `length` sorted keys (a power of two) and ends at the first place whose key is not
// smaller than key k, when key k is one of them. Each step adds `step` where the key at
// place[k] + step - 1, the last of the next `step`, is still smaller: a greedy sum of powers of
// two, log2 length steps. The keys take their steps together, so that the 16 loads of a step can
// be in flight at once. Example, the sorted keys (0, 1, 3, 3) and key 3: step 2 tests place 1
// (key 1 < 3: place 2), step 1 tests place 2 (key 3, not smaller): place 2.
__device__ void find_places(unsigned (&place)[kKeysPerThread], const int (&key)[kKeysPerThread],
                            const int *tile, unsigned length, unsigned held) {
  for (unsigned step = length / 2; step > 0; step /= 2) {
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      if (k < held && tile[padded(place[k] + step - 1)] < key[k]) {
        place[k] += step;
      }
    }
  }
}

// The argsort of every array of `segment` keys (segment <= tile_size): steps 1 to 4 above. At most
// 48 registers a thread, as v8's block_sort has, leave room for 5 blocks per SM on sm_90: left
// to itself ptxas gave this kernel 61 registers, room for 4 blocks, and it ran 1.03x as long at
// L = 1024 and 1.07x at L = 128 (a probe, not recorded); with 48 it spills nothing. (__maxnreg__
// rather than a launch bound of 5 blocks, which sm_75's 1024 threads per SM cannot hold; on
// sm_90 both give the same machine code.)
__global__ void __maxnreg__(48) block_rank_argsort(int *keys, int *indices, unsigned tile_size,
                                                   unsigned segment, bool ascending) {
  // The exchanges of the sort, then the sorted keys for the searches.
  __shared__ int tile[padded(kTileSize)];
  // The count of keys that took each place so far, then each place's position; padded like the
  // tile, so that the thread-major accesses of a warp (16 words apart) fall in 32 banks.
  __shared__ int at_place[padded(kTileSize)];
  const unsigned tile_start = blockIdx.x * tile_size;
  // Thread-major: register k holds the key at place `mine + k` of the tile.
  const unsigned mine = threadIdx.x * kKeysPerThread;
  const unsigned position_mask = segment - 1;
  // Registers past a tile shorter than a thread's keys (n < 16) hold no key.
  const unsigned held = tile_size < kKeysPerThread ? tile_size : kKeysPerThread;
  int key[kKeysPerThread];
  load_thread_major(key, keys + tile_start, tile_size);
  // Step 1.
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = sort_key(key[k], ascending);
  }
  sort_held_keys(key, tile, tile_start + mine, tile_size, segment);
  // Barrier: the sort's last exchange may still be reading the tile.
  __syncthreads();
  // Step 2.
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    if (k < held) {
      tile[padded(mine + k)] = key[k];
      at_place[padded(mine + k)] = 0;
    }
  }
  // Barrier: every sorted key and count must be in place before any thread searches.
  __syncthreads();
  // Step 3: key[k] now holds the place of the thread's key k, read again in its first order.
  load_thread_major(key, keys + tile_start, tile_size);
  unsigned place[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = sort_key(key[k], ascending);
    place[k] = (mine + k) & ~position_mask;
  }
  find_places(place, key, tile, segment, held);
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    if (k < held) {
      key[k] = static_cast<int>(place[k] + atomicAdd(&at_place[padded(place[k])], 1));
    }
  }
  // Barrier: every count must be final before the places take the positions in its stead.
  __syncthreads();
  // Step 4: every place is taken exactly once, so every count is overwritten.
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    if (k < held) {
      at_place[padded(key[k])] = static_cast<int>((mine + k) & position_mask);
    }
  }
  // Barrier: every position must be at its place before the thread-major stores read them.
  __syncthreads();
  int position[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = k < held ? sort_key(tile[padded(mine + k)], ascending) : 0;
    position[k] = k < held ? at_place[padded(mine + k)] : 0;
  }
  store_thread_major(keys + tile_start, key, tile_size);
  store_thread_major(indices + tile_start, position, tile_size);
}

// The argsort that --values runs: one launch of block_rank_argsort.
void rank_argsort_segments(int *keys, int *indices, unsigned n, unsigned segment, bool ascending) {
  launch_tile_argsort(block_rank_argsort, "rank_argsort", keys, indices, n, segment, ascending);
}

}  // namespace

int main(int argc, char **argv) {
  // Keys alone: v8_batched's sort. With --values: the sort, then the search.
  const Algorithm rank_argsort{"rank_argsort", Kind::kStage, bitonic_sort_segments, {},
                               true,           nullptr,      rank_argsort_segments};
  return run_program(argc, argv, "rank_argsort", {rank_argsort});
}
