// v24_warp_rounds: a merge's shuffle steps on tile bits 4 .. 7 run on registers, after a round
// of each warp through its own part of the tile.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// What changes from v23_vector_stores, and why
//   In block_sort's thread-major layout a thread holds 16 neighbouring keys, so the strides 16 ..
//   128 (tile bits 4 .. 7) pair keys of two lanes of one warp: each such step is 16 shuffles a
//   thread, one per register. A merge of 4096 keys has four of them after its round, one of 256
//   keys three. Those keys never leave the warp, so the warp can move them itself: each warp
//   writes its 512 keys to its own part of the tile and reads them back in layout 4 (registers
//   on tile bits 4 .. 7), runs the steps there on registers, and goes back to thread-major the
//   same way, behind two warp barriers (__syncwarp) each way, not the block's (merge_in_block,
//   exchange with warp_only). That trades 48 or 64 shuffles a thread for 32 stores and 32 loads
//   of shared memory, where a merge has three or four such steps (kWarpRoundSteps); leaving out
//   the merges with two won in the lab's runs at 1024 and 4096 keys an array. The round's words
//   are the tile positions with bits 4 and 8 swapped (warp_round_slot): any order of the warp's
//   512 words serves, and this one is free of bank conflicts in both layouts, where padded()
//   alone conflicts two ways in layout 4.
//     Layout 4, thread 17, register 2: tile position 289, its word padded(49) = 50.
//   Runs of 8 .. 128 keys take no round, so their block_sort is built without the rounds' code
//   (block_sort<Word, false>, chosen by sort_words with sort_takes_warp_round): a kernel with
//   v23's registers, where the rounds' code, even unused, would cost some (chapter 26).
//   The store of keys alone (store_fours) now waits for the warp between its writes to the tile
//   and its reads, as the round does: a warp reads back only keys its own threads wrote. The
//   kernel without rounds, launched only for runs whose merges never go through the tile, skips
//   the barrier before the writes (store_through_tile's `tile_used`; sort_items_again and
//   block_prefix_argsort, whose items never reach store_fours, pass true).
//   Nothing else changes: the merge's first step and its round across warps, the last four
//   steps on registers, the kernels of long arrays.
//
// Prediction
//   Keys alone at 4096 keys an array: 0.98x v23's time, and 0.95x at 1024 (the lab note
//   short_arrays measured the change as the variant v22_warp_rounds_swapped3 of v22's code: 1.02x
//   and 1.06x as fast as v22_store_word_vectors, v23's change). No round at 8 .. 128 keys, whose
//   merges have two such steps at most: v23's registers there, and v23's time less what the
//   lighter barriers save, 0.97x at 8 keys an array and 0.99x at 16 to 128 (the lab note
//   short_arrays timed that change alone, in turns against this stage with chapter 25's store).
//   The argsort of arrays up to a tile sorts 32-bit words (v17's prefix argsort) with the same
//   merges, so it takes the same rounds: the same gain, a hypothesis not measured before this
//   stage.
//   Speedup at 2^29 over the stage before: 1.0x; one long array spends its time in the group
//   passes.
//
// Build and run
//   meson setup build && meson compile -C build v24_warp_rounds
//   build/v24_warp_rounds/v24_warp_rounds --log2 27 --segment 4096
#include <algorithm>

#include "bitonic_index.h"
#include "cuda_check.h"
#include "stage.h"

namespace {

// Puts keys[lower] and keys[upper] in the requested order: the smaller key first when ascending.
// The keys are written back only when they were out of order, so a step over data that is
// already in order reads the array but writes nothing.
template <typename Word>
__device__ void compare_and_swap(Word *keys, unsigned lower, unsigned upper, bool ascending) {
  const Word a = keys[lower];
  const Word b = keys[upper];
  const bool out_of_order = ascending ? a > b : a < b;
  if (out_of_order) {
    keys[lower] = b;
    keys[upper] = a;
  }
}

// Puts two registers in ascending order: a gets the smaller key, b the larger.
template <typename Word>
__device__ void order_pair(Word &a, Word &b) {
  const Word smaller = min(a, b);
  b = max(a, b);
  a = smaller;
}

// Turns every word into ~word when `flip`. ~x = (all ones) - x reverses the order of the words, so
// the steps that put flipped keys in ascending order put the keys themselves in
// descending order, and flipping back restores them. A thread whose keys must run descending
// flips them, runs the ascending steps, and flips them back: each compare is then one min and
// one max, with no direction to choose.
template <typename Word, unsigned kCount>
__device__ void flip_keys(Word (&key)[kCount], bool flip) {
  if (flip) {
#pragma unroll
    for (unsigned k = 0; k < kCount; ++k) {
      key[k] = ~key[k];
    }
  }
}

// The ascending steps that pair two registers of this thread: register strides 2^top_bit down
// to 2^bottom_bit. A step of register stride s has kCount / 2 pairs, and pair p runs from register
// get_lower_partner(p, s) to that plus s: chapter 6's one thread per pair, here one turn of the
// loop per pair. The loops are unrolled over every bit a register index has, so every index is
// a constant (get_lower_partner is worked out by the compiler) and the keys stay in registers;
// strides above 2^top_bit or below 2^bottom_bit are skipped.
template <typename Word, unsigned kCount>
__device__ void compare_registers(Word (&key)[kCount], unsigned top_bit, unsigned bottom_bit = 0) {
#pragma unroll
  for (int bit = 31 - __builtin_clz(kCount); bit-- > 0;) {
    if (bit <= static_cast<int>(top_bit) && bit >= static_cast<int>(bottom_bit)) {
      const unsigned stride = 1u << bit;
#pragma unroll
      for (unsigned pair = 0; pair < kCount / 2; ++pair) {
        const unsigned lower = get_lower_partner(pair, stride);
        order_pair(key[lower], key[lower + stride]);
      }
    }
  }
}

// The first step of an ascending merge of runs of `size` registers (2 .. kCount) in the network's
// mirrored form: register i pairs with its mirror image in its run, i ^ (size - 1), and the
// smaller key goes to the lower register. The lower registers are those whose bit size / 2 is
// clear: pair p's is get_lower_partner(p, size / 2). Runs of 8: (0,7) (1,6) (2,5) (3,4), then
// (8,15) (9,14) (10,13) (11,12). Every index is a constant, as in compare_registers.
template <typename Word, unsigned kCount>
__device__ void mirror_registers(Word (&key)[kCount], unsigned size) {
#pragma unroll
  for (unsigned pair = 0; pair < kCount / 2; ++pair) {
    const unsigned lower = get_lower_partner(pair, size / 2);
    order_pair(key[lower], key[lower ^ (size - 1)]);
  }
}

// Key i as the word a kernel sorts (make_word): an item with its position, which waits in
// `indices` between launches, or, without indices (keys alone), the key's ordered bits.
template <typename Word>
__device__ Word load_item(const int *keys, const int *indices, unsigned i, bool ascending,
                          bool floats) {
  return make_word<Word>(keys[i], indices == nullptr ? 0u : static_cast<unsigned>(indices[i]),
                         ascending, floats);
}

// Writes an item back as key i and, if there are indices, its position.
template <typename Word>
__device__ void store_item(int *keys, int *indices, unsigned i, Word item, bool ascending,
                           bool floats) {
  keys[i] = item_key(item, floats);
  if (indices != nullptr) {
    indices[i] = item_position(item, ascending);
  }
}

// Moves this thread's keys of a group from the layout whose registers hold slot bits kFrom ..
// kFrom + 4 to the one whose registers hold kTo .. kTo + 4, through the group's 2^14 words of
// shared memory, 32 bits at a time (an Item in two halves: no more memory than for a word).
// Register k's slot is the thread's slot bits plus k << kFrom, bits the thread's part leaves 0,
// and group_word XORs slot bits, so its word is the thread's word XOR group_word(k << kFrom): a
// constant, as the layouts are template arguments. One XOR per key.
template <unsigned kFrom, unsigned kTo, typename Word>
__device__ void exchange_group(Word (&key)[kGroupKeys], unsigned *words) {
  const unsigned mine_from = group_word(group_slot(threadIdx.x, 0, kFrom));
  const unsigned mine_to = group_word(group_slot(threadIdx.x, 0, kTo));
#pragma unroll
  for (unsigned shift = 0; shift < 8 * sizeof(Word); shift += 32) {
    // Barrier: threads may still be loading the words of the previous half or round.
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < kGroupKeys; ++k) {
      words[mine_from ^ group_word(k << kFrom)] = static_cast<unsigned>(key[k] >> shift);
    }
    // Barrier: every word must be in shared memory before any thread loads its new ones.
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < kGroupKeys; ++k) {
      const Word word = words[mine_to ^ group_word(k << kTo)];
      key[k] = (key[k] & ~(static_cast<Word>(0xffffffffu) << shift)) | (word << shift);
    }
  }
}

