// v12_key_words: a sort of keys alone moves 32-bit words, not 64-bit items.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// What changes from v11_float_keys, and why
//   Since v9 every key travels as a 64-bit item, its ordered bits and its position, even in a
//   sort of keys alone, where the position is 0 and never written: twice the registers, shared
//   memory and shuffles that the key needs, which makes v9 .. v11's sort of keys alone slower
//   than v8's on the same kernels (chapter 28's tour). A key alone needs only its ordered_bits,
//   one 32-bit word in the same order. So compare_and_swap, order_pair, flip_keys,
//   compare_registers, load_item, store_item, multistep, launch_multistep, load_thread_major,
//   store_thread_major, exchange, compare_lanes, merge_in_block, sort_thread_keys, block_sort and
//   block_merge take the word they sort as a template parameter Word (in place of Item),
//   and make_word<Word> (bitonic_index.h) builds an Item or a bare word from a key;
//   argsort_segments's launches become sort_words<Word>, which it calls with 32-bit words when
//   there are no indices and with Items when there are. block_top keeps its Items.
//   compare_lanes keeps v11's one compare a lane step for Items only: a 32-bit min or max is one
//   instruction, so words take v8's min and max again (the other form is not measured on words).
//   padded's comment speaks of the tile of 32-bit words again, as v8's did; a tile of Items
//   (argsorts, top-k) is padded as in v9 .. v11, whose conflicts docs/notes/banks.md counts.
//   bitonic_float_segments's comment names make_word, which builds either kind of word.
//
// Prediction
//   A sort of keys alone at v8's time, v9's kernels on 32-bit words; argsorts as in v11.
//   Speedup at 2^29 over the stage before: 1.3x .. 1.5x; keys alone back to v8's 32-bit words.
//
// Build and run
//   meson setup build && meson compile -C build v12_key_words
//   build/v12_key_words/v12_key_words --log2 24
#include <algorithm>

#include "bitonic_index.h"
#include "cuda_check.h"
#include "stage.h"

namespace {

// Threads per block of multistep. Any multiple of the warp size (32) works here.
constexpr unsigned kThreadsPerBlock = 256;

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
// to 1. A step of register stride s has kCount / 2 pairs, and pair p runs from register
// get_lower_partner(p, s) to that plus s: chapter 6's one thread per pair, here one turn of the
// loop per pair. The loops are unrolled over every bit a register index has, so every index is
// a constant (get_lower_partner is worked out by the compiler) and the keys stay in registers;
// strides above 2^top_bit are skipped.
template <typename Word, unsigned kCount>
__device__ void compare_registers(Word (&key)[kCount], unsigned top_bit) {
#pragma unroll
  for (int bit = 31 - __builtin_clz(kCount); bit-- > 0;) {
    if (bit <= static_cast<int>(top_bit)) {
      const unsigned stride = 1u << bit;
#pragma unroll
      for (unsigned pair = 0; pair < kCount / 2; ++pair) {
        const unsigned lower = get_lower_partner(pair, stride);
        order_pair(key[lower], key[lower + stride]);
      }
    }
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

// kSteps consecutive compare steps of the merge of `size`, strides top_stride, top_stride / 2,
// ..., lowest = top_stride / 2^(kSteps - 1), in one pass over the keys. Thread t owns the group
// of 2^kSteps keys first, first + lowest, ..., first + (2^kSteps - 1) * lowest, with first =
// get_first_key(t, lowest, kSteps): the keys whose indices differ from `first` only in the
// kSteps bits of the strides, so every pair of every one of the steps lies inside one group.
template <typename Word, unsigned kSteps>
__global__ void multistep(int *keys, int *indices, unsigned size, unsigned top_stride,
                          unsigned segment, bool ascending, bool floats) {
  constexpr unsigned kKeys = 1u << kSteps;
  // The grid has exactly n / 2^kSteps threads (both powers of two): one per group.
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lowest = top_stride >> (kSteps - 1);
  const unsigned first = get_first_key(thread, lowest, kSteps);
  // The strides are below `size`, so every key of the group has the same bit `size` as `first`:
  // one direction serves every compare of the thread. It comes from the position in the array.
  const bool flip = !sorts_ascending(index_in_array(first, segment), size, ascending);
  // Key m of the group is first + m * lowest. For each m the lanes of a warp read 32 consecutive
  // keys, 128 bytes: consecutive threads have consecutive firsts, since lowest >= 32.
  Word key[kKeys];
#pragma unroll
  for (unsigned m = 0; m < kKeys; ++m) {
    key[m] = load_item<Word>(keys, indices, first + m * lowest, ascending, floats);
  }
  // The stride lowest * 2^j is bit j of m: step j pairs key m with key m + 2^j, largest first.
  flip_keys(key, flip);
  compare_registers(key, kSteps - 1);
  flip_keys(key, flip);
#pragma unroll
  for (unsigned m = 0; m < kKeys; ++m) {
    store_item(keys, indices, first + m * lowest, key[m], ascending, floats);
  }
}

// Launches multistep for `steps` steps from top_stride down (1 .. kStepsPerPass): each number
// of steps is its own compiled kernel, since the number of keys a thread holds must be known
// when the kernel is compiled for them to stay in registers.
template <typename Word>
void launch_multistep(int *keys, int *indices, unsigned n, unsigned size, unsigned top_stride,
                      unsigned steps, unsigned segment, bool ascending, bool floats) {
  const unsigned groups = n >> steps;
  const unsigned threads = std::min(groups, kThreadsPerBlock);
  const unsigned blocks = groups / threads;
  switch (steps) {
    case 1:
      multistep<Word, 1>
          <<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending, floats);
      break;
    case 2:
      multistep<Word, 2>
          <<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending, floats);
      break;
    case 3:
      multistep<Word, 3>
          <<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending, floats);
      break;
    case 4:
      multistep<Word, 4>
          <<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending, floats);
      break;
    case 5:
      multistep<Word, 5>
          <<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending, floats);
      break;
    default:
      multistep<Word, 6>
          <<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending, floats);
      break;
  }
  CHECK_LAUNCH();
}

