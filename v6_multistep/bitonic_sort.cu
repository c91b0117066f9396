// v6_multistep: several global compare steps per pass, on keys held in registers.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// What changes from v5_bank_free, and why
//   v5 runs close to its floor, so only fewer passes can make it faster, and most of its passes
//   are bitonic_step launches of one compare step each (171 of its 190 at 2^29). But k
//   consecutive steps of one merge, strides s, s / 2, ..., s / 2^(k-1), only ever pair keys whose
//   indices differ in those k bits. A thread that holds the 2^k keys that differ only there finds
//   every partner among them: it can load them into registers, run all k steps there, and store
//   them once. The new kernel multistep does that for up to kStepsPerPass strides of a tile or
//   more per pass (fewer in the last pass of a merge), on groups of 2^kStepsPerPass keys whose
//   first key get_first_key gives (bitonic_index.h); it replaces bitonic_step, which is
//   multistep with one step. launch_multistep picks the compiled version for the number of
//   steps: a thread's keys stay in registers only if their number is known when the kernel is
//   compiled. The keys of a group all go the same way, so a thread whose keys must run
//   descending turns them into ~key (flip_keys), runs ascending steps, and turns them back; each
//   compare is then one min and one max (order_pair, compare_registers). bitonic_sort() launches
//   multistep passes where v5 launched bitonic_step (kThreadsPerBlock now sizes their blocks);
//   in bitonic_index.h, for_each_launch plans them (steps_in_pass; Kernel and kernel_name name
//   multistep in bitonic_step's place) and launches_per_sort counts them. The in-block kernels
//   are v5's, unchanged.
//
// Prediction
//   Passes at 2^29 fall from 190 to 55 (1 block_sort, 18 block_merge, 36 multistep passes) and
//   at 2^27 from 153 to 47. If a multistep pass costs about one copy of the array, its 36 passes
//   take about 52 ms at 2^29 where v5's 171 steps took most of its 274 ms. The in-block launches
//   keep v5's cost, about 2.2 copies for a block_merge and 10 for the block_sort in chapter 7's
//   profile: about 70 ms more. About 120 ms in all, a little over 2x faster than v5; the in-block
//   kernels then take over half of the time.
//   Speedup at 2^29 over the stage before: 2.0x .. 2.6x; passes 190 -> 55, about 120 ms: a little
//   over 2x.
//
// Build and run
//   meson setup build && meson compile -C build v6_multistep
//   build/v6_multistep/v6_multistep --log2 24
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
__device__ void compare_and_swap(int *keys, unsigned lower, unsigned upper, bool ascending) {
  const int a = keys[lower];
  const int b = keys[upper];
  const bool out_of_order = ascending ? a > b : a < b;
  if (out_of_order) {
    keys[lower] = b;
    keys[upper] = a;
  }
}

// Puts two registers in ascending order: a gets the smaller key, b the larger.
__device__ void order_pair(int &a, int &b) {
  const int smaller = min(a, b);
  b = max(a, b);
  a = smaller;
}