// The rounds of a pass from slot bit kBit down to last_bit: the steps this round's registers
// hold (layout kLow, by default round_low(kBit, kLowestBit)), then, if layouts are left, an
// exchange to the next and the rounds after it. kLowestBit is the lowest slot bit a pass of its
// kind may end at, so every layout is a template argument, a constant in the compiled round.
template <unsigned kBit, unsigned kLowestBit, unsigned kLow = round_low(kBit, kLowestBit),
          typename Word>
__device__ void run_rounds(Word (&key)[kGroupKeys], unsigned *words, unsigned last_bit) {
  compare_registers(key, kBit - kLow, max(kLow, last_bit) - kLow);
  if constexpr (kLow > kLowestBit) {
    constexpr unsigned kNext = round_low(kLow - 1, kLowestBit);
    exchange_group<kLow, kNext>(key, words);
    run_rounds<kLow - 1, kLowestBit>(key, words, last_bit);
  }
}

// The layout of the last round of run_rounds<kBit, kLowestBit>.
__host__ __device__ constexpr unsigned last_round_low(unsigned bit, unsigned lowest_bit) {
  return round_low(bit, lowest_bit) > lowest_bit
      ? last_round_low(round_low(bit, lowest_bit) - 1, lowest_bit)
      : round_low(bit, lowest_bit);
}

// Stores a group's keys from layout kLow, whose lanes hold slot bits 0 .. 4 (kLow >= 5), so that
// a warp stores 128 neighbouring bytes. The keys of a thread share their direction in the merge
// of `size`: each was flipped with it, and is flipped back.
template <unsigned kLow, typename Word>
__device__ void store_group(int *keys, int *indices, Word (&key)[kGroupKeys], unsigned top_bit,
                            unsigned low_bits, unsigned size, unsigned segment, bool ascending,
                            bool floats) {
  static_assert(kLow >= 5, "the lanes of a stored layout hold slot bits 0 .. 4");
  const unsigned last = group_key(blockIdx.x, group_slot(threadIdx.x, 0, kLow), top_bit, low_bits);
  flip_keys(key, !sorts_ascending(index_in_array(last, segment), size, ascending));
#pragma unroll
  for (unsigned k = 0; k < kGroupKeys; ++k) {
    const unsigned i = last + group_key(0, k << kLow, top_bit, low_bits);
    store_item(keys, indices, i, key[k], ascending, floats);
  }
}

// In a pass on neighbouring keys (slot bit = index bit), after the merge of `size` (its largest
// stride at slot bit kBit): the merges of 2 size, 4 size, ... up to 2^14, each whole, while the
// pass has `steps` left. Returns the size of the last merge run, whose direction the keys have.
template <unsigned kBit, typename Word>
__device__ unsigned later_merges(Word (&key)[kGroupKeys], unsigned *words, unsigned size,
                                 unsigned steps, unsigned segment, bool ascending) {
  if constexpr (kBit + 1 < kGroupBits) {
    if (steps > 0) {
      // In layout 0 a thread holds slot bits 0 .. 4 and bits `size` and 2 size lie above them:
      // all its keys leave one direction for one other, and it flips them if the two differ.
      const unsigned mine = group_key(blockIdx.x, group_slot(threadIdx.x, 0, 0), kGroupBits - 1);
      const unsigned position = index_in_array(mine, segment);
      flip_keys(key,
                sorts_ascending(position, size, ascending) !=
                    sorts_ascending(position, 2 * size, ascending));
      // The merge of 2 size: strides size .. 1, slot bits kBit + 1 .. 0, in rounds as a tail's.
      exchange_group<0, round_low(kBit + 1, 0)>(key, words);
      run_rounds<kBit + 1, 0>(key, words, 0);
      return later_merges<kBit + 1>(key, words, 2 * size, steps - (kBit + 2), segment, ascending);
    }
  }
  return size;
}

// What a pass that ends a merge runs after the merge's tail (group_steps' kAfterTail): nothing;
// the next merge's head; or, on neighbouring keys after block_sort, the merges up to 2^14.
constexpr unsigned kTailAlone = 0;
constexpr unsigned kTailHead = 1;
constexpr unsigned kTailMerges = 2;

// `steps` compare steps of the network from the merge of `size`, stride `stride`, on group
// blockIdx.x of the pass (group_key in bitonic_index.h), in rounds (run_rounds) from slot bit
// kFirstBit, the stride's, down. Two kinds of pass (for_each_launch):
// - global strides (kLowestBit 5): up to 9 strides, the first 2^14 or more, on the group whose
//   slot bits 5 .. 13 are their index bits; two rounds.
// - a merge's tail (kLowestBit 0): its strides left, 2^kFirstBit .. 1, on slot bits kFirstBit .. 0,
//   the same index bits, in two or three rounds; then what kAfterTail says. A head runs on the
//   slot bits above kFirstBit: the keys move to the layout of slot bit 13 for one or two rounds
//   more. Each its own kernel, so that a tail alone keeps every register's index a constant and
//   every kernel as few registers as it can.
// As in v12's multistep, a thread's keys share one direction in each merge (its bit lies above
// the strides; in a tail's rounds it is slot bit 13 or above, a bit of the thread) and are
// flipped when it is descending. Two blocks of 32-bit words share a multiprocessor (64 KB of
// shared memory each, so at most 64 registers a thread).
template <typename Word, unsigned kFirstBit, unsigned kLowestBit, unsigned kAfterTail = kTailAlone>
__global__ void __launch_bounds__(kGroupThreads, sizeof(Word) == sizeof(unsigned) ? 2 : 1)
    group_steps(int *keys, int *indices, unsigned size, unsigned stride, unsigned steps,
                unsigned segment, bool ascending, bool floats) {
  // The group's words, for the exchanges between rounds (the launch gives 2^14 of them, 64 KB).
  extern __shared__ unsigned words[];
  // The index bits the group keeps from bit 0 up: 0 .. 4 for global strides, a tail's own bits.
  constexpr unsigned kLowBits = kLowestBit == 0 ? kFirstBit + 1 : 5;
  // The index bit of slot bit 13: the largest global stride, the head's largest (bit `size`), or
  // bit 13 for neighbouring keys (a constant, so that every register's index is one too).
  const unsigned top_bit = kLowestBit != 0 ? 31 - __clz(stride)
      : kAfterTail == kTailHead            ? 31 - __clz(size)
                                           : kGroupBits - 1;
  // The first round's registers lie above slot bit 5, so a warp reads 32 neighbouring keys.
  // group_key moves each slot bit to an index bit of its own: register k's index is that of the
  // thread's slot bits (register 0) plus that of k << kFirstLow, the same in every thread.
  constexpr unsigned kFirstLow =
      round_low(kFirstBit, kLowestBit) < 5 ? 5 : round_low(kFirstBit, kLowestBit);
  const unsigned first =
      group_key(blockIdx.x, group_slot(threadIdx.x, 0, kFirstLow), top_bit, kLowBits);
  Word key[kGroupKeys];
#pragma unroll
  for (unsigned k = 0; k < kGroupKeys; ++k) {
    const unsigned i = first + group_key(0, k << kFirstLow, top_bit, kLowBits);
    key[k] = load_item<Word>(keys, indices, i, ascending, floats);
  }
  flip_keys(key, !sorts_ascending(index_in_array(first, segment), size, ascending));
  if constexpr (kLowestBit != 0) {
    run_rounds<kFirstBit, kLowestBit>(key, words, kFirstBit + 1 - steps);
    store_group<last_round_low(kFirstBit, kLowestBit)>(keys, indices, key, top_bit, kLowBits, size,
                                                       segment, ascending, floats);
    return;
  }
  // The tail: every stride left of the merge of `size`, down to slot bit 0.
  run_rounds<kFirstBit, 0, kFirstLow>(key, words, 0);
  if constexpr (kAfterTail == kTailHead) {
    // The head, in the merge of 2 size, whose direction is one for the whole group (bit 2 size
    // lies above top_bit). In layout 0 a thread's keys share slot bit 13, index bit `size`, so
    // one direction in the tail too: it flips them if the two differ.
    const unsigned mine = group_key(blockIdx.x, group_slot(threadIdx.x, 0, 0), top_bit, kLowBits);
    const unsigned position = index_in_array(mine, segment);
    flip_keys(key,
              sorts_ascending(position, size, ascending) !=
                  sorts_ascending(position, 2 * size, ascending));
    exchange_group<0, round_low(kGroupBits - 1, kLowBits)>(key, words);
    run_rounds<kGroupBits - 1, kLowBits>(key, words, kGroupBits - (steps - kLowBits));
    store_group<last_round_low(kGroupBits - 1, kLowBits)>(keys, indices, key, top_bit, kLowBits,
                                                          2 * size, segment, ascending, floats);
    return;
  }
  unsigned last_size = size;
  if constexpr (kAfterTail == kTailMerges) {
    last_size = later_merges<kFirstBit>(key, words, size, steps - kLowBits, segment, ascending);
  }
  // A last round on slot bits 0 .. 4 left a thread 32 neighbouring keys, which a warp would
  // store 4 bytes to each of 32 lines at a time: the keys go back to lanes on bits 0 .. 4 first,
  // so that a warp stores 128 neighbouring bytes. They go to a layout other than the first
  // round's: with the same one, the compiler keeps that exchange's 32 word addresses, or spills
  // them, all pass long (tools/registers.py).
  constexpr unsigned kStoreLow = kFirstLow == 5 ? 9 : 5;
  exchange_group<0, kStoreLow>(key, words);
  store_group<kStoreLow>(keys, indices, key, top_bit, kLowBits, last_size, segment, ascending,
                         floats);
}

