// v9_argsort: each key carries its position in its array; an argsort in one 64-bit word.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// What changes from v8_batched, and why
//   Most users of a batched sort want each array's permutation, not only its sorted keys
//   (torch.sort always returns it). With --values this stage also writes, for every key, the
//   position in its array that the key came from: an argsort, which the driver checks
//   (check_indices). A network that sorts keys sorts anything with an order, so the kernels here
//   sort items (make_item in bitonic_index.h): the key's bits above, its position below, in one
//   unsigned 64-bit word. One compare moves a key and its position together, and two equal keys
//   are ordered by their positions, so the argsort is stable. The positions are made where the
//   keys are first read (load_thread_major, from index_in_array) and wait in `indices` between
//   launches: every later load makes items (load_item) and every store takes them apart
//   (store_item, store_thread_major). order_pair, flip_keys, compare_registers, compare_lanes,
//   exchange, merge_in_block and sort_thread_keys hold items where v8 held `int` keys, and so
//   does the shared-memory tile (twice the bytes); multistep, launch_multistep, block_sort and
//   block_merge take `indices`. bitonic_sort_segments becomes bitonic_argsort_segments and calls
//   it with no indices: without --values the same kernels run with nothing to read or write
//   beside the keys. Items take twice a key's registers, so a thread holds 8, not v8's 16, in a
//   tile of 2048 (kRegisterBits, kTileSize and kTileBits in bitonic_index.h, and the examples of
//   layout_slot, padded, load_thread_major and compare_lanes): a tuning the chapter measures
//   (docs/results/h200/v9_mapping.csv). block_sort stores from the registers again, as v7 does, and
//   v8's store_through_tile goes: whether its round through the tile pays for 8 items a thread is
//   not measured (the README's limits). A 64-bit min or max is a compare of two halves and two
//   selects, so compare_lanes picks each lane's item with one compare where v8 asks for a min and a
//   max: a tuning the lab note docs/notes/lane_compare.md measures
//   (docs/results/h100/v9_compare.csv).
//
// Prediction
//   Twice the bytes in every load, store, shuffle and exchange, and 64-bit compares: about twice
//   v8's time where v8 is bound by its memory traffic (L <= 16, one copy), up to twice where its
//   compares bound it (L = 256 .. 2048). torch.sort, the fastest library argsort for arrays of
//   128 to 4096 keys on the H100, takes 4 to 12 ms for 2^27 keys: 4x faster than it wants this
//   stage within about 1 to 3 ms. Keys alone (no --values) should be somewhat slower than v8:
//   the same 4-byte keys in memory, but 8-byte items in registers and shared memory.
//
// Build and run
//   meson setup build && meson compile -C build v9_argsort
//   build/v9_argsort/v9_argsort --log2 27 --segment 256 --values
#include <algorithm>

#include "bitonic_index.h"
#include "cuda_check.h"
#include "stage.h"

