// prefix_argsort: an argsort of many short arrays as one sort of 32-bit words on v8_batched's
// network, then a fix-up of the few keys the words leave out of order. An experiment of the lab
// (docs/notes/word_argsorts.md, "One sort of words and a fix-up"), not a stage: it asks whether
// an argsort can cost little more than the sort of its keys alone.
//
// The idea
//   A key's position in an array of L = 2^b keys takes b bits; the other 32 - b bits of a word
//   can hold the key's high digit (the top 32 - b bits of a word that orders like the key). One
//   sort of such words puts each array's keys in the order of their high digits, and keys that
//   share a high digit (a run) in the order of their positions. Only the keys of a run can still
//   be out of order, in their low b bits, and uniform keys seldom share a high digit: in an array
//   of 1024 of them (22-bit digits) about C(1024, 2) / 2^22 = 0.12 pairs do, of 4096 (20 bits)
//   about 8. So most runs are one key long.
//     1. word = (high 32 - b bits of the key's order word) | position; sort the words of each
//        array.
//     2. Each place reads its word's key again (from shared memory, where the keys wait as they
//        came, at the position the word holds) and finds its run: the places next to it whose
//        words have the same high digit.
//     3. The key's final place is its run's first place plus the keys of the run that come before
//        it: smaller keys, and equal keys at an earlier place (an earlier position: the order of
//        equal keys stays that of their positions, a stable argsort). Key and position go there.
//   A run of more than kLongestRun keys (keys from a narrow range share their high digits) would
//   make step 3's count long: a tile that holds one sorts its keys again, with word_argsort's two
//   sorts of words (sort_tile_again), and takes three sorts in all.
//   Arrays of 4 keys of 8 bits, for a picture (b = 2: a 6-bit high digit, a 2-bit position):
//     keys               77        14        13        200
//     step 1 words       76|0      12|1      12|2      200|3    (high digit in place | position)
//     sorted             12|1      12|2      76|0      200|3    places 0 .. 3; run: places 0, 1
//     step 2 keys        14        13        77        200
//     step 3             place 0 takes the run's key with no key of the run before it: 13
//                        (position 2); place 1 the one with one before it: 14 (position 1);
//                        places 2 and 3 keep 77 and 200
//     result             keys 13, 14, 77, 200; positions 2, 1, 0, 3
//   One kernel, one block per tile of 4096 keys (v8's): the keys are read once (a tile that
//   sorts again reads them twice more, as word_argsort does, before it writes anything), the
//   keys and positions written once. Only arrays that fit in a tile can be sorted this way:
//   L <= 4096 with --values.
//
// What it measures
//   The sort is v8's block_sort network, unchanged: the cost is one sort of 32-bit words, the
//   second read of each key (from shared memory) and the fix-up (tools/experiments.py
//   word_argsorts sets it against v8's keys, v9's 64-bit items and the lab's other argsorts).
//   Without --values it runs v8_batched's own sort of keys.
//
//   meson compile -C build prefix_argsort
//   build/tools/prefix_argsort --log2 27 --segment 1024 --values
#include "driver.h"
#include "held_sort.cuh"