// The group_steps for one Launch. Global strides start at slot bit 13, in layouts 9 and 5 (a
// pass of 5 or fewer steps still exchanges into layout 5, for none: one kernel serves all); the
// strides below 2^14 start at their stride's bit, 7 .. 13 (kFewestTailSteps), each its own
// kernel, with a head (steps beyond its tail, in a merge above 2^14) or without; the pass after
// block_sort that goes on to later merges starts at the tile's.
template <typename Word>
auto group_kernel(const Launch &launch) {
  const unsigned stride_bit = exact_log2(launch.stride);
  if (stride_bit >= kGroupBits) {
    return group_steps<Word, kGroupBits - 1, 5>;
  }
  static_assert(kFewestTailSteps == 8, "a merge's last pass starts at slot bit 7 .. 13");
  const bool more = launch.steps > stride_bit + 1;
  if (more && launch.size <= kGroupSize) {
    return group_steps<Word, kTileBits, 0, kTailMerges>;
  }
  switch (stride_bit) {
    case 7:
      return more ? group_steps<Word, 7, 0, kTailHead> : group_steps<Word, 7, 0>;
    case 8:
      return more ? group_steps<Word, 8, 0, kTailHead> : group_steps<Word, 8, 0>;
    case 9:
      return more ? group_steps<Word, 9, 0, kTailHead> : group_steps<Word, 9, 0>;
    case 10:
      return more ? group_steps<Word, 10, 0, kTailHead> : group_steps<Word, 10, 0>;
    case 11:
      return more ? group_steps<Word, 11, 0, kTailHead> : group_steps<Word, 11, 0>;
    case 12:
      return more ? group_steps<Word, 12, 0, kTailHead> : group_steps<Word, 12, 0>;
    default:
      return group_steps<Word, 13, 0>;
  }
}

// Launches group_steps for one Launch: a block per group of 2^14 keys (one block of n / 32
// threads when n is smaller), each with its group's words of shared memory.
template <typename Word>
void launch_group_steps(int *keys, int *indices, unsigned n, const Launch &launch, unsigned segment,
                        bool ascending, bool floats) {
  const unsigned group = std::min(n, kGroupSize);
  const unsigned bytes = group * sizeof(unsigned);
  const auto kernel = group_kernel<Word>(launch);
  // Above 48 KB a block's shared memory must be asked for.
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  kernel<<<n / group, group / kGroupKeys, bytes>>>(keys, indices, launch.size, launch.stride,
                                                   launch.steps, segment, ascending, floats);
  CHECK_LAUNCH();
}

// Loads this thread's keys of a tile in the thread-major layout (layout_slot with low = 0):
// thread t gets keys 16 t .. 16 t + 15, as four 16-byte loads, each with its position in its array
// (block_sort, the first launch, is where the positions start). A tile smaller than one thread's
// keys (n < 16) is read key by key; the registers past its end are never paired with its keys.
template <typename Word>
__device__ void load_thread_major(Word (&key)[kKeysPerThread], const int *keys, unsigned tile_start,
                                  unsigned tile_size, unsigned segment, bool ascending,
                                  bool floats) {
  const unsigned first = tile_start + threadIdx.x * kKeysPerThread;
  int read[kKeysPerThread];
  if (tile_size >= kKeysPerThread) {
    const int4 *fours = reinterpret_cast<const int4 *>(keys + first);
#pragma unroll
    for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
      const int4 four = fours[v];
      read[4 * v] = four.x;
      read[4 * v + 1] = four.y;
      read[4 * v + 2] = four.z;
      read[4 * v + 3] = four.w;
    }
  } else {
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      read[k] = k < tile_size ? keys[first + k] : 0;
    }
  }
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = make_word<Word>(read[k], index_in_array(first + k, segment), ascending, floats);
  }
}

// The word of the tile (a padded index) that holds register k of this thread in layout
// `layout`, as padded(layout_slot) gives it, except in a merge's mirrored round: there the upper
// half of the registers, k >= 8, holds the keys of the thread whose index bits below `layout` are
// flipped (mirror_mask), so that the mirrored first step pairs register k with register 15 - k of
// the same thread. Layout 0 has no bits below it: there the two agree.
//   The thread's bits and the register's share no bit (layout_slot), so padded() of the whole is
// the sum of their padded()s: the thread's base, padded(its place for register 0), and a constant
// for register k, padded(k << layout). Layout 6, thread 5, register 3: padded(5) + padded(192) =
// 5 + 198 = 203 = padded(197).
__device__ unsigned round_slot(unsigned k, unsigned layout, bool mirrored) {
  const bool upper = mirrored && k >= kKeysPerThread / 2;
  return padded(layout_slot(upper ? threadIdx.x ^ mirror_mask(layout) : threadIdx.x, 0, layout)) +
      padded(k << layout);
}

// Moves this thread's keys from layout `from` to layout `to` through the block's tile in shared
// memory: every thread stores its keys where `from` puts them and loads the ones `to` gives it
// (round_slot: in a mirrored round, half of them another thread's). A warp's round (warp_only,
// between layout 0 and layout kRegisterBits) keeps every key in its warp's part of the tile, at
// the words warp_round_slot gives, so its barriers wait for the warp alone.
template <typename Word>
__device__ void exchange(Word (&key)[kKeysPerThread], Word *tile, unsigned from, unsigned to,
                         bool mirrored, bool warp_only = false) {
  // Barrier: threads may still be loading their keys of the previous exchange from the tile. In
  // a warp's round, only the warp's own threads: every earlier use of the tile ends in loads of
  // the loading warp's own words (layout 0, or this round's layout 4) or is followed by a block
  // barrier, and every later use across warps begins with one.
  if (warp_only) {
    __syncwarp();
  } else {
    __syncthreads();
  }
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    tile[warp_only ? warp_round_slot(threadIdx.x, k, from) : round_slot(k, from, mirrored)] =
        key[k];
  }
  // Barrier: every key must be in the tile before any thread loads its new ones (in a warp's
  // round, every key of the warp).
  if (warp_only) {
    __syncwarp();
  } else {
    __syncthreads();
  }
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = tile[warp_only ? warp_round_slot(threadIdx.x, k, to) : round_slot(k, to, mirrored)];
  }
}

// Stores this thread's keys of a tile of keys alone (32-bit words) four to a 16-byte store, as
// load_thread_major loads them: a warp's store writes 512 consecutive bytes, 16 whole sectors,
// with 4 store instructions a thread where store_through_tile's layout 5 takes 16. The sorted
// keys are thread-major; a thread's four neighbouring keys would be its own, but its 16 keys
// are 64 bytes on from its lane neighbour's, so a warp's 16-byte store would fill half of each
// of 32 sectors. So the keys go through the tile once, thread-major, and lane l reads back
// keys 4 l .. 4 l + 3 of each run of 128 of its warp (four_store_slot). Those are keys its own
// warp wrote, so the barrier between the writes and the reads is the warp's; the one before the
// writes waits for loads of the sort's last exchange, and a sort that never used the tile skips
// it (`tile_used` false: the kernel without rounds, which sort_words launches only for runs of up
// to 128 keys, whose merges never go through the tile).
//   Its four words: padded() of base + 128 v + j, where base = four_store_slot(thread, 0) holds
// bits 2 .. 6 and 9 up, 128 v bits 7 .. 8 and j bits 0 .. 1: parts that share no bit, so the
// word is padded(base) + padded(128 v) + j, one address and constants (chapter 24). The lanes'
// first words, 4 l + l / 8 on from the warp's first word (mod 32 banks), fall on 32 banks.
template <typename Word>
__device__ void store_fours(int *keys, unsigned tile_start, Word (&key)[kKeysPerThread], Word *tile,
                            bool floats, bool tile_used) {
  // Barrier: threads may still be loading their keys of the last exchange from the tile, some of
  // them words of another warp (a merge's round across warps).
  if (tile_used) {
    __syncthreads();
  }
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    tile[round_slot(k, 0, false)] = key[k];
  }
  // Barrier: every key of the warp must be in the tile before its lanes read four of them. A
  // warp reads back only the words its own threads wrote: warp w's keys 512 w .. 512 w + 511.
  __syncwarp();
  const unsigned base = four_store_slot(threadIdx.x, 0);
  // keys + tile_start + base is 16-byte aligned: tile_start and base are multiples of 4.
  int4 *fours = reinterpret_cast<int4 *>(keys + tile_start + base);
