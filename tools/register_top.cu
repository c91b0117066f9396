// register_top: a top-k of many short arrays in one launch, its rounds in registers. An
// experiment of the lab (lab note top_keys), not a stage: it asks whether a top-k of keys can
// cost less than v15's full sort of the same arrays, which v15's own top-k does not.
//
// The idea
//   v10 .. v15 keep the K smallest keys of each array in two launches (chapter 12): block_sort
//   sorts every run of K keys and writes them, then block_top reads them back and, round by
//   round in shared memory, keeps the better half of two runs. Here, for K up to 16, one launch
//   does it all in registers, on each key's 32-bit order word, or with --values on its 64-bit
//   item, the key above its position (to_word):
//   1. Each thread loads 16 keys of one array and sorts them in its registers (sort_16).
//   2. Neighbouring threads of the array trade runs through shuffles (keep_better_half): lane
//      l reads the run b of lane l ^ d backwards and keeps min(a[i], b[15 - i]), the 16
//      smallest of both runs as a bitonic sequence, which one merge of 16 sorts. Lane l ^ d
//      keeps min(b[i], a[15 - i]): the same 16 words in the reverse order, so after its merge
//      it holds the same run, and no lane is left idle. d = 1, 2, 4, ... up to the array's
//      threads or a warp's 32 lanes: then every lane holds the best 16 of its array or warp.
//      Lanes 0 and 1 with runs 1 4 6 9 | 2 3 5 8 .. (4 keys for short): lane 0 keeps
//      min(1,8) min(4,5) min(6,3) min(9,2) = 1 4 3 2, lane 1 min(2,9) min(3,6) min(5,4)
//      min(8,1) = 2 3 4 1; both merge to 1 2 3 4.
//   3. An array longer than a warp's 512 keys: each warp leaves its run in shared memory, and
//      the array's first warp takes those runs (2 .. 8), one a lane, and trades them again.
//   The first K words of the last run are the array's K smallest keys (largest, descending:
//   to_word flips them), written over its first K keys, where the stages' --top leaves them.
//
// What it covers
//   Keys, and with --values their positions (a stable top-k: equal keys by position), K a power
//   of two up to 16, arrays of 16 to 4096 keys (a block of 256 threads of 16 keys each holds
//   4096; longer arrays are refused). Without --top it runs v15_tile4096's sort of the keys (its
//   argsort with --values), whose library is linked in, so that one program times both
//   (tools/experiments.py register_tops and register_top_values).
//
//   meson compile -C build register_top
//   build/tools/register_top --log2 27 --segment 1024 --top 16
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "bitonic_index.h"
#include "cuda_check.h"
#include "driver.h"
#include "errors.h"
#include "stage.h"

namespace {

// v15_tile4096's mapping (its bitonic_index.h): a thread holds kKeysPerThread = 16 keys, the
// most a top-k here keeps of an array, and a block of kBlockThreads = 256 threads a tile of
// kTileSize = 4096 keys, the longest array.
constexpr unsigned kKeys = kKeysPerThread;

// What a thread holds of a key: a 32-bit word for keys alone (its unsigned order the key's,
// v15's ordered_bits: INT_MIN becomes 0, INT_MAX 0xFFFFFFFF), or, for --values, v15's 64-bit
// item, the key's ordered bits above its position in the array (make_item), so that equal keys
// order by position and the top-k is stable. Every bit is flipped where the largest keys are
// wanted: the 16 smallest words are then the keys kept, in both orders. make_item writes a
// descending position as ~position, which the flip turns back: equal keys still come out by
// position.
template <typename Word>
__device__ Word to_word(int key, unsigned position, bool ascending);

template <>
__device__ unsigned to_word<unsigned>(int key, unsigned /*position*/, bool ascending) {
  const unsigned bits = ordered_bits(key, false);
  return ascending ? bits : ~bits;
}

template <>
__device__ Item to_word<Item>(int key, unsigned position, bool ascending) {
  const Item item = make_item(key, position, ascending);
  return ascending ? item : ~item;
}

// Writes a word, to_word undone, as the key at keys[i] (and an item's position at indices[i]).
__device__ void store_word(int *keys, int * /*indices*/, std::size_t i, unsigned word,
                           bool ascending) {
  keys[i] = key_from_ordered(ascending ? word : ~word, false);
}

__device__ void store_word(int *keys, int *indices, std::size_t i, Item word, bool ascending) {
  const Item item = ascending ? word : ~word;
  keys[i] = item_key(item);
  indices[i] = item_position(item, ascending);
}

// Puts two words in ascending order.
template <typename Word>
__device__ void order_pair(Word &a, Word &b) {
  const Word smaller = min(a, b);
  b = max(a, b);
  a = smaller;
}

// The merge of 16 words that form a bitonic sequence (they rise, then fall): strides 8, 4, 2
// and 1, every pair ascending, leave them sorted ascending (docs/01_network.md).
template <typename Word>
__device__ void merge_16(Word (&word)[kKeys]) {
#pragma unroll
  for (unsigned stride = kKeys / 2; stride > 0; stride /= 2) {
#pragma unroll
    for (unsigned i = 0; i < kKeys; ++i) {
      // Register i pairs with i + stride once, from the one of the two without bit `stride`.
      if ((i & stride) == 0) {
        order_pair(word[i], word[i + stride]);
      }
    }
  }
}

// Sorts 16 words ascending. Below 16, the runs of `size` whose first register has bit `size`
// clear go ascending and the others descending, so that each pair of runs is a bitonic sequence
// for the next size's merge; the merge of 16 then sorts them all.
template <typename Word>
__device__ void sort_16(Word (&word)[kKeys]) {
#pragma unroll
  for (unsigned size = 2; size < kKeys; size *= 2) {
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride /= 2) {
#pragma unroll
      for (unsigned i = 0; i < kKeys; ++i) {
        if ((i & stride) == 0) {
          // i and i + stride agree on bit `size`: the direction of their run.
          if ((i & size) == 0) {
            order_pair(word[i], word[i + stride]);
          } else {
            order_pair(word[i + stride], word[i]);
          }
        }
      }
    }
  }
  merge_16(word);
}