// Loads this thread's keys of a tile in the thread-major layout (layout_slot with low = 0):
// thread t gets keys 8 t .. 8 t + 7, as two 16-byte loads, each with its position in its array
// (block_sort, the first launch, is where the positions start). A tile smaller than one thread's
// keys (n < 8) is read key by key; the registers past its end are never paired with its keys.
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

// Stores this thread's items of a tile from the thread-major layout, as load_thread_major reads:
// the keys, and the positions if there are indices, each as 16-byte stores.
template <typename Word>
__device__ void store_thread_major(int *keys, int *indices, unsigned tile_start,
                                   const Word (&key)[kKeysPerThread], unsigned tile_size,
                                   bool ascending, bool floats) {
  const unsigned first = tile_start + threadIdx.x * kKeysPerThread;
  if (tile_size >= kKeysPerThread) {
#pragma unroll
    for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
      const Word *four = key + 4 * v;
      reinterpret_cast<int4 *>(keys + first)[v] =
          make_int4(item_key(four[0], floats), item_key(four[1], floats), item_key(four[2], floats),
                    item_key(four[3], floats));
      if (indices != nullptr) {
        reinterpret_cast<int4 *>(indices + first)[v] =
            make_int4(item_position(four[0], ascending), item_position(four[1], ascending),
                      item_position(four[2], ascending), item_position(four[3], ascending));
      }
    }
  } else {
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      if (k < tile_size) {
        store_item(keys, indices, first + k, key[k], ascending, floats);
      }
    }
  }
}

// Moves this thread's keys from layout `from` to layout `to` through the block's tile in shared
// memory: every thread stores its keys where `from` puts them and loads the ones `to` gives it.
template <typename Word>
__device__ void exchange(Word (&key)[kKeysPerThread], Word *tile, unsigned from, unsigned to) {
  // Barrier: threads may still be loading their keys of the previous exchange from the tile.
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    tile[padded(layout_slot(threadIdx.x, k, from))] = key[k];
  }
  // Barrier: every key must be in the tile before any thread loads its new ones.
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = tile[padded(layout_slot(threadIdx.x, k, to))];
  }
}

// The ascending steps that pair two lanes of a warp, in the thread-major layout: tile bits
// top_bit down to kRegisterBits are the bits of the lane (bit kRegisterBits + c is lane bit c).
// Each lane trades every register with lane ^ 2^c; the lower lane of the pair keeps the smaller
// key, the upper one the larger. Lane bit c is a step of this merge when its tile bit is:
// c + kRegisterBits <= top_bit. With 8 keys per thread the merge of 32 keys (top_bit 4) has
// lane bits 1 and 0 (strides 16 and 8), the merge of 16 keys lane bit 0 only.
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
        if constexpr (sizeof(Word) == sizeof(Item)) {
          // One 64-bit compare picks: the lower lane takes `other` when it is the smaller,
          // the upper lane when it is not. A min and a max would each compare (chapter 11).
          key[k] = lower == (other < key[k]) ? other : key[k];
        } else {
          // A 32-bit min or max is one instruction (chapter 10), so words keep v8's line.
          key[k] = lower ? min(key[k], other) : max(key[k], other);
        }
      }
    }
  }
}