namespace {

// Threads per block of multistep. Any multiple of the warp size (32) works here.
constexpr unsigned kThreadsPerBlock = 256;

// Puts two registers in ascending order: a gets the smaller key, b the larger.
__device__ void order_pair(Item &a, Item &b) {
  const Item smaller = min(a, b);
  b = max(a, b);
  a = smaller;
}

// Turns every item into ~item when `flip`. ~x = 2^64 - 1 - x reverses the order of the items, so
// the steps that put flipped keys in ascending order put the keys themselves in
// descending order, and flipping back restores them. A thread whose keys must run descending
// flips them, runs the ascending steps, and flips them back: each compare is then one min and
// one max, with no direction to choose.
template <unsigned kCount>
__device__ void flip_keys(Item (&key)[kCount], bool flip) {
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
template <unsigned kCount>
__device__ void compare_registers(Item (&key)[kCount], unsigned top_bit) {
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

// Key i with its position, as one item (make_item): the positions wait in `indices` between
// launches. Without indices (a sort of keys alone) every position is 0 and never written.
__device__ Item load_item(const int *keys, const int *indices, unsigned i, bool ascending) {
  return make_item(keys[i], indices == nullptr ? 0u : static_cast<unsigned>(indices[i]), ascending);
}

// Writes an item back as key i and, if there are indices, its position.
__device__ void store_item(int *keys, int *indices, unsigned i, Item item, bool ascending) {
  keys[i] = item_key(item);
  if (indices != nullptr) {
    indices[i] = item_position(item, ascending);
  }
}

// kSteps consecutive compare steps of the merge of `size`, strides top_stride, top_stride / 2,
// ..., lowest = top_stride / 2^(kSteps - 1), in one pass over the keys. Thread t owns the group
// of 2^kSteps keys first, first + lowest, ..., first + (2^kSteps - 1) * lowest, with first =
// get_first_key(t, lowest, kSteps): the keys whose indices differ from `first` only in the
// kSteps bits of the strides, so every pair of every one of the steps lies inside one group.
template <unsigned kSteps>
__global__ void multistep(int *keys, int *indices, unsigned size, unsigned top_stride,
                          unsigned segment, bool ascending) {
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
  Item key[kKeys];
#pragma unroll
  for (unsigned m = 0; m < kKeys; ++m) {
    key[m] = load_item(keys, indices, first + m * lowest, ascending);
  }
  // The stride lowest * 2^j is bit j of m: step j pairs key m with key m + 2^j, largest first.
  flip_keys(key, flip);
  compare_registers(key, kSteps - 1);
  flip_keys(key, flip);
#pragma unroll
  for (unsigned m = 0; m < kKeys; ++m) {
    store_item(keys, indices, first + m * lowest, key[m], ascending);
  }
}

// Launches multistep for `steps` steps from top_stride down (1 .. kStepsPerPass): each number
// of steps is its own compiled kernel, since the number of keys a thread holds must be known
// when the kernel is compiled for them to stay in registers.
void launch_multistep(int *keys, int *indices, unsigned n, unsigned size, unsigned top_stride,
                      unsigned steps, unsigned segment, bool ascending) {
  const unsigned groups = n >> steps;
  const unsigned threads = std::min(groups, kThreadsPerBlock);
  const unsigned blocks = groups / threads;
  switch (steps) {
    case 1:
      multistep<1><<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending);
      break;
    case 2:
      multistep<2><<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending);
      break;
    case 3:
      multistep<3><<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending);
      break;
    case 4:
      multistep<4><<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending);
      break;
    case 5:
      multistep<5><<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending);
      break;
    default:
      multistep<6><<<blocks, threads>>>(keys, indices, size, top_stride, segment, ascending);
      break;
  }
  CHECK_LAUNCH();
}

// Loads this thread's keys of a tile in the thread-major layout (layout_slot with low = 0):
// thread t gets keys 8 t .. 8 t + 7, as two 16-byte loads, each with its position in its array
// (block_sort, the first launch, is where the positions start). A tile smaller than one thread's
// keys (n < 8) is read key by key; the registers past its end are never paired with its keys.
__device__ void load_thread_major(Item (&key)[kKeysPerThread], const int *keys, unsigned tile_start,
                                  unsigned tile_size, unsigned segment, bool ascending) {
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
    key[k] = make_item(read[k], index_in_array(first + k, segment), ascending);
  }
}

// Stores this thread's items of a tile from the thread-major layout, as load_thread_major reads:
// the keys, and the positions if there are indices, each as 16-byte stores.
__device__ void store_thread_major(int *keys, int *indices, unsigned tile_start,
                                   const Item (&key)[kKeysPerThread], unsigned tile_size,
                                   bool ascending) {
  const unsigned first = tile_start + threadIdx.x * kKeysPerThread;
  if (tile_size >= kKeysPerThread) {
#pragma unroll
    for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
      const Item *four = key + 4 * v;
      reinterpret_cast<int4 *>(keys + first)[v] =
          make_int4(item_key(four[0]), item_key(four[1]), item_key(four[2]), item_key(four[3]));
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
        store_item(keys, indices, first + k, key[k], ascending);
      }
    }
  }
}

