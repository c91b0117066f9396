// v8_batched: many arrays sorted at once; the network stops at their length.
//
// What this program does
//   Sorts n 32-bit integers in device memory with the bitonic sorting network
//   (docs/01_network.md), in place, ascending or descending. The common driver (common/) makes
//   or reads the keys, pads n to a power of two, times the sort and checks the result against
//   std::sort; this file holds only the kernels and bitonic_sort(), the function that launches
//   them (common/stage.h). Every launch is checked and counted (common/cuda_check.h).
//
// What changes from v7_register_tile, and why
//   Bitonic sort loses to a radix sort on one long array (docs/28_results.md), but many short
//   arrays are another problem: a library sort pays for every array, a network pays nothing.
//   This stage sorts the n / L arrays of L consecutive keys each (--segment L; L = n is the
//   whole input) with one network: the merges stop at size L (bitonic_sort_segments, and
//   block_sort's loop), and every kernel takes its directions from a key's position in its
//   array (index_in_array in bitonic_index.h), so that the last merge of every array runs in the
//   requested order. multistep, sort_thread_keys, block_sort and block_merge take the array
//   length for that; so do launch_multistep, bitonic_sort (one array of n keys), for_each_launch
//   and launches_per_sort. Such directions are known only when the kernel runs, so
//   sort_thread_keys no longer takes one per compare (v7's compare_and_swap, which goes): it flips
//   a thread's keys once for the order of its run (flip_keys, as the merges do) and gives every
//   compare below the run a direction fixed by the register index, one min and one max. The rest
//   is v7's, with half its tile: 256 threads of 16 keys, 4096 keys (kTileSize and kTileBits in
//   bitonic_index.h, and the example of layout_slot), not part of this idea but a tuning the
//   chapter measures (docs/results/h200/v8_mapping.csv); so is block_sort's store of its tile,
//   which goes through shared memory (store_through_tile; docs/results/h100/v8_pipes.csv). Arrays
//   of up to 16 keys are sorted inside one thread's registers, up to 512 inside one warp
//   (registers and shuffles), up to 4096 inside one block (one round through shared memory per
//   merge of 1024 keys or more), and longer ones with v7's passes.
//
// Prediction
//   Arrays of up to 4096 keys take one launch: one read and one write of the keys, plus the
//   compares, 36 steps per key at L = 256 and 78 at L = 4096, which bound the time. For L <= 256
//   that should stay within about twice the 0.36 ms that one read and write of 2^27 keys took on
//   the H100 this stage was written on, where cub::DeviceSegmentedSort spends one block radix
//   sort on every array longer than 112 keys: 20x and more against it at L = 128 and 256,
//   several times at L = 2048, and a crossover where the arrays are long enough for radix
//   sort's fixed number of passes to win.
//
// Build and run
//   meson setup build && meson compile -C build v8_batched
//   build/v8_batched/v8_batched --log2 27 --segment 256
#include <algorithm>

#include "bitonic_index.h"
#include "cuda_check.h"
#include "stage.h"

namespace {

// Threads per block of multistep. Any multiple of the warp size (32) works here.
constexpr unsigned kThreadsPerBlock = 256;

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
__global__ void multistep(int *keys, unsigned size, unsigned top_stride, unsigned segment,
                          bool ascending) {
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
                      unsigned segment, bool ascending) {
  const unsigned groups = n >> steps;
  const unsigned threads = std::min(groups, kThreadsPerBlock);
  const unsigned blocks = groups / threads;
  switch (steps) {
    case 1:
      multistep<1><<<blocks, threads>>>(keys, size, top_stride, segment, ascending);
      break;
    case 2:
      multistep<2><<<blocks, threads>>>(keys, size, top_stride, segment, ascending);
      break;
    case 3:
      multistep<3><<<blocks, threads>>>(keys, size, top_stride, segment, ascending);
      break;
    case 4:
      multistep<4><<<blocks, threads>>>(keys, size, top_stride, segment, ascending);
      break;
    case 5:
      multistep<5><<<blocks, threads>>>(keys, size, top_stride, segment, ascending);
      break;
    default:
      multistep<6><<<blocks, threads>>>(keys, size, top_stride, segment, ascending);
      break;
  }
  CHECK_LAUNCH();
}

// Loads this thread's keys of a tile in the thread-major layout (layout_slot with low = 0):
// thread t gets keys 16 t .. 16 t + 15, as four 16-byte loads. A tile smaller than one thread's
// keys (n < 16) is read key by key; the registers past its end are never paired with its keys.
__device__ void load_thread_major(int (&key)[kKeysPerThread], const int *tile_keys,
                                  unsigned tile_size) {
  const unsigned first = threadIdx.x * kKeysPerThread;
  if (tile_size >= kKeysPerThread) {
    const int4 *fours = reinterpret_cast<const int4 *>(tile_keys + first);
#pragma unroll
    for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
      const int4 four = fours[v];
      key[4 * v] = four.x;
      key[4 * v + 1] = four.y;
      key[4 * v + 2] = four.z;
      key[4 * v + 3] = four.w;
    }
  } else {
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      key[k] = k < tile_size ? tile_keys[first + k] : 0;
    }
  }
}