// The steps of an ascending merge from stride 2^top_bit down to 1 on the block's tile. The keys
// arrive in registers in layout `layout` (thread-major, or lane-major at low = layout) and
// leave thread-major. Strides of 2^(kRegisterBits + 5) and more pair keys of different warps:
// the kRegisterBits largest run in the merge's lane-major round (round_layout), on registers,
// after which one exchange brings the keys back to the thread-major layout for the shuffle steps
// and the last kRegisterBits steps, again on registers.
template <typename Word>
__device__ void merge_in_block(Word (&key)[kKeysPerThread], Word *tile, unsigned top_bit,
                               unsigned layout, unsigned lanes) {
  const unsigned low = round_layout(top_bit);
  if (low != 0) {
    if (layout != low) {
      exchange(key, tile, layout, low);
    }
    compare_registers(key, kRegisterBits - 1);
    top_bit = low - 1;
    layout = low;
  }
  if (layout != 0) {
    exchange(key, tile, layout, 0);
  }
  compare_lanes(key, top_bit, lanes);
  compare_registers(key, top_bit < kRegisterBits ? top_bit : kRegisterBits - 1);
}

// Sizes 2 .. run, where run is kKeysPerThread or, if shorter, the tile or the array: every pair
// lies inside one thread's registers. Thread-major, register k holds key first + k. The network
// of docs/01_network.md takes each pair's direction from the key's position in its array, a
// number known only when the kernel runs; here every direction but one is a constant instead:
// - The thread's keys form kKeysPerThread / run runs, and all of them must come out in one
//   order: each is a whole array (run = segment, so the requested order), or the one run is the
//   thread's (run = kKeysPerThread, in the order bit `run` of its position gives). One
//   flip_keys makes that order ascending, as in block_sort's merges.
// - Below the run any directions serve, so long as the two halves of every run of 2 * size keys
//   come out in opposite orders: a bitonic sequence, which the next size's merge sorts. The
//   runs of `size` keys whose register index has bit `size` clear go ascending and the others
//   descending: bit `size` of a constant index, so each compare is one order_pair.
//   A run of 8 keys: size 2 sorts (0,1) up, (2,3) down, (4,5) up, (6,7) down; size 4 sorts
//   0..3 up and 4..7 down; the merge of 8 sorts all 8 up.
template <typename Word>
__device__ void sort_thread_keys(Word (&key)[kKeysPerThread], unsigned first, unsigned tile_size,
                                 unsigned segment, bool ascending) {
  // A power of two from 2 up (n >= 2 and segment >= 2): the keys every merge here spans at most.
  const unsigned run = min(kKeysPerThread, min(tile_size, segment));
  // Every run of the thread ends in the order of its first run, which starts at key `first`.
  const bool flip = !sorts_ascending(index_in_array(first, segment), run, ascending);
  flip_keys(key, flip);
#pragma unroll
  for (unsigned size = 2; size < kKeysPerThread; size *= 2) {
    if (size >= run) {
      break;
    }
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride /= 2) {
#pragma unroll
      for (unsigned pair = 0; pair < kKeysPerThread / 2; ++pair) {
        // The pair's two registers differ only in bit `stride`, below `size`: they agree on bit
        // `size`, which says which way their run of `size` keys goes.
        const unsigned lower = get_lower_partner(pair, stride);
        if ((lower & size) == 0) {
          order_pair(key[lower], key[lower + stride]);
        } else {
          order_pair(key[lower + stride], key[lower]);
        }
      }
    }
  }
  // The merge of each run, ascending: strides run / 2 down to 1 (__ffs(run) - 1 = log2 run).
  compare_registers(key, __ffs(run) - 2);
  flip_keys(key, flip);
}

