// bitonic_index.h: the index arithmetic of this stage's kernels.
//
// The functions are __host__ __device__: the kernels call them on the GPU, and the cpu test
// suite calls the very same functions on the host and checks them against the reference
// network (tools/reference_network.h), step by step.
#pragma once

#include "host_device.h"

// The lower element of compare pair `thread` in a step of stride `stride` (a power of two);
// the upper element is lower + stride. With one thread per pair, the n / 2 threads are spread
// over the n / 2 lower elements: the indices whose bit `stride` is 0. They come in runs of
// `stride` consecutive elements, one run every 2 * stride:
//
//   stride 4      element  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15
//                 role     L  L  L  L  U  U  U  U  L  L  L  L  U  U  U  U
//                 thread   0  1  2  3              4  5  6  7
//
// Thread t is number offset = t % stride in run t / stride, and that run starts at element
// 2 * stride * (t / stride) = 2 * (t - offset). In binary: the bits of t below `stride` stay,
// the bits above move up one place, and a 0 appears at bit `stride`.
//
//   t = 6, stride 4:  offset = 6 & 3 = 2,  run start = 2 * (6 - 2) = 8,  lower = 10
//                     pair (10, 14):  0b110 -> 0b1_0_10
//   t = 6, stride 1:  offset = 0,          run start = 12,               lower = 12, pair (12, 13)
//   t = 6, stride 8:  offset = 6,          run start = 0,                lower = 6,  pair (6, 14)
//
// docs/06_v4_half_threads.md shows that the forms other programs use are the same function:
// 2 * t - (t & (stride - 1)) in the CUDA samples, and t + ((t >> s) << s) with stride = 2^s.
__host__ __device__ inline unsigned get_lower_partner(unsigned thread, unsigned stride) {
  // t % stride, as stride is a power of two: the position within the run.
  const unsigned offset = thread & (stride - 1);
  // t - offset = (t / stride) * stride; runs start every 2 * stride elements.
  const unsigned run_start = 2 * (thread - offset);
  return run_start + offset;
}

// The first key of the group that thread `thread` owns in a pass of `steps` consecutive
// compare steps whose smallest stride is `lowest` (the largest is lowest * 2^(steps - 1)).
// Every step of the pass pairs keys whose indices differ in one of the `steps` bits from bit
// `lowest` up, so the 2^steps keys that differ from each other only in those bits form a group
// in which every key finds its partner, for all the steps. The groups' first keys are the
// indices with those bits 0: like get_lower_partner, which is this with one step, the bits of t
// below `lowest` stay, the bits above move up `steps` places, and `steps` zeros appear between.
//
//   steps 2, lowest 4 (strides 8 and 4): the firsts are the indices whose bits 4 and 8 are 0,
//   0 1 2 3 16 17 18 19 32 ..., one per thread in that order. Thread 5: offset = 5 & 3 = 1,
//   run start (5 - 1) << 2 = 16, first = 17, and its group is 17, 21, 25, 29.
__host__ __device__ inline unsigned get_first_key(unsigned thread, unsigned lowest,
                                                  unsigned steps) {
  // t % lowest: the position within a run of `lowest` consecutive firsts.
  const unsigned offset = thread & (lowest - 1);
  // The runs start every 2^steps * lowest keys.
  return ((thread - offset) << steps) + offset;
}

// Whether the pair whose lower element is i must end up with the smaller key first.
//
// The steps with a given `size` sort the array in blocks of `size` elements; block b covers
// indices [b * size, (b + 1) * size). "Bit `size` of i" means the bit worth `size` (size is a
// power of two), i & size: it is the lowest bit of b, so it is 0 for even blocks, which sort
// ascending, and 1 for odd blocks, which sort descending. Each even block and the odd block
// after it then form one bitonic sequence (up, then down) of 2 * size elements: exactly what the
// steps of the next size need. In the last steps size = n, the bit is 0 for every i < n, and the
// whole array comes out ascending.
//
// A descending sort flips every direction (ascending == false): the mirror image of the network.
__host__ __device__ inline bool sorts_ascending(unsigned i, unsigned size, bool ascending) {
  const bool even_block = (i & size) == 0;
  return even_block == ascending;
}

// The position of key i in its array, when the keys form arrays of `segment` consecutive keys
// (a power of two) that are sorted separately: i % segment. The kernels take every direction
// from it, so that each array gets the network of docs/01_network.md for `segment` keys: for a
// merge of size < segment, bit `size` of i % segment is bit `size` of i, as in one long array;
// in the last merge of an array, size == segment, the bit is 0 at every position, and every
// array comes out in the requested order. With one array (segment == n) it is i itself.
__host__ __device__ inline unsigned index_in_array(unsigned i, unsigned segment) {
  return i & (segment - 1);
}