// Turns every key into ~key when `flip`. ~x = -x - 1 reverses the order of the int keys (~INT_MIN
// is INT_MAX), so the steps that put flipped keys in ascending order put the keys themselves in
// descending order, and flipping back restores them. A thread whose keys must run descending
// flips them, runs the ascending steps, and flips them back: each compare is then one min and
// one max, with no direction to choose.
template <unsigned kCount>
__device__ void flip_keys(int (&key)[kCount], bool flip) {
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
__device__ void compare_registers(int (&key)[kCount], unsigned top_bit) {
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

// kSteps consecutive compare steps of the merge of `size`, strides top_stride, top_stride / 2,
// ..., lowest = top_stride / 2^(kSteps - 1), in one pass over the keys. Thread t owns the group
// of 2^kSteps keys first, first + lowest, ..., first + (2^kSteps - 1) * lowest, with first =
// get_first_key(t, lowest, kSteps): the keys whose indices differ from `first` only in the
// kSteps bits of the strides, so every pair of every one of the steps lies inside one group.
template <unsigned kSteps>
__global__ void multistep(int *keys, unsigned size, unsigned top_stride, bool ascending) {
  constexpr unsigned kKeys = 1u << kSteps;
  // The grid has exactly n / 2^kSteps threads (both powers of two): one per group.
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lowest = top_stride >> (kSteps - 1);
  const unsigned first = get_first_key(thread, lowest, kSteps);
  // The strides are below `size`, so every key of the group has the same bit `size` as `first`:
  // one direction serves every compare of the thread.
  const bool flip = !sorts_ascending(first, size, ascending);
  // Key m of the group is first + m * lowest. For each m the lanes of a warp read 32 consecutive
  // keys, 128 bytes: consecutive threads have consecutive firsts, since lowest >= 32.
  int key[kKeys];
#pragma unroll
  for (unsigned m = 0; m < kKeys; ++m) {
    key[m] = keys[first + m * lowest];
  }
  // The stride lowest * 2^j is bit j of m: step j pairs key m with key m + 2^j, largest first.
  flip_keys(key, flip);
  compare_registers(key, kSteps - 1);
  flip_keys(key, flip);
#pragma unroll
  for (unsigned m = 0; m < kKeys; ++m) {
    keys[first + m * lowest] = key[m];
  }
}

// Launches multistep for `steps` steps from top_stride down (1 .. kStepsPerPass): each number
// of steps is its own compiled kernel, since the number of keys a thread holds must be known
// when the kernel is compiled for them to stay in registers.
void launch_multistep(int *keys, unsigned n, unsigned size, unsigned top_stride, unsigned steps,
                      bool ascending) {
  const unsigned groups = n >> steps;
  const unsigned threads = std::min(groups, kThreadsPerBlock);
  const unsigned blocks = groups / threads;
  switch (steps) {
    case 1:
      multistep<1><<<blocks, threads>>>(keys, size, top_stride, ascending);
      break;
    case 2:
      multistep<2><<<blocks, threads>>>(keys, size, top_stride, ascending);
      break;
    case 3:
      multistep<3><<<blocks, threads>>>(keys, size, top_stride, ascending);
      break;
    case 4:
      multistep<4><<<blocks, threads>>>(keys, size, top_stride, ascending);
      break;
    case 5:
      multistep<5><<<blocks, threads>>>(keys, size, top_stride, ascending);
      break;
    default:
      multistep<6><<<blocks, threads>>>(keys, size, top_stride, ascending);
      break;
  }
  CHECK_LAUNCH();
}

// Steps first_stride, first_stride / 2, ..., 1 of the merge of `size`, inside one block.
// `tile` points at the block's keys, the first of which is key tile_start of the whole array;
// thread t owns compare pair t of the tile. Every stride is below the tile size, so every pair
// lies in the same tile.
__device__ void merge_in_block(int *tile, unsigned tile_start, unsigned size, unsigned first_stride,
                               bool ascending) {
  const unsigned lanes = warp_lanes(blockDim.x);
  unsigned stride = first_stride;
  // Strides of a warp or more pair keys of threads in different warps: shared memory.
  for (; stride >= lanes; stride /= 2) {
    // Tiles start at multiples of the tile size, so the pair's positions in the tile are lower
    // and lower + stride; the direction needs the position in the whole array.
    const unsigned lower = get_lower_partner(threadIdx.x, stride);
    compare_and_swap(tile, lower, lower + stride,
                     sorts_ascending(tile_start + lower, size, ascending));
    // Barrier: the next step reads keys that other threads of the block have just written.
    __syncthreads();
  }
  // Strides below the warp pair two lanes of one warp. Each thread takes its keys into
  // registers, at the tile positions warp_slot gives: for every such stride, the partner of the
  // key in register k of lane l is the key in register k of lane l ^ stride.
  unsigned slot[kKeysPerThread];
  int key[kKeysPerThread];
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    slot[k] = warp_slot(threadIdx.x, k, lanes);
    key[k] = tile[slot[k]];
  }
  for (; stride > 0; stride /= 2) {
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      // Each lane sends key[k] to lane ^ stride and receives that lane's key[k]. The shuffle
      // waits until every lane of the mask has arrived, reads all their values, then hands
      // them out: no lane can see a half-done exchange.
      const int other = __shfl_xor_sync(lane_mask(lanes), key[k], stride);
      // Both lanes of the pair compare the same two keys; each keeps the one its position needs.
      key[k] = keeps_smaller(tile_start + slot[k], size, stride, ascending) ? min(key[k], other)
                                                                            : max(key[k], other);
    }
  }
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    tile[slot[k]] = key[k];
  }
  // Barrier: the next merge, or the store to global memory, reads keys of other warps.
  __syncthreads();
}