#pragma unroll
  for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
    const unsigned word = four_store_word(padded(base), v);
    // Store v of the lane lies 128 v keys, 32 v int4s, past its store 0.
    fours[v * kWarpSize] =
        make_int4(item_key(tile[word], floats), item_key(tile[word + 1], floats),
                  item_key(tile[word + 2], floats), item_key(tile[word + 3], floats));
  }
}

// Stores this thread's items of a tile as store_group stores a group's: a warp's store of one
// register writes 128 neighbouring bytes, four whole sectors of 32 bytes. The sort leaves the
// keys thread-major, where the lanes of a warp sit 64 bytes apart: a warp's 16-byte store fills
// half of each of 32 sectors, and two stores write each sector (the lab note many_arrays
// counts about twice the sectors reaching the L2 at 8 keys an array). So the keys move through
// the tile first (exchange), to the layout whose five low bits are the lane's (layout_slot with
// low = 5): register k of lane l is key l + 32 k of its warp's 512, so register k lies 32 k
// keys past register 0.
//   Thread 35 (lane 3 of warp 1), register 2: 3 + 2 * 32 + 512 = tile position 579.
// A block smaller than a warp (n < 512) has too few lanes for that layout: it stores
// thread-major, key by key. `tile_used`: whether the sort before may have used the tile.
template <typename Word>
__device__ void store_through_tile(int *keys, int *indices, unsigned tile_start,
                                   Word (&key)[kKeysPerThread], Word *tile, unsigned tile_size,
                                   bool ascending, bool floats, bool tile_used) {
  if (blockDim.x < kWarpSize) {
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      const unsigned slot = layout_slot(threadIdx.x, k, 0);
      // A tile shorter than one thread's keys (n < 16) has one thread: its slots past the tile
      // hold no key.
      if (slot < tile_size) {
        store_item(keys, indices, tile_start + slot, key[k], ascending, floats);
      }
    }
    return;
  }
  // Keys alone, which only block_sort of 32-bit words stores: four to a 16-byte store. The
  // choice is made when the kernel is compiled, so block_sort of items holds no code for it.
  if constexpr (sizeof(Word) == sizeof(unsigned)) {
    store_fours(keys, tile_start, key, tile, floats, tile_used);
    return;
  }
  exchange(key, tile, 0, 5, false);
  // Register 0's place, and register k's 32 k keys on: one address and constant offsets from
  // it. The keys, then the positions if there are indices: one test for all 16. (An index and
  // a test key by key, as store_item makes them, cost ptxas more registers than the sort.)
  const unsigned first = tile_start + layout_slot(threadIdx.x, 0, 5);
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    (keys + first)[k * kWarpSize] = item_key(key[k], floats);
  }
  if (indices != nullptr) {
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      (indices + first)[k * kWarpSize] = item_position(key[k], ascending);
    }
  }
}

// What a lane keeps of its key and its partner's: the smaller of the two in the lower lane of
// the pair, the larger in the upper one.
template <typename Word>
__device__ Word lane_keeps(Word mine, Word other, bool lower) {
  if constexpr (sizeof(Word) == sizeof(Item)) {
    // One 64-bit compare picks: the lower lane takes `other` when it is the smaller, the upper
    // lane when it is not. A min and a max would each compare (chapter 11).
    return lower == (other < mine) ? other : mine;
  } else {
    // A 32-bit min or max is one instruction (chapter 10), so words keep v8's line.
    return lower ? min(mine, other) : max(mine, other);
  }
}

// The ascending steps that pair two lanes of a warp, in the thread-major layout: tile bits
// top_bit down to kRegisterBits are the bits of the lane (bit kRegisterBits + c is lane bit c).
// Each lane trades every register with lane ^ 2^c; the lower lane of the pair keeps the smaller
// key, the upper one the larger. Lane bit c is a step of this merge when its tile bit is:
// c + kRegisterBits <= top_bit. With 16 keys per thread the merge of 64 keys (top_bit 5) has
// lane bits 1 and 0 (strides 32 and 16), the merge of 32 keys lane bit 0 only.
template <typename Word>
__device__ void compare_lanes(Word (&key)[kKeysPerThread], unsigned top_bit, unsigned lanes) {
#pragma unroll
  for (int c = 4; c >= 0; --c) {
    if (static_cast<unsigned>(c) + kRegisterBits <= top_bit && (1u << c) < lanes) {
      const unsigned lane_stride = 1u << c;
      const bool lower = (threadIdx.x & lane_stride) == 0;
#pragma unroll
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        // The shuffle waits until every lane of the mask has arrived, reads all their values,
        // then hands them out: no lane can see a half-done exchange.
        const Word other = __shfl_xor_sync(lane_mask(lanes), key[k], lane_stride);
        key[k] = lane_keeps(key[k], other, lower);
      }
    }
  }
}

// The mirrored first step of a merge of 2^(top_bit + 1) keys, 32 .. 512, in the thread-major
// layout. Tile bits kRegisterBits .. top_bit are lane bits, so key i and its mirror image
// i ^ (size - 1) lie in two lanes of one warp: register k of a lane meets register 15 - k of the
// lane whose top_bit + 1 - kRegisterBits low bits are flipped (mirror_mask). In the merge of 64
// keys (top_bit 5, two lane bits) lane 1's register 2 holds key 18, and 18 ^ 63 = 45 is lane
// 1 ^ 3 = 2's register 13. The lane whose top lane bit is clear holds the lower key of each pair.
template <typename Word>
__device__ void mirror_lanes(Word (&key)[kKeysPerThread], unsigned top_bit, unsigned lanes) {
  const unsigned mirror = mirror_mask(top_bit + 1 - kRegisterBits);
  const bool lower = (threadIdx.x & (1u << (top_bit - kRegisterBits))) == 0;
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread / 2; ++k) {
    const unsigned j = kKeysPerThread - 1 - k;
    // Both shuffles read before either register changes: the partner's register j is the
    // mirror of this lane's k, and its k the mirror of this lane's j.
    const Word mirror_of_k = __shfl_xor_sync(lane_mask(lanes), key[j], mirror);
    const Word mirror_of_j = __shfl_xor_sync(lane_mask(lanes), key[k], mirror);
    key[k] = lane_keeps(key[k], mirror_of_k, lower);
    key[j] = lane_keeps(key[j], mirror_of_j, lower);
  }
}

// An ascending merge of runs of 2^(top_bit + 1) keys on the block's tile, in the network's
// mirrored form, from the thread-major layout back to it. Its first step pairs key i with its
// mirror image in its run, i ^ (size - 1); the other steps, strides 2^(top_bit - 1) down to 1,
// pair i with i ^ stride as before, and every step puts the smaller key first. Strides of
// 2^(kRegisterBits + 5) and more pair keys of different warps: the kRegisterBits largest run in
// the merge's lane-major round (round_layout), on registers. The round loads the upper half of
// each thread's registers from the thread with the bits below `low` flipped (round_slot), where
// the mirror images of its lower half are: the first step is then register k against register
// 15 - k (mirror_registers), and the next three steps stay within each half. A merge without a
// round takes its first step across lanes (mirror_lanes). Then, thread-major, the shuffle steps
// and the last kRegisterBits steps, on registers.
template <typename Word, bool kWarpRounds = true>
__device__ void merge_in_block(Word (&key)[kKeysPerThread], Word *tile, unsigned top_bit,
                               unsigned lanes) {
  const unsigned low = round_layout(top_bit);
  if (low != 0) {
    exchange(key, tile, 0, low, true);
    mirror_registers(key, kKeysPerThread);
    compare_registers(key, kRegisterBits - 2);
    exchange(key, tile, low, 0, true);
    top_bit = low - 1;
  } else {
    mirror_lanes(key, top_bit, lanes);
    top_bit = top_bit - 1;
  }
  // The steps left are on tile bits top_bit (7 at most) down to 0; bits kRegisterBits and up
  // are lane bits 0 .. 3, a shuffle of 16 registers each. Where there are kWarpRoundSteps or
  // more, a round of each warp through its own 512 words of the tile puts them on registers
  // (layout kRegisterBits: the lane's four low bits on tile bits 0 .. 3, the registers on 4 ..
  // 7, lane bit 4 still on tile bit 8, so no key leaves its warp) and back: 32 stores, 32 loads
  // and four warp barriers a thread in place of 48 or 64 shuffles. Merge of 4096 keys, top_bit 7:
  // four steps, register strides 8 .. 1 in layout 4, then tile bits 3 .. 0 thread-major.
  // Built without rounds (kWarpRounds false), for runs that take none, the kernel holds no
  // code of them.
  if (kWarpRounds && takes_warp_round(top_bit, lanes)) {
    exchange(key, tile, 0, kRegisterBits, false, true);
    compare_registers(key, top_bit - kRegisterBits);
    exchange(key, tile, kRegisterBits, 0, false, true);
    top_bit = kRegisterBits - 1;
  }
  compare_lanes(key, top_bit, lanes);
  compare_registers(key, top_bit < kRegisterBits ? top_bit : kRegisterBits - 1);
}