// Stores this thread's keys of a tile from the thread-major layout, as load_thread_major reads.
__device__ void store_thread_major(int *tile_keys, const int (&key)[kKeysPerThread],
                                   unsigned tile_size) {
  const unsigned first = threadIdx.x * kKeysPerThread;
  if (tile_size >= kKeysPerThread) {
    int4 *fours = reinterpret_cast<int4 *>(tile_keys + first);
#pragma unroll
    for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
      fours[v] = make_int4(key[4 * v], key[4 * v + 1], key[4 * v + 2], key[4 * v + 3]);
    }
  } else {
#pragma unroll
    for (unsigned k = 0; k < kKeysPerThread; ++k) {
      if (k < tile_size) {
        tile_keys[first + k] = key[k];
      }
    }
  }
}

// Stores the block's tile of keys, held thread-major, through the tile in shared memory, so that
// each 16-byte store of a warp fills 512 consecutive bytes. Stored straight from the registers,
// as store_thread_major does, the 32 lanes of a warp are 64 bytes apart: each 16-byte store
// fills half of 32 different 32-byte sectors, and the L2 receives about twice the sector writes
// the keys need (the lab note docs/notes/pipes.md counts them). Here thread t stores fours
// t, t + blockDim.x, t + 2 blockDim.x and t + 3 blockDim.x of the tile: four keys each, read
// back from the slots where the keys' owners wrote them.
//
//   256 threads, 4096 keys: store v = 0 of lanes 0 .. 31 writes keys 0 .. 127, store v = 1 of
//   the same lanes keys 1024 .. 1151. Thread 1 stores key 1028 there, register 4 of thread 64.
//
// A tile of fewer keys than one thread holds (n < 16) is stored as store_thread_major stores it.
__device__ void store_through_tile(int *tile_keys, const int (&key)[kKeysPerThread], int *tile,
                                   unsigned tile_size) {
  if (tile_size < kKeysPerThread) {
    store_thread_major(tile_keys, key, tile_size);
    return;
  }
  // Barrier: threads may still be loading their keys of the last exchange from the tile.
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    tile[padded(threadIdx.x * kKeysPerThread + k)] = key[k];
  }
  // Barrier: every key must be in the tile before any thread reads four of them.
  __syncthreads();
  int4 *fours = reinterpret_cast<int4 *>(tile_keys);
#pragma unroll
  for (unsigned v = 0; v < kKeysPerThread / 4; ++v) {
    // The fours of one v are consecutive across the block's threads (store_four): tile_size / 4
    // fours in all, kKeysPerThread / 4 per thread. Word j of lane t's four is slot 4 t + j plus
    // 4 (v blockDim.x + 32 w) in warp w, the same for the whole warp; in a block of whole warps,
    // padded into bank 4 t + t / 8 + j (mod 32) plus a constant. The lanes read as many banks
    // as there are lanes, in a smaller block too, as they do when they write thread-major
    // (padded, in bitonic_index.h; tests/stages/banks_store_test.cpp checks every block size).
    const unsigned four = store_four(v, threadIdx.x, blockDim.x);
    fours[four] = make_int4(tile[padded(4 * four)], tile[padded(4 * four + 1)],
                            tile[padded(4 * four + 2)], tile[padded(4 * four + 3)]);
  }
}