// What the kernels sort when every key carries its position in its array (an argsort): one
// 64-bit item, the key's bits in the upper half and the position in the lower half. Items
// compare as unsigned numbers, so two items are in the order of their keys, and two items of
// equal keys in the order of their lower halves: one compare moves a key and its position
// together and breaks every tie the same way, so the argsort is stable and repeatable. The
// key's sign bit is flipped so that unsigned order is int order (INT_MIN -> 0, INT_MAX ->
// 2^32 - 1). A descending network puts larger lower halves first, so there the lower half holds
// ~position: equal keys then still come out in the order of their positions.
//
//   key -1, position 5, ascending:   0x7fffffff_00000005
//   key  0, position 2, ascending:   0x80000000_00000002   (-1 < 0: the smaller item)
//   key  0, position 2, descending:  0x80000000_fffffffd   (~2: position 2 before position 3)
using Item = unsigned long long;

__host__ __device__ inline Item make_item(int key, unsigned position, bool ascending) {
  const unsigned high = static_cast<unsigned>(key) ^ 0x80000000u;
  return (static_cast<Item>(high) << 32) | (ascending ? position : ~position);
}

// The key of an item: the flipped sign bit flipped back.
__host__ __device__ inline int item_key(Item item) {
  return static_cast<int>(static_cast<unsigned>(item >> 32) ^ 0x80000000u);
}

// The position of an item, as make_item stored it for that order.
__host__ __device__ inline int item_position(Item item, bool ascending) {
  const unsigned low = static_cast<unsigned>(item);
  return static_cast<int>(ascending ? low : ~low);
}

// q for n = 2^q.
inline unsigned exact_log2(unsigned n) {
  unsigned q = 0;
  while ((1u << q) < n) {
    ++q;
  }
  return q;
}

// The in-block kernels hold kKeysPerThread = 2^kRegisterBits keys per thread in registers and
// run the steps whose pairs lie among them there: kRegisterBits steps per trip through memory.
// Items take twice a key's registers: 8 a thread, not v8's 16, and a tile of 2048. 16 need
// 89 registers a thread, and lose on the shortest arrays more than they win on longer ones
// (docs/11_v9_argsort.md measures both).
constexpr unsigned kRegisterBits = 3;
constexpr unsigned kKeysPerThread = 1u << kRegisterBits;

// Keys one block of the in-block kernels owns, its tile: 256 threads of 8 keys. Every compare
// step whose stride is below the tile pairs two keys of the same tile, so one block can run it
// alone; arrays of up to a tile are sorted by one block in one launch.
constexpr unsigned kTileSize = 2048;
constexpr unsigned kTileBits = 11;
static_assert(kTileSize == 1u << kTileBits, "kTileBits is log2(kTileSize)");
constexpr unsigned kBlockThreads = kTileSize / kKeysPerThread;

// The threads of a warp, its lanes. __shfl_xor_sync lets them read each other's registers.
constexpr unsigned kWarpSize = 32;

// The lanes of each warp in a block of block_threads threads: 32, or the whole block when it is
// smaller than a warp (n < 32). Blocks are powers of two, so no other warp is partly filled.
__host__ __device__ inline unsigned warp_lanes(unsigned block_threads) {
  return block_threads < kWarpSize ? block_threads : kWarpSize;
}

// The mask a shuffle takes: bit k set for every lane k that executes it. A full warp: all 32
// bits. A block smaller than a warp has only lanes 0 .. lanes - 1, and a mask must not name a
// lane that does not exist.
__host__ __device__ inline unsigned lane_mask(unsigned lanes) {
  return lanes == kWarpSize ? 0xffffffffu : (1u << lanes) - 1;
}

// The tile position of register k of thread `thread` in the layout with its register bits at
// `low`: the thread's kKeysPerThread registers hold the keys whose tile indices differ only in
// bits low .. low + kRegisterBits - 1, so the steps of those strides pair two registers of one
// thread. The bits of the thread index fill the other bits: those below
// `low` stay, those above move up past the register bits.
//
//   low = 0, thread-major: thread t holds keys 8 t .. 8 t + 7, register k key 8 t + k. The
//     lanes of a warp then sit at bits 3 .. 7: strides 8 .. 128 pair two lanes (a shuffle).
//   low >= 5, lane-major: the 32 lanes of a warp hold 32 consecutive keys in each register, so
//     a warp's load or store of one register is 128 consecutive bytes.
//
//   low = 8, thread 37, register 3: the bits of 37 below bit 8 stay (37), register 3 goes to
//     bits 8 .. 10 (3 << 8 = 768), and nothing of the thread is left above: slot 805.
__host__ __device__ inline unsigned layout_slot(unsigned thread, unsigned k, unsigned low) {
  const unsigned below = thread & ((1u << low) - 1);
  const unsigned above = thread >> low;
  return below | (k << low) | (above << (low + kRegisterBits));
}

// The lane-major layout of the one round a merge makes through shared memory, for a merge whose
// largest stride is 2^top_bit: its registers hold tile bits top_bit - (kRegisterBits - 1) ..
// top_bit, the kRegisterBits largest strides. Strides below 2^(kRegisterBits + 5) pair keys of one
// warp in the thread-major layout (two lanes, or two registers of one lane), so a merge without
// larger strides needs no round: 0. With kTileBits <= 2 * kRegisterBits + 5, the strides left after
// the round are all such strides, so one round is all a merge ever needs.
__host__ __device__ inline unsigned round_layout(unsigned top_bit) {
  return top_bit >= kRegisterBits + 5 ? top_bit - (kRegisterBits - 1) : 0;
}