// Sizes 2 .. run, where run is kKeysPerThread or, if shorter, the tile or the array: every pair
// lies inside one thread's registers. Thread-major, register k holds the thread's key k. Each size
// is one ascending merge in the mirrored form: its first step pairs each register with its mirror
// image in its run of `size` (mirror_registers), the other steps are compare_registers'. Every
// run of every size comes out ascending, so no compare needs a direction, and the runs of `size`
// that the next size merges need none either: the mirrored step takes two ascending halves.
//   A run of 8 keys: size 2 pairs (0,1) (2,3) (4,5) (6,7); size 4 pairs (0,3) (1,2) (4,7)
//   (5,6), then (0,1) (2,3) (4,5) (6,7); size 8 pairs (0,7) (1,6) (2,5) (3,4), then strides 2
//   and 1.
template <typename Word>
__device__ void sort_thread_keys(Word (&key)[kKeysPerThread], unsigned run) {
#pragma unroll
  for (unsigned size = 2; size <= kKeysPerThread; size *= 2) {
    if (size > run) {
      break;
    }
    mirror_registers(key, size);
    // The merge's other steps: strides size / 4 down to 1 (__ffs(size) - 1 = log2 size).
    if (size >= 4) {
      compare_registers(key, __ffs(size) - 3);
    }
  }
}

// Sorts every tile: all steps of the sizes 2 .. tile size. Even tiles come out ascending and
// odd ones descending (sorts_ascending), so each pair of neighbouring tiles is a bitonic
// sequence, ready for the first merge above the tile. When n <= kTileSize there is one block,
// its last size is n, and the whole array comes out sorted. Arrays shorter than the tile stop
// at their own length, and every one of them comes out in the requested order. The threads
// hold the tile's keys thread-major (register k: key first + k), before and after.
// The mirrored network sorts every run ascending, whatever its place: a tile or array that must
// come out descending is flipped once before its sort and once after (flip_keys), where the
// network of chapter 1 flipped each thread's keys at every merge.
template <typename Word, bool kWarpRounds = true>
__device__ void sort_tile(Word (&key)[kKeysPerThread], Word *tile, unsigned first,
                          unsigned tile_size, unsigned segment, bool ascending) {
  const unsigned lanes = warp_lanes(blockDim.x);
  // A power of two from 2 up (n >= 2 and segment >= 2): the longest run the tile sorts, its
  // arrays or the tile itself. Every run the tile sorts comes out in the order of that one.
  const unsigned run = min(tile_size, segment);
  const bool flip = !sorts_ascending(index_in_array(first, segment), run, ascending);
  flip_keys(key, flip);
  sort_thread_keys(key, min(kKeysPerThread, run));
  // The larger sizes, each one merge. The loop is unrolled over every size a tile has, so that
  // each merge's layouts are constants.
#pragma unroll
  for (unsigned size_bit = kRegisterBits + 1; size_bit <= kTileBits; ++size_bit) {
    if ((1u << size_bit) > run) {
      break;
    }
    merge_in_block<Word, kWarpRounds>(key, tile, size_bit - 1, lanes);
  }
  flip_keys(key, flip);
}

// Sorts every tile (sort_tile), one block a tile: loads its keys, sorts them, stores them.
// kWarpRounds false: built without the warp's rounds, for runs that take none.
template <typename Word, bool kWarpRounds>
__global__ void __launch_bounds__(kBlockThreads)
    block_sort(int *keys, int *indices, unsigned tile_size, unsigned segment, bool ascending,
               bool floats) {
  // The block's tile in shared memory, for the exchanges between layouts.
  __shared__ Word tile[padded(kTileSize)];
  const unsigned tile_start = blockIdx.x * tile_size;
  const unsigned first = tile_start + threadIdx.x * kKeysPerThread;
  Word key[kKeysPerThread];
  load_thread_major(key, keys, tile_start, tile_size, segment, ascending, floats);
  sort_tile<Word, kWarpRounds>(key, tile, first, tile_size, segment, ascending);
  // sort_words launches the kernel without rounds only for runs of up to 128 keys (or blocks
  // under a warp), whose merges never go through the tile before the store.
  store_through_tile(keys, indices, tile_start, key, tile, tile_size, ascending, floats,
                     kWarpRounds);
}

// The longest run of a high digit that step 3 counts through: each place of a run counts the
// keys before each key of the run until it finds its own: for a run of 4, up to 4 counts of 4
// reads of shared memory each, after the scans. A tile with a longer run sorts its items again
// (sort_items_again): keys from a narrow range, whose runs are long, cost the sort of words and
// v16's argsort after it.
constexpr unsigned kLongestRun = 4;

// What source_in_run returns for a run longer than kLongestRun.
constexpr unsigned kLongRun = ~0u;

// Whether two words share their high digit: all but the low b bits (position_mask) alike.
__device__ bool same_digit(unsigned a, unsigned b, unsigned position_mask) {
  return ((a ^ b) & ~position_mask) == 0;
}

// Step 3 for the key at `place` of a run [start, end): how many keys of the run go before it.
// Within a run the places follow the positions (step 1), so of two equal keys the one at the
// earlier place goes first: the argsort is stable. The key itself adds nothing (equal, not
// earlier). `orders` holds the order word of the key at each place (padded).
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
// tile; `words` holds the sorted words and `orders` the order word of the key at each place
// (padded, both). The place pulls its key rather than each key pushing itself to its place:
// the result stays in the thread's registers, and nothing is written to shared memory between
// the reads of the runs and the stores (no barrier, no third array).
__device__ unsigned source_in_run(const unsigned *words, const unsigned *orders, unsigned place,
                                  unsigned array_first, unsigned array_end,
                                  unsigned position_mask) {
  const unsigned word = words[padded(place)];
  // Step 2: the run is places [start, end); the scans stop once it is longer than kLongestRun,
  // which is all a long run needs to be known by.
  unsigned start = place, end = place + 1;
  while (start > array_first && end - start <= kLongestRun &&
         same_digit(words[padded(start - 1)], word, position_mask)) {
    --start;
  }
  while (end < array_end && end - start <= kLongestRun &&
         same_digit(words[padded(end)], word, position_mask)) {
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

// A tile with a long run: v16's argsort of it, block_sort on 64-bit items, in the shared memory
// of the prefix argsort (`tile`, a tile of items). The keys are read again from device memory,
// where they are still as they came: the block writes its tile only at the end. Not inlined, as
// the lab's fallback is not (tools/prefix_argsort.cu says why): a rare path, whose items ptxas
// spills under the kernel's cap of 64 registers.
__device__ __noinline__ void sort_items_again(int *keys, int *indices, Item *tile,
                                              unsigned tile_start, unsigned tile_size,
                                              unsigned segment, bool ascending, bool floats) {
  const unsigned first = tile_start + threadIdx.x * kKeysPerThread;
  Item key[kKeysPerThread];
  load_thread_major(key, keys, tile_start, tile_size, segment, ascending, floats);
  sort_tile(key, tile, first, tile_size, segment, ascending);
  store_through_tile(keys, indices, tile_start, key, tile, tile_size, ascending, floats, true);
}

// Step 3 through shared memory (v19's fix-up), for a block with a run of three places or more,
// or one across two warps: each place of a run pulls the key that goes there (source_in_run).
// `words` and `orders` hold the sorted words and order words by place; bit k of `joined` says
// whether place mine + k shares its digit with a neighbour. Returns true, the same in every
// thread, when a run is longer than kLongestRun: the tile must sort again. Otherwise each place
// then holds, in `words`, the position of the key that goes there, and in `orders`, its order
// word. It writes its results back through shared memory, one more barrier than v19's fix-up,
// so that the kernel's registers are not live across the call. Not inlined, like
// sort_items_again: a rare path on uniform keys (not on keys from a narrow range), whose
// counting, inlined, made ptxas spill the kernel's registers under its cap of 64 (nvcc 13.0,
// sm_90: hundreds of bytes a thread, in a probe not in the record).
__device__ __noinline__ bool settle_runs_in_shared(unsigned *words, unsigned *orders,
                                                   unsigned joined, unsigned mine,
                                                   unsigned segment) {
  const unsigned position_mask = segment - 1;
  // The place whose key goes to each of the thread's places: its own in a run of one.
  unsigned source[kKeysPerThread];
  bool long_run = false;
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned place = mine + k;
    source[k] = place;
    if (joined & (1u << k)) {
      const unsigned array_first = place & ~position_mask;
      const unsigned found =
          source_in_run(words, orders, place, array_first, array_first + segment, position_mask);
      long_run = long_run || found == kLongRun;
      source[k] = found == kLongRun ? place : found;
    }
  }
  // A vote, and a barrier: did any thread find a long run? Then the tile sorts again, its items
  // in the shared memory of `words` and `orders`, free to take: the barrier comes after every
  // read of them.
  if (__syncthreads_or(long_run)) {
    return true;
  }
  unsigned position[kKeysPerThread];
  unsigned order[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    position[k] = words[padded(source[k])] & position_mask;
    order[k] = orders[padded(source[k])];
  }
  // Barrier: every place's source must be read before any place takes its own result.
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    words[padded(mine + k)] = position[k];
    orders[padded(mine + k)] = order[k];
  }
  return false;
}