namespace {

// The longest run of a high digit that step 3 counts through: a place of a run of 8 reads 8
// keys for each key of its run, 64 in all (and the run's words). A tile with a longer run sorts
// again (sort_tile_again). Keys from a narrow range, whose runs are long, pay one or the other;
// the record times this program on uniform keys only (lab note word_argsorts), and the stage
// built from it on narrow ranges too (chapter 19).
constexpr unsigned kLongestRun = 8;

// What source_in_run returns for a run longer than kLongestRun.
constexpr unsigned kLongRun = ~0u;

// A tile with a long run: its keys, still as they came in device memory, sorted again with
// word_argsort's two sorts of words, and written with their positions. Not inlined: inlined,
// its two sorts raised the registers ptxas gave the whole kernel, which seldom calls it.
__device__ __noinline__ void sort_tile_again(int *keys, int *indices, int *tile,
                                             unsigned *first_words, unsigned tile_start,
                                             unsigned tile_size, unsigned segment, bool ascending) {
  int key[kKeysPerThread], position[kKeysPerThread];
  load_thread_major(key, keys + tile_start, tile_size);
  sort_two_words(key, position, keys, tile, first_words, tile_start, tile_size, segment, ascending);
  store_thread_major(keys + tile_start, key, tile_size);
  store_thread_major(indices + tile_start, position, tile_size);
}

// Whether two words, as the network holds them, share their high digit: all but the low b bits
// (position_mask) alike. The flipped top bit (kTopBit) is part of the digit in both.
__device__ bool same_digit(unsigned a, unsigned b, unsigned position_mask) {
  return ((a ^ b) & ~position_mask) == 0;
}

// Step 3 for one place of a run: how many keys of the run [start, end) go before the key at
// `place`. Within a run the places follow the positions (step 1), so of two equal keys the one
// at the earlier place goes first. The key itself adds nothing (equal, not earlier). `orders`
// holds the order word of the key at each place (padded).
__device__ unsigned keys_before(const unsigned *orders, unsigned place, unsigned start,
                                unsigned end) {
  const unsigned order = orders[padded(place)];
  unsigned before = 0;
  for (unsigned other = start; other < end; ++other) {
    const unsigned other_order = orders[padded(other)];
    before += other_order < order || (other_order == order && other < place);
  }
  return before;
}

// Steps 2 and 3 for `place`, whose word shares its high digit with a neighbour's: the place of
// the key that goes there, or kLongRun. The array is places [array_first, array_end) of the
// tile; `tile` holds the sorted words (as the network holds them) and `orders` the order word of
// the key at each place (padded, both). The place pulls its key rather than each key pushing
// itself to its place: each place's result stays in its thread's registers, so nothing goes
// back to shared memory between the reads of the runs and the stores (no barrier, no third
// array).
__device__ unsigned source_in_run(const int *tile, const unsigned *orders, unsigned place,
                                  unsigned array_first, unsigned array_end,
                                  unsigned position_mask) {
  const unsigned word = tile[padded(place)];
  // Step 2: the run is places [start, end); the scans stop once it is longer than kLongestRun,
  // which is all a long run needs to be known by.
  unsigned start = place, end = place + 1;
  while (start > array_first && end - start <= kLongestRun &&
         same_digit(tile[padded(start - 1)], word, position_mask)) {
    --start;
  }
  while (end < array_end && end - start <= kLongestRun &&
         same_digit(tile[padded(end)], word, position_mask)) {
    ++end;
  }
  if (end - start > kLongestRun) {
    return kLongRun;
  }
  // Step 3: the key whose final place, the run's first place plus the keys of the run that go
  // before it, is this one. Exactly one key of the run has each final place.
  for (unsigned source = start; source < end; ++source) {
    if (start + keys_before(orders, source, start, end) == place) {
      return source;
    }
  }
  return place;  // not reached: the final places of a run are its places
}

// The argsort of every array of `segment` keys (segment <= tile_size): steps 1 to 3 above. The
// words travel through v8's network as ints, their top bit flipped (kTopBit). At most 64
// registers a thread leave room for 4 blocks per SM on sm_90: left to itself ptxas gave this
// kernel 116 registers, room for 2, and it ran 1.21x as long at L = 128, 1.12x at 1024 and
// 1.02x at 4096; with 56 or 48 it spills, and ran longer than with 64 at 1024 and 4096 (a probe
// on the H200, not recorded). With 64 it spills nothing. (__maxnreg__ as in rank_argsort.cu.)
__global__ void __maxnreg__(64) block_prefix_argsort(int *keys, int *indices, unsigned tile_size,
                                                     unsigned segment, bool ascending) {
  // The sort's exchanges; then the sorted words by place.
  __shared__ int tile[padded(kTileSize)];
  // The keys as they came, by place, for step 2 to read by position; then the order word of the
  // key at each sorted place, for step 3. Padded like the tile, so that the thread-major
  // accesses of a warp (16 words apart) fall in 32 banks.
  __shared__ unsigned orders[padded(kTileSize)];
  const unsigned tile_start = blockIdx.x * tile_size;
  // Thread-major: register k holds the key at place `mine + k` of the tile.
  const unsigned mine = threadIdx.x * kKeysPerThread;
  // segment = 2^b: a position takes the low b bits of a word, the high digit the other ones.
  const unsigned position_mask = segment - 1;
  // Registers past a tile shorter than a thread's keys (n < 16) hold no key.
  const unsigned held = tile_size < kKeysPerThread ? tile_size : kKeysPerThread;
  int key[kKeysPerThread];
  load_thread_major(key, keys + tile_start, tile_size);
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    if (k < held) {
      orders[padded(mine + k)] = static_cast<unsigned>(key[k]);
    }
  }
  // Step 1: the high digit (the mask clears the low b bits) and the key's position in its array.
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned position = (mine + k) & position_mask;
    const unsigned word = (order_word(key[k], ascending) & ~position_mask) | position;
    key[k] = static_cast<int>(word ^ kTopBit);
  }
  sort_held_keys(key, tile, tile_start + mine, tile_size, segment);
  // Barrier: the sort's last exchange may still be reading the tile, and every key as it came
  // must be in `orders` before any thread reads another's.
  __syncthreads();
  // Step 2, first half: each sorted word to the tile, and the order word of its key, read by
  // its position, to order[k].
  unsigned order[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    if (k < held) {
      const unsigned place = mine + k;
      tile[padded(place)] = key[k];
      const unsigned position = static_cast<unsigned>(key[k]) & position_mask;
      const unsigned source = orders[padded((place & ~position_mask) + position)];
      order[k] = order_word(static_cast<int>(source), ascending);
    }
  }
  // Barrier: every key as it came must be read before the order words take their places.
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    if (k < held) {
      orders[padded(mine + k)] = order[k];
    }
  }
  // Barrier: every sorted word and order word must be in place before a run reads them.
  __syncthreads();
  // Step 2, second half: which places share their high digit with a neighbour (bit k of
  // `joined`). A neighbour in the thread's registers is compared there; the one before the
  // thread's first place and the one after its last are read from the tile. A neighbour in
  // another array does not count.
  unsigned joined = 0;
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    if (k < held) {
      const unsigned place = mine + k;
      const unsigned array_first = place & ~position_mask;
      const unsigned word = key[k];
      const bool has_before = place > array_first;
      const bool has_after = place + 1 < array_first + segment;
      const unsigned before = has_before ? (k > 0 ? key[k - 1] : tile[padded(place - 1)]) : 0;
      const unsigned after =
          has_after ? (k + 1 < kKeysPerThread ? key[k + 1] : tile[padded(place + 1)]) : 0;
      if ((has_before && same_digit(before, word, position_mask)) ||
          (has_after && same_digit(after, word, position_mask))) {
        joined |= 1u << k;
      }
    }
  }
  // Step 3: a place of a run of one keeps its key and position; a place of a longer run pulls
  // the key that goes there. key[k] becomes the position, order[k] the order word.
  bool long_run = false;
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned place = mine + k;
    unsigned source = place;
    if (joined & (1u << k)) {
      const unsigned array_first = place & ~position_mask;
      source =
          source_in_run(tile, orders, place, array_first, array_first + segment, position_mask);
      long_run = long_run || source == kLongRun;
      source = source == kLongRun ? place : source;
      order[k] = orders[padded(source)];
    }
    key[k] = static_cast<int>((source == place ? static_cast<unsigned>(key[k])
                                               : static_cast<unsigned>(tile[padded(source)])) &
                              position_mask);
  }
  // A vote, and a barrier: did any thread find a long run? Then the tile sorts again, with the
  // tile and `orders` (its first kTileSize words, unpadded, as sort_two_words' first_words) free
  // to take: the barrier comes after every read of them.
  if (__syncthreads_or(long_run)) {
    sort_tile_again(keys, indices, tile, orders, tile_start, tile_size, segment, ascending);
    return;
  }
  store_thread_major(indices + tile_start, key, tile_size);
  // (order[k] past `held` was never set: those registers are not stored.)
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = key_of(order[k], ascending);
  }
  store_thread_major(keys + tile_start, key, tile_size);
}

// The argsort that --values runs: one launch of block_prefix_argsort.
void prefix_argsort_segments(int *keys, int *indices, unsigned n, unsigned segment,
                             bool ascending) {
  launch_tile_argsort(block_prefix_argsort, "prefix_argsort", keys, indices, n, segment, ascending);
}

}  // namespace

int main(int argc, char **argv) {
  // Keys alone: v8_batched's sort. With --values: the sort of words, then the fix-up.
  const Algorithm prefix_argsort{
      "prefix_argsort", Kind::kStage,           bitonic_sort_segments, {}, true,
      nullptr,          prefix_argsort_segments};
  return run_program(argc, argv, "prefix_argsort", {prefix_argsort});
}