// The slot of shared memory that holds tile position `slot`: one item of padding after every 32,
// v8's padding, laid out for its 4-byte keys. An item is 8 bytes, so in the thread-major layout
// the lanes of a warp are 16 words apart and every access is an 8-byte one (LDS.64, STS.64):
// Nsight Compute counts bank conflicts in block_sort's loads and stores that v8's do not make
// (the lab note docs/notes/banks.md). A padding laid out for items is not measured.
__host__ __device__ constexpr unsigned padded(unsigned slot) {
  return slot + slot / 32;
}

// The most compare steps one multistep pass runs. Each thread then holds 2^6 = 64 keys in
// registers; docs/08_v6_multistep.md measures 3 to 6 and explains the choice.
constexpr unsigned kStepsPerPass = 6;

// The steps of the next multistep pass of a merge whose strides of a tile or more start at
// `stride` (strides stride, stride / 2, ..., tile_size remain): all of them, up to
// kStepsPerPass.
inline unsigned steps_in_pass(unsigned stride, unsigned tile_size) {
  const unsigned remaining = exact_log2(stride / tile_size) + 1;
  return remaining < kStepsPerPass ? remaining : kStepsPerPass;
}

// The kernels bitonic_sort launches.
enum class Kernel { block_sort, multistep, block_merge };

// A kernel's name, as --trace-launches prints it.
inline const char *kernel_name(Kernel kernel) {
  switch (kernel) {
    case Kernel::block_sort:
      return "block_sort";
    case Kernel::multistep:
      return "multistep";
    case Kernel::block_merge:
      return "block_merge";
  }
  return "unknown";
}

// One kernel launch of bitonic_sort: which kernel, and which compare steps of the network it
// runs: `steps` consecutive steps in the network's order (sizes 2, 4, ..., n; in each size the
// strides size / 2, ..., 1), the first of them at merge size `size` and stride `stride`.
struct Launch {
  Kernel kernel;
  unsigned size;
  unsigned stride;
  unsigned steps;
};

// The launches bitonic_sort makes for n keys (a power of two) in arrays of
// `segment` keys, in order, each handed to
// launch(...): bitonic_sort makes it a kernel launch, and the program's --trace-launches a
// printed line. The cpu tests check that the launches run every step of the network once, in
// order, and that there are launches_per_sort(n) of them. The network of each array stops at the
// array's length.
template <typename LaunchFunction>
void for_each_launch(unsigned n, unsigned segment, LaunchFunction launch) {
  if (n < 2) {
    return;
  }
  const unsigned tile_size = n < kTileSize ? n : kTileSize;
  const unsigned t = exact_log2(tile_size);
  // Every size up to the tile, or up to the arrays' length, in one block_sort: all s(s + 1) / 2
  // steps of those 2^s keys.
  const unsigned s = exact_log2(segment < tile_size ? segment : tile_size);
  launch(Launch{Kernel::block_sort, 2, 1, s * (s + 1) / 2});
  for (unsigned size = 2 * tile_size; size <= segment; size *= 2) {
    // Strides of a tile or more pair keys of different tiles: up to kStepsPerPass of them per
    // multistep launch.
    unsigned stride = size / 2;
    while (stride >= tile_size) {
      const unsigned steps = steps_in_pass(stride, tile_size);
      launch(Launch{Kernel::multistep, size, stride, steps});
      stride >>= steps;
    }
    // The t strides below the tile, tile_size / 2 .. 1: one block_merge.
    launch(Launch{Kernel::block_merge, size, tile_size / 2, t});
  }
}

// The launches of a sort of the whole input, one array of n keys.
template <typename LaunchFunction>
void for_each_launch(unsigned n, LaunchFunction launch) {
  for_each_launch(n, n, launch);
}

// The kernel launches bitonic_sort_segments makes for n = 2^q keys in arrays of segment = 2^s
// keys, with tiles of 2^t = min(n, kTileSize) keys: one block_sort for every size up to the
// tile or the array; then for each larger size 2^k up to the array's length, its k - t strides
// of a tile or more in passes of up to kStepsPerPass steps, and one block_merge:
//   1 + sum over k = t+1 .. s of (ceil((k - t) / kStepsPerPass) + 1)
inline unsigned long long launches_per_segment_sort(unsigned n, unsigned segment) {
  if (n < 2) {
    return 0;
  }
  const unsigned long long s = exact_log2(segment);
  const unsigned long long t = exact_log2(n < kTileSize ? n : kTileSize);
  unsigned long long launches = 1;
  for (unsigned long long k = t + 1; k <= s; ++k) {
    launches += (k - t + kStepsPerPass - 1) / kStepsPerPass + 1;
  }
  return launches;
}

// The launches of a sort of the whole input, one array of n keys.
inline unsigned long long launches_per_sort(unsigned n) {
  return launches_per_segment_sort(n, n);
}