// Step 3 for a run of two places, a before b, in registers. The sort put a run's words in the
// order of their positions, so a holds the earlier one. The two trade places, words and order
// words, only when b's key goes first: of two equal keys the earlier position stays first, and
// the argsort stays stable.
__device__ void settle_pair(unsigned &word_a, unsigned &order_a, unsigned &word_b,
                            unsigned &order_b) {
  if (order_a > order_b) {
    const unsigned word = word_a;
    const unsigned order = order_a;
    word_a = word_b;
    order_a = order_b;
    word_b = word;
    order_b = order;
  }
}

// The places of block_prefix_argsort's shared memory for a tile of tile_size keys: one a key, and
// at least a thread's 16, since settle_runs_in_shared reads and writes all 16 of a thread's
// places, held or not. (A tile of 8 keys with 8 places only: a run of three there would read and
// write places 8 .. 15, past the end of `words` and of the shared memory.)
__host__ __device__ constexpr unsigned prefix_tile_places(unsigned tile_size) {
  return tile_size > kKeysPerThread ? tile_size : kKeysPerThread;
}

// The argsort of every array of `segment` keys of a tile (segment <= tile_size), one block a
// tile as block_sort: steps 1 to 3 of this file's header (docs/19_v17_prefix_argsort.md works
// them through for arrays of 4 keys). At most 64 registers a thread leave room for 32 warps per
// SM on sm_90: 4 blocks of eight warps, or 32 blocks of one (also sm_90's limit of resident
// blocks); left to itself ptxas gave the lab's kernel (tools/prefix_argsort.cu) more, room for 2
// blocks of eight warps, and a probe there, not recorded, found it slower so.
__global__ void __maxnreg__(64)
    block_prefix_argsort(int *keys, int *indices, unsigned tile_size, unsigned segment,
                         bool ascending, bool floats) {
  // A tile of items, block_sort<Item>'s shared memory, which sort_items_again and the store
  // (store_through_tile) take whole. Before them it is two tiles of words: `words` for the
  // sort's exchanges, then the sorted words by place; `orders` for the order words of the keys
  // as they came, by place (= by position), then the order word of the key at each sorted
  // place. Both padded, as the tile is. Its size, padded(prefix_tile_places(tile_size)) items,
  // is given at launch (prefix_argsort_segments): 528 items, 4.1 KB, for a tile of 512 keys. A
  // static tile of 4096 keys, 33 KB, would let an SM hold six blocks of one warp (the header).
  extern __shared__ Item shared[];
  unsigned *words = reinterpret_cast<unsigned *>(shared);
  unsigned *orders = words + padded(prefix_tile_places(tile_size));
  // The first and the last sorted word of each warp (step 2).
  __shared__ unsigned warp_first[kBlockThreads / kWarpSize];
  __shared__ unsigned warp_last[kBlockThreads / kWarpSize];
  const unsigned tile_start = blockIdx.x * tile_size;
  // Thread-major: register k holds the key at place `mine + k` of the tile.
  const unsigned mine = threadIdx.x * kKeysPerThread;
  const unsigned first = tile_start + mine;
  // segment = 2^b: a position takes the low b bits of a word, the high digit the other ones.
  const unsigned position_mask = segment - 1;
  // Registers past a tile shorter than a thread's keys (n < 16) hold no key.
  const unsigned held = min(tile_size, kKeysPerThread);
  unsigned key[kKeysPerThread];
  load_thread_major(key, keys, tile_start, tile_size, segment, ascending, floats);
  // Step 1. The order word: the key's ordered_bits, all flipped when descending (~x reverses the
  // order, as flip_keys says), so that one ascending sort serves both orders. The word: its high
  // digit (the mask clears the low b bits) and the key's position in its array.
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned order = ascending ? key[k] : ~key[k];
    if (k < held) {
      orders[padded(mine + k)] = order;
    }
    key[k] = (order & ~position_mask) | index_in_array(first + k, segment);
  }
  sort_tile(key, words, first, tile_size, segment, true);
  // The first and the last sorted word of each warp: the neighbours that a warp's first and
  // last lanes have in another warp (step 2), which no shuffle reaches.
  const unsigned lanes = warp_lanes(blockDim.x);
  const unsigned lane = threadIdx.x % kWarpSize;
  const unsigned warp = threadIdx.x / kWarpSize;
  if (lane == 0) {
    warp_first[warp] = key[0];
  }
  if (lane + 1 == lanes) {
    warp_last[warp] = key[kKeysPerThread - 1];
  }
  // Barrier: the sort's last exchange may still be reading `words`, and every order word as it
  // came must be in `orders`, and every warp's first and last word in place, before any thread
  // reads another's.
  __syncthreads();
  // Step 2, first half: the order word of each sorted word's key, read by its position in its
  // array (place & ~position_mask is the array's first place), to order[k]. Registers past
  // `held` get 0: they hold no key, but a shuffle below reads the last one.
  unsigned order[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned place = mine + k;
    order[k] = k < held ? orders[padded((place & ~position_mask) + (key[k] & position_mask))] : 0;
  }
  // Step 2, second half: which neighbouring places share their high digit. Bit k + 1 of `links`
  // links places mine + k and mine + k + 1 (bit 16: the thread's last place and the next lane's
  // first); bit 0 links the thread's first place to the one before it. A neighbour in the
  // thread's registers is compared there; the one before the thread's first place and the one
  // after its last come from the neighbouring lanes by shuffle, or from another warp's first or
  // last word. A neighbour in another array does not count. (In a block smaller than a warp the
  // last lane's shuffle down reads lane `lanes`, which does not exist: its value is undefined,
  // and `after` does not take it.)
  const unsigned from_lane_before = __shfl_up_sync(lane_mask(lanes), key[kKeysPerThread - 1], 1);
  const unsigned from_lane_after = __shfl_down_sync(lane_mask(lanes), key[0], 1);
  const unsigned before = lane > 0 ? from_lane_before : (warp > 0 ? warp_last[warp - 1] : 0);
  const unsigned after = lane + 1 < lanes
      ? from_lane_after
      : (warp + 1 < blockDim.x / kWarpSize ? warp_first[warp + 1] : 0);
  unsigned links = mine > (mine & ~position_mask) && same_digit(before, key[0], position_mask);
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned place = mine + k;
    const bool has_after = k < held && place + 1 < (place & ~position_mask) + segment;
    const unsigned next = k + 1 < kKeysPerThread ? key[k + 1] : after;
    if (has_after && same_digit(next, key[k], position_mask)) {
      links |= 2u << k;
    }
  }
  // A run of three or more places (two links in a row) or a run across two warps goes through
  // shared memory, as in v19; a run of two in one warp settles in registers.
  //   Links 0b00110 (places mine + 0, + 1 and + 2 share a digit): two links in a row, a run of 3.
  //   Links 0b01010 (mine + 0 with + 1, mine + 2 with + 3): two runs of two.
  const bool across_warps =
      (lane == 0 && (links & 1)) || (lane + 1 == lanes && (links >> kKeysPerThread) & 1);
  const bool through_shared = (links & (links >> 1)) != 0 || across_warps;
  // A vote, and a barrier: does any thread of the block have such a run? Then every thread takes
  // v19's fix-up; `words` and `orders` are free, since every read of the sort and of step 2 came
  // before the barrier.
  if (__syncthreads_or(through_shared)) {
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      if (k < held) {
        words[padded(mine + k)] = key[k];
        orders[padded(mine + k)] = order[k];
      }
    }
    // Barrier: every sorted word and order word must be in place before a run reads them.
    __syncthreads();
    // Bit k of `links | links >> 1`: place mine + k shares its digit with the place before it or
    // the one after it.
    if (settle_runs_in_shared(words, orders, links | (links >> 1), mine, segment)) {
      sort_items_again(keys, indices, shared, tile_start, tile_size, segment, ascending, floats);
      return;
    }
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      key[k] = words[padded(mine + k)];
      order[k] = orders[padded(mine + k)];
    }
  } else {
    // Step 3 in registers: every run has two places, in one thread or in two neighbouring lanes
    // of a warp. The pair's words trade places, with their order words, when the later key goes
    // first. A pair across two lanes: each lane keeps its own place's half of it, by the same
    // test, from the words and order words its neighbours hand over (every lane shuffles, with a
    // pair or without one; the words again, though step 2 had them, so that nothing of step 2
    // but `links` is live across the vote: whether ptxas needs that was not measured).
    const unsigned word_before = __shfl_up_sync(lane_mask(lanes), key[kKeysPerThread - 1], 1);
    const unsigned order_before = __shfl_up_sync(lane_mask(lanes), order[kKeysPerThread - 1], 1);
    const unsigned word_after = __shfl_down_sync(lane_mask(lanes), key[0], 1);
    const unsigned order_after = __shfl_down_sync(lane_mask(lanes), order[0], 1);
    if (links != 0) {
      if ((links & 1) && order_before > order[0]) {
        key[0] = word_before;
        order[0] = order_before;
      }
      if (((links >> kKeysPerThread) & 1) && order[kKeysPerThread - 1] > order_after) {
        key[kKeysPerThread - 1] = word_after;
        order[kKeysPerThread - 1] = order_after;
      }
#pragma unroll
      for (unsigned k = 1; k < kKeysPerThread; ++k) {
        if (links & (1u << k)) {
          settle_pair(key[k - 1], order[k - 1], key[k], order[k]);
        }
      }
    }
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      key[k] &= position_mask;
    }
  }
  // Key and position as the item block_sort would end with, so that one store writes both.
  // (Registers past `held` hold no key: order[k] is 0 there, and they are not stored.)
  Item item[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned ordered = ascending ? order[k] : ~order[k];
    item[k] = make_item(key_from_ordered(ordered, floats), key[k], ascending, floats);
  }
  store_through_tile(keys, indices, tile_start, item, shared, tile_size, ascending, floats, true);
}