// Moves this thread's keys from layout `from` to layout `to` through the block's tile in shared
// memory: every thread stores its keys where `from` puts them and loads the ones `to` gives it.
__device__ void exchange(int (&key)[kKeysPerThread], int *tile, unsigned from, unsigned to) {
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
// c + kRegisterBits <= top_bit. With 16 keys per thread the merge of 64 keys (top_bit 5) has
// lane bits 1 and 0 (strides 32 and 16), the merge of 32 keys lane bit 0 only.
__device__ void compare_lanes(int (&key)[kKeysPerThread], unsigned top_bit, unsigned lanes) {
#pragma unroll
  for (int c = 4; c >= 0; --c) {
    if (static_cast<unsigned>(c) + kRegisterBits <= top_bit && (1u << c) < lanes) {
      const unsigned lane_stride = 1u << c;
      const bool lower = (threadIdx.x & lane_stride) == 0;
#pragma unroll
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        // The shuffle waits until every lane of the mask has arrived, reads all their values,
        // then hands them out: no lane can see a half-done exchange.
        const int other = __shfl_xor_sync(lane_mask(lanes), key[k], lane_stride);
        key[k] = lower ? min(key[k], other) : max(key[k], other);
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
__device__ void merge_in_block(int (&key)[kKeysPerThread], int *tile, unsigned top_bit,
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
__device__ void sort_thread_keys(int (&key)[kKeysPerThread], unsigned first, unsigned tile_size,
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
    block_sort(int *keys, unsigned tile_size, unsigned segment, bool ascending) {
  // The block's tile in shared memory, for the exchanges between layouts.
  __shared__ int tile[padded(kTileSize)];
  const unsigned tile_start = blockIdx.x * tile_size;
  const unsigned first = tile_start + threadIdx.x * kKeysPerThread;
  const unsigned lanes = warp_lanes(blockDim.x);
  int key[kKeysPerThread];
  load_thread_major(key, keys + tile_start, tile_size);
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
  store_through_tile(keys + tile_start, key, tile, tile_size);
}

// The strides of the merge of `size` that stay inside a tile: tile size / 2 down to 1. Only runs
// above the tile (n > kTileSize), so the tile is always kTileSize keys.
__global__ void __launch_bounds__(kBlockThreads)
    block_merge(int *keys, unsigned size, unsigned segment, bool ascending) {
  __shared__ int tile[padded(kTileSize)];
  const unsigned tile_start = blockIdx.x * kTileSize;
  // size > kTileSize, so every key of the tile has the same bit `size`: one direction.
  const bool flip = !sorts_ascending(index_in_array(tile_start, segment), size, ascending);
  // Load straight into the layout of the merge's round (the tile's top kRegisterBits bits in
  // registers): each load of a warp is 128 consecutive bytes.
  const unsigned top_low = round_layout(kTileBits - 1);
  int key[kKeysPerThread];
#pragma unroll
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    key[k] = keys[tile_start + layout_slot(threadIdx.x, k, top_low)];
  }
  flip_keys(key, flip);
  merge_in_block(key, tile, kTileBits - 1, top_low, kWarpSize);
  flip_keys(key, flip);
  store_thread_major(keys + tile_start, key, kTileSize);
}

}  // namespace

void bitonic_sort_segments(int *keys, unsigned n, unsigned segment, bool ascending) {
  // A single key is sorted already.
  if (n < 2) {
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
        block_sort<<<tiles, tile_threads>>>(keys, tile_size, segment, ascending);
        CHECK_LAUNCH();
        break;
      case Kernel::multistep:
        // Strides of a tile or more pair keys of different tiles: up to kStepsPerPass of them
        // per launch, each launch a barrier between its steps and the next ones.
        launch_multistep(keys, n, launch.size, launch.stride, launch.steps, segment, ascending);
        break;
      case Kernel::block_merge:
        // The strides below the tile: one launch for all of them.
        block_merge<<<tiles, kBlockThreads>>>(keys, launch.size, segment, ascending);
        CHECK_LAUNCH();
        break;
    }
  });
}

void bitonic_sort(int *keys, unsigned n, bool ascending) {
  // The whole input is one array.
  bitonic_sort_segments(keys, n, n, ascending);
}