// One round (step 2 above): this lane's sorted run and that of lane ^ distance become the 16
// smallest words of both, sorted, in both lanes. `lanes` are the lanes of the warp that run.
template <typename Word>
__device__ void keep_better_half(Word (&word)[kKeys], unsigned distance, unsigned lanes) {
  Word other[kKeys];
  // Every lane sends word[15 - i] before any lane changes a word: the partner's run, read
  // backwards.
#pragma unroll
  for (unsigned i = 0; i < kKeys; ++i) {
    other[i] = __shfl_xor_sync(lanes, word[kKeys - 1 - i], distance);
  }
#pragma unroll
  for (unsigned i = 0; i < kKeys; ++i) {
    word[i] = min(word[i], other[i]);
  }
  merge_16(word);
}

// The top `top` keys of every array of `segment` keys (16 .. kTileSize) of the block's keys.
// Thread j of an array of T = segment / 16 threads holds its keys j, j + T, j + 2T, ...: for
// T >= 8 a warp's lanes read whole 32-byte sectors of neighbouring keys.
template <typename Word>
__global__ void __launch_bounds__(kBlockThreads)
    register_top(int *keys, int *indices, unsigned segment, unsigned top, bool ascending) {
  // Each warp's best run, for arrays longer than a warp's keys (step 3).
  __shared__ Word warp_runs[kBlockThreads / kWarpSize][kKeys];
  const unsigned per_array = segment / kKeys;
  const unsigned j = threadIdx.x & (per_array - 1);
  const std::size_t start =
      (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x - j) * kKeys;
  Word word[kKeys];
#pragma unroll
  for (unsigned m = 0; m < kKeys; ++m) {
    // Key m of thread j is key m * per_array + j of its array: that is its position.
    const unsigned position = m * per_array + j;
    word[m] = to_word<Word>(keys[start + position], position, ascending);
  }
  sort_16(word);
  // The lanes that run: all 32, or the block's when it is shorter than a warp (n < 512).
  const unsigned lanes = blockDim.x >= kWarpSize ? ~0u : (1u << blockDim.x) - 1;
  // Step 2: partners 1, 2, 4, ... apart, all within the array's threads and within the warp.
  for (unsigned distance = 1; distance < min(per_array, kWarpSize); distance *= 2) {
    keep_better_half(word, distance, lanes);
  }
  if (per_array > kWarpSize) {
    // Step 3: the array spans warps = per_array / 32 warps (2 .. 8).
    const unsigned warp = threadIdx.x / kWarpSize;
    const unsigned lane = threadIdx.x % kWarpSize;
    const unsigned warps = per_array / kWarpSize;
    if (lane == 0) {
#pragma unroll
      for (unsigned i = 0; i < kKeys; ++i) {
        warp_runs[warp][i] = word[i];
      }
    }
    // Barrier: every warp's run is in shared memory before the first warp of its array reads it.
    __syncthreads();
    if (warp % warps != 0) {
      return;
    }
    // Lane l takes the run of the array's warp l % warps: lanes l and l ^ d, d < warps, hold
    // the runs of two different warps, as in step 2.
#pragma unroll
    for (unsigned i = 0; i < kKeys; ++i) {
      word[i] = warp_runs[warp + lane % warps][i];
    }
    for (unsigned distance = 1; distance < warps; distance *= 2) {
      keep_better_half(word, distance, ~0u);
    }
  }
  // The array's first thread writes its first `top` keys (and their positions).
  if (j == 0) {
    for (unsigned i = 0; i < top; ++i) {
      store_word(keys, indices, start + i, word[i], ascending);
    }
  }
}

// The top-k of the driver (driver.h, TopSort): one launch, a block per 4096 keys.
void register_top_segments(int *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                           bool ascending) {
  if (segment < kKeys || segment > kTileSize || top > kKeys) {
    throw FatalError(kExitBadInput,
                     "--top: register_top keeps at most " + std::to_string(kKeys) +
                         " keys of arrays of " + std::to_string(kKeys) + " to " +
                         std::to_string(kTileSize) + " keys (give --segment " +
                         std::to_string(kKeys) + " .. " + std::to_string(kTileSize) + ")");
  }
  const unsigned tile = std::min(n, kTileSize);
  // Keys alone as 32-bit words; with positions (--values) as 64-bit items.
  if (indices == nullptr) {
    register_top<unsigned><<<n / tile, tile / kKeys>>>(keys, indices, segment, top, ascending);
  } else {
    register_top<Item><<<n / tile, tile / kKeys>>>(keys, indices, segment, top, ascending);
  }
  CHECK_LAUNCH();
}

}  // namespace

int main(int argc, char **argv) {
  // Without --top: v15_tile4096's sort of the keys (its argsort with --values). With it: the
  // top-k above. No launch trace.
  const Algorithm algorithm{
      "register_top", Kind::kStage, bitonic_sort_segments,    {},
      true,           nullptr,      bitonic_argsort_segments, register_top_segments,
      kKeys};
  return run_program(argc, argv, "register_top", {algorithm});
}