// Copies the block's tile from global memory into shared memory: kKeysPerThread keys per
// thread, at the tile positions tile_slot gives.
__device__ void load_tile(int *tile, const int *keys, unsigned tile_start) {
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned slot = tile_slot(threadIdx.x, k, blockDim.x);
    tile[slot] = keys[tile_start + slot];
  }
  // Barrier: the first step reads partners' keys, which other threads have just loaded.
  __syncthreads();
}

// Copies the tile back to global memory. merge_in_block ends with a barrier, so every key of
// the tile is final when this runs.
__device__ void store_tile(int *keys, const int *tile, unsigned tile_start) {
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    const unsigned slot = tile_slot(threadIdx.x, k, blockDim.x);
    keys[tile_start + slot] = tile[slot];
  }
}

// Sorts every tile: all steps of the sizes 2 .. tile size. Even tiles come out ascending and
// odd ones descending (sorts_ascending), so each pair of neighbouring tiles is a bitonic
// sequence, ready for the first merge above the tile. When n <= kTileSize there is one block,
// its last size is n, and the whole array comes out sorted.
__global__ void __launch_bounds__(kTileSize / kKeysPerThread)
    block_sort(int *keys, bool ascending) {
  // The block's tile in shared memory: loaded once, sorted by all the steps, stored once.
  __shared__ int tile[kTileSize];
  const unsigned tile_size = kKeysPerThread * blockDim.x;
  const unsigned tile_start = blockIdx.x * tile_size;
  load_tile(tile, keys, tile_start);
  for (unsigned size = 2; size <= tile_size; size *= 2) {
    merge_in_block(tile, tile_start, size, size / 2, ascending);
  }
  store_tile(keys, tile, tile_start);
}

// The strides of the merge of `size` that stay inside a tile: tile size / 2 down to 1.
__global__ void __launch_bounds__(kTileSize / kKeysPerThread)
    block_merge(int *keys, unsigned size, bool ascending) {
  __shared__ int tile[kTileSize];
  const unsigned tile_size = kKeysPerThread * blockDim.x;
  const unsigned tile_start = blockIdx.x * tile_size;
  load_tile(tile, keys, tile_start);
  merge_in_block(tile, tile_start, size, tile_size / 2, ascending);
  store_tile(keys, tile, tile_start);
}

}  // namespace

void bitonic_sort(int *keys, unsigned n, bool ascending) {
  // A single key is sorted already.
  if (n < 2) {
    return;
  }
  // The in-block kernels run one block of tile_size / kKeysPerThread threads per tile.
  const unsigned tile_size = std::min(n, kTileSize);
  const unsigned tiles = n / tile_size;
  // The launches in the order for_each_launch gives (bitonic_index.h), each one its kernel.
  for_each_launch(n, [&](const Launch &launch) {
    switch (launch.kernel) {
      case Kernel::block_sort:
        // Every size up to the tile, in one launch.
        block_sort<<<tiles, tile_size / kKeysPerThread>>>(keys, ascending);
        CHECK_LAUNCH();
        break;
      case Kernel::multistep:
        // Strides of a tile or more pair keys of different tiles: up to kStepsPerPass of them
        // per launch, each launch a barrier between its steps and the next ones.
        launch_multistep(keys, n, launch.size, launch.stride, launch.steps, ascending);
        break;
      case Kernel::block_merge:
        // The strides below the tile: one launch for all of them.
        block_merge<<<tiles, tile_size / kKeysPerThread>>>(keys, launch.size, ascending);
        CHECK_LAUNCH();
        break;
    }
  });
}