// Moves this thread's keys from layout `from` to layout `to` through the block's tile in shared
// memory: every thread stores its keys where `from` puts them and loads the ones `to` gives it.
__device__ void exchange(Item (&key)[kKeysPerThread], Item *tile, unsigned from, unsigned to) {
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
__device__ void compare_lanes(Item (&key)[kKeysPerThread], unsigned top_bit, unsigned lanes) {
#pragma unroll
  for (int c = 4; c >= 0; --c) {
    if (static_cast<unsigned>(c) + kRegisterBits <= top_bit && (1u << c) < lanes) {
      const unsigned lane_stride = 1u << c;
      const bool lower = (threadIdx.x & lane_stride) == 0;
#pragma unroll
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        // The shuffle waits until every lane of the mask has arrived, reads all their values,
        // then hands them out: no lane can see a half-done exchange.
        const Item other = __shfl_xor_sync(lane_mask(lanes), key[k], lane_stride);
        // One 64-bit compare picks: the lower lane takes `other` when it is the smaller, the
        // upper lane when it is not. A min and a max would each compare (chapter 11).
        key[k] = lower == (other < key[k]) ? other : key[k];
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
__device__ void merge_in_block(Item (&key)[kKeysPerThread], Item *tile, unsigned top_bit,
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
__device__ void sort_thread_keys(Item (&key)[kKeysPerThread], unsigned first, unsigned tile_size,
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
__global__ void __launch_bounds__(kBlockThreads)
    block_sort(int *keys, int *indices, unsigned tile_size, unsigned segment, bool ascending) {
  // The block's tile in shared memory, for the exchanges between layouts.
  __shared__ Item tile[padded(kTileSize)];
  const unsigned tile_start = blockIdx.x * tile_size;
  const unsigned first = tile_start + threadIdx.x * kKeysPerThread;
  const unsigned lanes = warp_lanes(blockDim.x);
  Item key[kKeysPerThread];
  load_thread_major(key, keys, tile_start, tile_size, segment, ascending);
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
  store_thread_major(keys, indices, tile_start, key, tile_size, ascending);
}

// The strides of the merge of `size` that stay inside a tile: tile size / 2 down to 1. Only runs
// above the tile (n > kTileSize), so the tile is always kTileSize keys.
__global__ void __launch_bounds__(kBlockThreads)
    block_merge(int *keys, int *indices, unsigned size, unsigned segment, bool ascending) {
  __shared__ Item tile[padded(kTileSize)];
  const unsigned tile_start = blockIdx.x * kTileSize;
  // size > kTileSize, so every key of the tile has the same bit `size`: one direction.
  const bool flip = !sorts_ascending(index_in_array(tile_start, segment), size, ascending);
  // Load straight into the layout of the merge's round (the tile's top kRegisterBits bits in
  // registers): each load of a warp is 128 consecutive bytes.
  const unsigned top_low = round_layout(kTileBits - 1);
  Item key[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = load_item(keys, indices, tile_start + layout_slot(threadIdx.x, k, top_low), ascending);
  }
  flip_keys(key, flip);
  merge_in_block(key, tile, kTileBits - 1, top_low, kWarpSize);
  flip_keys(key, flip);
  store_thread_major(keys, indices, tile_start, key, kTileSize, ascending);
}

}  // namespace

void bitonic_argsort_segments(int *keys, int *indices, unsigned n, unsigned segment,
                              bool ascending) {
  // A single key is sorted already, and its position is 0.
  if (n < 2) {
    if (indices != nullptr) {
      CUDA_CHECK(cudaMemsetAsync(indices, 0, sizeof(int)));
    }
    return;
  }
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
        block_sort<<<tiles, tile_threads>>>(keys, indices, tile_size, segment, ascending);
        CHECK_LAUNCH();
        break;
      case Kernel::multistep:
        // Strides of a tile or more pair keys of different tiles: up to kStepsPerPass of them
        // per launch, each launch a barrier between its steps and the next ones.
        launch_multistep(keys, indices, n, launch.size, launch.stride, launch.steps, segment,
                         ascending);
        break;
      case Kernel::block_merge:
        // The strides below the tile: one launch for all of them.
        block_merge<<<tiles, kBlockThreads>>>(keys, indices, launch.size, segment, ascending);
        CHECK_LAUNCH();
        break;
    }
  });
}

void bitonic_sort_segments(int *keys, unsigned n, unsigned segment, bool ascending) {
  // Keys alone: the same kernels, with no positions to keep.
  bitonic_argsort_segments(keys, nullptr, n, segment, ascending);
}

void bitonic_sort(int *keys, unsigned n, bool ascending) {
  // The whole input is one array.
  bitonic_sort_segments(keys, n, n, ascending);
}