// Sorts every tile: all steps of the sizes 2 .. tile size. Even tiles come out ascending and
// odd ones descending (sorts_ascending), so each pair of neighbouring tiles is a bitonic
// sequence, ready for the first merge above the tile. When n <= kTileSize there is one block,
// its last size is n, and the whole array comes out sorted. Arrays shorter than the tile stop
// at their own length, and every one of them comes out in the requested order.
template <typename Word>
__global__ void __launch_bounds__(kBlockThreads)
    block_sort(int *keys, int *indices, unsigned tile_size, unsigned segment, bool ascending,
               bool floats) {
  // The block's tile in shared memory, for the exchanges between layouts.
  __shared__ Word tile[padded(kTileSize)];
  const unsigned tile_start = blockIdx.x * tile_size;
  const unsigned first = tile_start + threadIdx.x * kKeysPerThread;
  const unsigned lanes = warp_lanes(blockDim.x);
  Word key[kKeysPerThread];
  load_thread_major(key, keys, tile_start, tile_size, segment, ascending, floats);
  sort_thread_keys(key, first, tile_size, segment, ascending);
  // The larger sizes, each one merge. Bit `size` of every key of a thread is a bit of the
  // thread's index here (size > kKeysPerThread): one direction per thread and merge, which
  // flip_keys turns into ascending steps. The keys travel between threads in the merge's
  // exchanges, flipped, and stay right: every layout puts bit size_bit - kRegisterBits of the
  // thread's index at tile bit size_bit (a round's register bits end just below size_bit), so a
  // key moves only between threads that agree on its direction and have flipped it alike.
  // The loop is unrolled over every size a tile has, so that each merge's layouts are constants.
  bool flipped = false;
#pragma unroll
  for (unsigned size_bit = kRegisterBits + 1; size_bit <= kTileBits; ++size_bit) {
    const unsigned size = 1u << size_bit;
    if (size > tile_size || size > segment) {
      break;
    }
    const bool flip = !sorts_ascending(index_in_array(first, segment), size, ascending);
    flip_keys(key, flip != flipped);
    flipped = flip;
    merge_in_block(key, tile, size_bit - 1, 0, lanes);
  }
  flip_keys(key, flipped);
  store_thread_major(keys, indices, tile_start, key, tile_size, ascending, floats);
}

// The strides of the merge of `size` that stay inside a tile: tile size / 2 down to 1. Only runs
// above the tile (n > kTileSize), so the tile is always kTileSize keys.
template <typename Word>
__global__ void __launch_bounds__(kBlockThreads)
    block_merge(int *keys, int *indices, unsigned size, unsigned segment, bool ascending,
                bool floats) {
  __shared__ Word tile[padded(kTileSize)];
  const unsigned tile_start = blockIdx.x * kTileSize;
  // size > kTileSize, so every key of the tile has the same bit `size`: one direction.
  const bool flip = !sorts_ascending(index_in_array(tile_start, segment), size, ascending);
  // Load straight into the layout of the merge's round (the tile's top kRegisterBits bits in
  // registers): each load of a warp is 128 consecutive bytes.
  const unsigned top_low = round_layout(kTileBits - 1);
  Word key[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = load_item<Word>(keys, indices, tile_start + layout_slot(threadIdx.x, k, top_low),
                             ascending, floats);
  }
  flip_keys(key, flip);
  merge_in_block(key, tile, kTileBits - 1, top_low, kWarpSize);
  flip_keys(key, flip);
  store_thread_major(keys, indices, tile_start, key, kTileSize, ascending, floats);
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
        // Every size up to the tile, or up to the arrays' length, in one launch.
        block_sort<Word>
            <<<tiles, tile_threads>>>(keys, indices, tile_size, segment, ascending, floats);
        CHECK_LAUNCH();
        break;
      case Kernel::multistep:
        // Strides of a tile or more pair keys of different tiles: up to kStepsPerPass of them
        // per launch, each launch a barrier between its steps and the next ones.
        launch_multistep<Word>(keys, indices, n, launch.size, launch.stride, launch.steps, segment,
                               ascending, floats);
        break;
      case Kernel::block_merge:
        // The strides below the tile: one launch for all of them.
        block_merge<Word>
            <<<tiles, kBlockThreads>>>(keys, indices, launch.size, segment, ascending, floats);
        CHECK_LAUNCH();
        break;
      case Kernel::block_top:
        // Only a top-k has it, after this sort (bitonic_top_segments).
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
  } else {
    sort_words<Item>(keys, indices, n, segment, ascending, floats);
  }
}

// The top-k of v10, of ints or, with `floats`, of floats' bits.
void top_segments(int *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                  bool ascending, bool floats) {
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