// The keys of one warp's registers: 32 lanes of 16 keys. An array of up to kWarpTile keys is
// sorted and fixed up by shuffles within one warp.
constexpr unsigned kWarpTile = kWarpSize * kKeysPerThread;

// The argsort of arrays up to a tile: one launch of block_prefix_argsort, a block per tile (one
// block of n / 16 threads when n is smaller), as block_sort. A tile is kWarpTile keys, one warp a
// block, for arrays of up to kWarpTile keys, whose barriers then wait for one warp alone; and
// kTileSize keys, eight warps, for longer arrays. The kernel's shared memory is sized to the
// tile: 4.1 KB for 512 keys, 33 KB for 4096.
void prefix_argsort_segments(int *keys, int *indices, unsigned n, unsigned segment, bool ascending,
                             bool floats) {
  const unsigned tile_size = std::min(n, segment <= kWarpTile ? kWarpTile : kTileSize);
  const unsigned tile_threads = std::max(1u, tile_size / kKeysPerThread);
  const size_t shared_bytes = padded(prefix_tile_places(tile_size)) * sizeof(Item);
  block_prefix_argsort<<<n / tile_size, tile_threads, shared_bytes>>>(keys, indices, tile_size,
                                                                      segment, ascending, floats);
  CHECK_LAUNCH();
}

// The `top` smallest items of each array (largest, descending), from its runs of `top` items,
// each sorted in the requested order. A descending sort's items are flipped as they are loaded
// (~item, as flip_keys does), so that below the runs are ascending and the smallest items win
// in both orders. Block b loads per_block runs: run q of the
// input starts at key q * stride, and the block's are runs b * per_block ... in order, so a
// block never splits an array (both are powers of two). Each round pairs the runs that are left,
// neighbour with neighbour, and keeps the better half of each pair:
//
//   run a (ascending)    1  4  6  9        The `top` smallest of a and b are the smaller of
//   run b (ascending)    2  3  5  8        a[j] and b[top - 1 - j]: a rises, b read backwards
//   b backwards          8  5  3  2        falls, so a[j] wins up to some j and b after it.
//   min                  1  4  3  2        Rising, then falling: a bitonic sequence, which the
//   merge (strides 2, 1) 1  2  3  4        steps of one merge (strides top / 2 .. 1) sort.
//
// After `rounds` rounds one run of every 2^rounds is left, sorted: it goes back to where the
// first of them started, for the next launch or, after the last, as the first `top` keys of its
// array. The rest of the array is left as it is: keys that lost, or copies of winners.
__global__ void __launch_bounds__(kBlockThreads)
    block_top(int *keys, int *indices, unsigned top, unsigned stride, unsigned rounds,
              unsigned per_block, unsigned segment, bool ascending, bool floats) {
  __shared__ Item tile[kTileSize];
  const unsigned first_run = blockIdx.x * per_block;
  // top = 2^top_bits: slot e of the tile is key e & (top - 1) of run e >> top_bits, a shift and a
  // mask where e / top and e % top would each cost a division.
  const unsigned top_bits = __ffs(top) - 1;
  // The first launch reads positions in a run of `top` keys (the sort of the runs wrote them
  // with arrays of `top`): the run's own position in its array is added. Later launches read
  // what block_top wrote, positions in the array.
  const bool positions_in_run = stride == top;
  // ~item reverses the order of the items: all ones to flip them, or nothing.
  const Item flip = ascending ? 0 : ~Item{0};
  for (unsigned e = threadIdx.x; e < per_block * top; e += blockDim.x) {
    const unsigned run = first_run + (e >> top_bits);
    const unsigned i = run * stride + (e & (top - 1));
    const unsigned run_position = positions_in_run ? index_in_array(run * stride, segment) : 0;
    const unsigned position = indices == nullptr ? 0u : run_position + indices[i];
    tile[e] = make_item(keys[i], position, ascending, floats) ^ flip;
  }
  for (unsigned round = 0; round < rounds; ++round) {
    // Runs that are left lie 2^span_bits tile slots apart; run 2 p + 1 meets run 2 p, which
    // starts at slot p * 2^(span_bits + 1).
    const unsigned span_bits = top_bits + round;
    const unsigned pairs = per_block >> (round + 1);
    // Barrier: the loads, or the last round's merge, must be done before the runs are read.
    __syncthreads();
    for (unsigned e = threadIdx.x; e < pairs * top; e += blockDim.x) {
      const unsigned j = e & (top - 1);
      const unsigned a = ((e >> top_bits) << (span_bits + 1)) + j;
      const unsigned b = a + (1u << span_bits) + top - 1 - 2 * j;
      tile[a] = min(tile[a], tile[b]);
    }
    for (unsigned step = top / 2; step > 0; step /= 2) {
      // Barrier: every key of the run must be written before a step pairs it.
      __syncthreads();
      // top / 2 compare pairs in each run that is left, pair p of a run from its key
      // get_lower_partner(p, step).
      for (unsigned e = threadIdx.x; e < pairs * top / 2; e += blockDim.x) {
        const unsigned run_start = (e >> (top_bits - 1)) << (span_bits + 1);
        const unsigned lower = run_start + get_lower_partner(e & (top / 2 - 1), step);
        compare_and_swap(tile, lower, lower + step, true);
      }
    }
  }
  // Barrier: the last merge must be done before its runs are stored.
  __syncthreads();
  for (unsigned e = threadIdx.x; e < (per_block >> rounds) * top; e += blockDim.x) {
    // Run r that is left sits at slot r * 2^(top_bits + rounds) and came from input run
    // first_run + r * 2^rounds.
    const unsigned r = e >> top_bits;
    const unsigned j = e & (top - 1);
    const Item item = tile[(r << (top_bits + rounds)) + j] ^ flip;
    store_item(keys, indices, (first_run + (r << rounds)) * stride + j, item, ascending, floats);
  }
}

// One round of register_top: this lane's run of 16 words, sorted ascending, and the run of lane
// ^ distance become, in both lanes, the 16 smallest words of the two, sorted. block_top's rule
// (keep a[j] or b[top - 1 - j], whichever is smaller, then merge), with the partner's run read
// backwards through shuffles: lane l keeps min(a[j], b[15 - j]) and lane l ^ distance
// min(b[j], a[15 - j]), the same 16 words in the reverse order, so after the merge both hold
// the same run and neither lane idles. With runs of 4 words for short:
//
//   lane 0: a = 1 4 6 9, reads b backwards 8 5 3 2, keeps 1 4 3 2, merges to 1 2 3 4
//   lane 1: b = 2 3 5 8, reads a backwards 9 6 4 1, keeps 2 3 4 1, merges to 1 2 3 4
template <typename Word>
__device__ void keep_better_half(Word (&key)[kKeysPerThread], unsigned distance, unsigned lanes) {
  Word other[kKeysPerThread];
  // All the partner's words first, then the mins: the min into register k would overwrite the
  // word that the shuffle for register 15 - k has yet to send.
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    other[k] = __shfl_xor_sync(lane_mask(lanes), key[kKeysPerThread - 1 - k], distance);
  }
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = min(key[k], other[k]);
  }
  // A bitonic sequence: the mins of a rising run and a falling one (the partner's, read
  // backwards) rise, then fall, in both lanes of the pair. One ascending merge, strides 8 .. 1 in
  // registers, sorts it.
  compare_registers(key, kRegisterBits - 1);
}

// The `top` smallest keys (largest, descending) of every array of `segment` keys, in one launch
// (uses_register_top: top <= 16, top < segment, segment 16 .. kTileSize). The T = per_array =
// segment / 16 threads of an array hold its keys as register_top_position says: for T >= 8 a
// warp's lanes read whole 32-byte sectors of neighbouring keys. Each thread sorts its 16 words,
// flipped for a descending top-k as block_top flips them (the smallest flipped words are the
// largest keys). Then the lanes of an array trade runs, partners 1, 2, 4, ... apart up to T or a
// warp's 32 lanes (keep_better_half), after which every lane holds the best run of its array,
// or, for an array longer than a warp's 512 keys (T > 32), of its warp. Such an array spans
// T / 32 warps: each leaves its run in shared memory, and the array's first warp takes them,
// one a lane, and trades them again. The first `top` words of the last run are the array's
// `top` keys, in order: its first thread writes them over its first `top` keys, as v15's --top
// leaves them.
template <typename Word>
__global__ void __launch_bounds__(kBlockThreads)
    register_top(int *keys, int *indices, unsigned segment, unsigned top, bool ascending,
                 bool floats) {
  // The best run of each warp, for arrays that span warps.
  __shared__ Word warp_runs[kBlockThreads / kWarpSize][kKeysPerThread];
  const unsigned per_array = segment / kKeysPerThread;
  const unsigned j = register_top_thread(threadIdx.x, per_array);
  // The first key of this thread's array: blocks hold whole arrays, kTileSize keys each.
  const unsigned start =
      blockIdx.x * blockDim.x * kKeysPerThread + register_top_start(threadIdx.x, per_array);
  Word key[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned position = register_top_position(threadIdx.x, k, per_array);
    key[k] = make_word<Word>(keys[start + position], position, ascending, floats);
  }
  flip_keys(key, !ascending);
  // Ascending, as the one run of an array of 16 keys that starts at key 0.
  sort_thread_keys(key, kKeysPerThread);
  // A block smaller than a warp (n < 512) has only blockDim.x lanes, which the shuffles' mask
  // must name alone.
  const unsigned lanes = warp_lanes(blockDim.x);
  // Partners within the array's threads (distance < T) and within the warp (distance < 32).
  for (unsigned distance = 1; distance < min(per_array, kWarpSize); distance *= 2) {
    keep_better_half(key, distance, lanes);
  }
  if (per_array > kWarpSize) {
    // The array's warps are `warps` neighbouring warps of the block (T / 32 = 2 .. 8, a power
    // of two), the first of them a multiple of `warps`.
    const unsigned warp = threadIdx.x / kWarpSize;
    const unsigned lane = threadIdx.x % kWarpSize;
    const unsigned warps = per_array / kWarpSize;
    // Every lane of the warp holds the same run now: lane 0 stores it.
    if (lane == 0) {
#pragma unroll
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        warp_runs[warp][k] = key[k];
      }
    }
    // Barrier: every warp's run must be in shared memory before the array's first warp reads it.
    __syncthreads();
    // The other warps are done: no barrier follows, so they may leave.
    if (warp % warps != 0) {
      return;
    }
    // Lane l takes the run of the array's warp l % warps: lanes l and l ^ distance, distance <
    // warps, then hold the runs of two different warps, as (l ^ distance) % warps is
    // (l % warps) ^ distance.
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      key[k] = warp_runs[warp + lane % warps][k];
    }
    // Here the block has 64 threads or more: every lane of the warp runs.
    for (unsigned distance = 1; distance < warps; distance *= 2) {
      keep_better_half(key, distance, kWarpSize);
    }
  }
  // The array's first thread writes its first `top` keys.
  if (j == 0) {
    flip_keys(key, !ascending);
    // Unrolled, each register a constant index: with a loop to `top`, key[k] would be an
    // array in local memory, written and read there.
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      if (k < top) {
        store_item(keys, indices, start + k, key[k], ascending, floats);
      }
    }
  }
}

// The top-k of register_top: one launch, a block per tile of kTileSize keys (one block of n / 16
// threads when n is smaller), so that a block holds whole arrays. Keys alone as 32-bit words;
// with positions (indices) as items.
void register_top_segments(int *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                           bool ascending, bool floats) {
  const unsigned tile_size = std::min(n, kTileSize);
  const unsigned blocks = n / tile_size;
  const unsigned threads = tile_size / kKeysPerThread;
  if (indices == nullptr) {
    register_top<unsigned><<<blocks, threads>>>(keys, indices, segment, top, ascending, floats);
  } else {
    register_top<Item><<<blocks, threads>>>(keys, indices, segment, top, ascending, floats);
  }
  CHECK_LAUNCH();
}

// The launches of a sort of n >= 2 keys in arrays of `segment`, each key held as a Word: an
// Item with its position (indices), or its bare ordered_bits (no indices).
template <typename Word>
void sort_words(int *keys, int *indices, unsigned n, unsigned segment, bool ascending,
                bool floats) {
  // The in-block kernels run one block per tile, kKeysPerThread keys per thread (one thread
  // for a tile smaller than that).
  const unsigned tile_size = std::min(n, kTileSize);
  const unsigned tiles = n / tile_size;
  const unsigned tile_threads = std::max(1u, tile_size / kKeysPerThread);
  // The launches in the order for_each_launch gives (bitonic_index.h), each one its kernel;
  // the network of each array stops at the array's length.
  for_each_launch(n, segment, [&](const Launch &launch) {
    switch (launch.kernel) {
      case Kernel::block_sort:
        // Every size up to the tile, or up to the arrays' length, in one launch. Runs that take
        // no warp's round (8 .. 128 keys, or a block smaller than a warp) get the kernel built
        // without them, which needs fewer registers.
        if (sort_takes_warp_round(std::min(tile_size, segment), warp_lanes(tile_threads))) {
          block_sort<Word, true>
              <<<tiles, tile_threads>>>(keys, indices, tile_size, segment, ascending, floats);
        } else {
          block_sort<Word, false>
              <<<tiles, tile_threads>>>(keys, indices, tile_size, segment, ascending, floats);
        }
        CHECK_LAUNCH();
        break;
      case Kernel::group_steps:
        // Up to kStepsPerPass strides of a group or more, or every stride below a group, per
        // launch, each launch a barrier between its steps and the next ones.
        launch_group_steps<Word>(keys, indices, n, launch, segment, ascending, floats);
        break;
      case Kernel::block_top:
      case Kernel::register_top:
        // Only a top-k has them (bitonic_top_segments).
        break;
    }
  });
}

// The argsort of v9 (indices may be nullptr), of ints or, with `floats`, of floats' bits.
void argsort_segments(int *keys, int *indices, unsigned n, unsigned segment, bool ascending,
                      bool floats) {
  // A single key is sorted already, and its position is 0.
  if (n < 2) {
    if (indices != nullptr) {
      CUDA_CHECK(cudaMemsetAsync(indices, 0, sizeof(int)));
    }
    return;
  }
  // Keys alone carry no position: 32-bit words, half the registers, shared memory and
  // shuffles of 64-bit items.
  if (indices == nullptr) {
    sort_words<unsigned>(keys, indices, n, segment, ascending, floats);
  } else if (segment <= kTileSize) {
    // Arrays up to a tile: one sort of words and a fix-up, in one launch.
    prefix_argsort_segments(keys, indices, n, segment, ascending, floats);
  } else {
    sort_words<Item>(keys, indices, n, segment, ascending, floats);
  }
}

// The top-k of v10, of ints or, with `floats`, of floats' bits.
void top_segments(int *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                  bool ascending, bool floats) {
  // Up to 16 keys of arrays of 16 .. kTileSize keys: one launch, with no sort of the runs
  // first (for_each_top_launch gives that launch alone).
  if (uses_register_top(segment, top)) {
    register_top_segments(keys, indices, n, segment, top, ascending, floats);
    return;
  }
  // Every run of `top` keys sorted, as if the arrays were `top` keys long; with indices, each
  // key's position in its run.
  argsort_segments(keys, indices, n, top, ascending, floats);
  // Then the runs of each array halve, round by round, to one: the launches of
  // for_each_top_launch (bitonic_index.h).
  for_each_top_launch(n, segment, top, [&](const Launch &launch) {
    // A block holds up to a tile of runs (runs_per_block), each of `top` keys.
    const unsigned per_block = runs_per_block(n, top, launch.stride);
    const unsigned blocks = n / launch.stride / per_block;
    const unsigned threads = std::min(kBlockThreads, per_block * top);
    block_top<<<blocks, threads>>>(keys, indices, top, launch.stride, launch.steps, per_block,
                                   segment, ascending, floats);
    CHECK_LAUNCH();
  });
}

}  // namespace

void bitonic_argsort_segments(int *keys, int *indices, unsigned n, unsigned segment,
                              bool ascending) {
  argsort_segments(keys, indices, n, segment, ascending, false);
}

void bitonic_top_segments(int *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                          bool ascending) {
  top_segments(keys, indices, n, segment, top, ascending, false);
}

void bitonic_float_segments(float *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                            bool ascending) {
  // The kernels move 32-bit words; `floats` tells make_word and item_key how those order.
  top_segments(reinterpret_cast<int *>(keys), indices, n, segment, top, ascending, true);
}

void bitonic_sort_segments(int *keys, unsigned n, unsigned segment, bool ascending) {
  // Keys alone: the same kernels, with no positions to keep.
  bitonic_argsort_segments(keys, nullptr, n, segment, ascending);
}

void bitonic_sort(int *keys, unsigned n, bool ascending) {
  // The whole input is one array.
  bitonic_sort_segments(keys, n, n, ascending);
}
