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

// The unsigned number whose order is the order of a 32-bit key: of an int, or with `floats`,
// of a float (the key holds its bits) in IEEE 754 totalOrder. An int's sign bit is flipped, so
// that INT_MIN -> 0 and INT_MAX -> 2^32 - 1. A float's bits count up with its magnitude, and its
// sign bit says which way: a float without the sign bit gets it set, so that it comes after
// every negative one and larger magnitudes come later; a float with the sign bit has all 32
// bits flipped, so that it lands below 2^31 and larger magnitudes come first. NaNs take the
// ends, beyond the infinities, as totalOrder puts them:
//
//   float     bits         ordered         float     bits         ordered
//   -NaN      0xffc00000   0x003fffff      +0.0      0x00000000   0x80000000
//   -inf      0xff800000   0x007fffff      1.0       0x3f800000   0xbf800000
//   -1.0      0xbf800000   0x407fffff      +inf      0x7f800000   0xff800000
//   -0.0      0x80000000   0x7fffffff      +NaN      0x7fc00000   0xffc00000
__host__ __device__ inline unsigned ordered_bits(int key, bool floats) {
  const unsigned bits = static_cast<unsigned>(key);
  const bool negative_float = floats && (bits & 0x80000000u) != 0;
  return negative_float ? ~bits : bits ^ 0x80000000u;
}

// The key back from ordered_bits: below 2^31 only a negative float lands, all flipped.
__host__ __device__ inline int key_from_ordered(unsigned ordered, bool floats) {
  const bool negative_float = floats && (ordered & 0x80000000u) == 0;
  return static_cast<int>(negative_float ? ~ordered : ordered ^ 0x80000000u);
}

// What the kernels sort when every key carries its position in its array (an argsort): one
// 64-bit item, the key's ordered_bits in the upper half and the position in the lower half. Items
// compare as unsigned numbers, so two items are in the order of their keys, and two items of
// equal keys in the order of their lower halves: one compare moves a key and its position
// together and breaks every tie the same way, so the argsort is stable and repeatable. The
// upper half's unsigned order is the keys' order, of ints or of floats (ordered_bits).
// A descending network puts larger lower halves first, so there the lower half holds
// ~position: equal keys then still come out in the order of their positions.
//
//   key -1, position 5, ascending:   0x7fffffff_00000005
//   key  0, position 2, ascending:   0x80000000_00000002   (-1 < 0: the smaller item)
//   key  0, position 2, descending:  0x80000000_fffffffd   (~2: position 2 before position 3)
using Item = unsigned long long;

__host__ __device__ inline Item make_item(int key, unsigned position, bool ascending,
                                          bool floats = false) {
  const unsigned high = ordered_bits(key, floats);
  return (static_cast<Item>(high) << 32) | (ascending ? position : ~position);
}

// The key of an item, from its upper half.
__host__ __device__ inline int item_key(Item item, bool floats = false) {
  return key_from_ordered(static_cast<unsigned>(item >> 32), floats);
}

// The position of an item, as make_item stored it for that order.
__host__ __device__ inline int item_position(Item item, bool ascending) {
  const unsigned low = static_cast<unsigned>(item);
  return static_cast<int>(ascending ? low : ~low);
}

// What the kernels sort a key as: an Item, with its position, for an argsort or a top-k; its
// bare ordered_bits, one 32-bit word, for a sort of keys alone, which has no position to keep.
// The word holds the same order in half the bits.
template <typename Word>
__host__ __device__ inline Word make_word(int key, unsigned position, bool ascending, bool floats);

template <>
__host__ __device__ inline Item make_word<Item>(int key, unsigned position, bool ascending,
                                                bool floats) {
  return make_item(key, position, ascending, floats);
}

template <>
__host__ __device__ inline unsigned make_word<unsigned>(int key, unsigned /*position*/,
                                                        bool /*ascending*/, bool floats) {
  return ordered_bits(key, floats);
}

// The key of a bare word.
__host__ __device__ inline int item_key(unsigned word, bool floats = false) {
  return key_from_ordered(word, floats);
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
// 16 keys a thread, as in v8: a tile holds 4096 keys, and block_sort runs the merge of 2^12
// that v14 left to the pass after it (docs/17_v15_tile4096.md). Items take 16 too: twice a key's
// registers, which v9 measured slower than 8 on the shortest arrays (docs/11_v9_argsort.md).
constexpr unsigned kRegisterBits = 4;
constexpr unsigned kKeysPerThread = 1u << kRegisterBits;

// Keys one block of the in-block kernels owns, its tile: 256 threads of 16 keys. Every compare
// step whose stride is below the tile pairs two keys of the same tile, so one block can run it
// alone; arrays of up to a tile are sorted by one block in one launch.
constexpr unsigned kTileSize = 4096;
constexpr unsigned kTileBits = 12;
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
//   low = 0, thread-major: thread t holds keys 16 t .. 16 t + 15, register k key 16 t + k. The
//     lanes of a warp then sit at bits 4 .. 8: strides 16 .. 256 pair two lanes (a shuffle).
//   low >= 5, lane-major: the 32 lanes of a warp hold 32 consecutive keys in each register, so
//     a warp's load or store of one register is 128 consecutive bytes.
//
//   low = 8, thread 37, register 3: the bits of 37 below bit 8 stay (37), register 3 goes to
//     bits 8 .. 11 (3 << 8 = 768), and nothing of the thread is left above: slot 805.
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

// The network's mirrored form (docs/20_v18_mirrored.md) opens each merge of `size` keys by
// pairing key i with its mirror image in its run, i ^ (size - 1): every bit below size flipped.
// Where a layout puts the register bits just below size (a merge's round, layout `low`), those
// bits are the register's and the thread's `low` lowest bits: the mirror of register k of thread
// t is register kKeysPerThread - 1 - k of thread t ^ mirror_mask(low). Thread-major, in a merge
// of 32 .. 512 keys, the same holds with the thread's log2(size) - kRegisterBits lowest bits, its
// lane bits below size. Merge of 1024 keys, round at low = 6: thread 5's register 3 is slot
// 5 + 3 * 64 = 197, its mirror 197 ^ 1023 = 826 is register 12 of thread 5 ^ 63 = 58.
__host__ __device__ inline unsigned mirror_mask(unsigned low) {
  return (1u << low) - 1;
}

// The word of shared memory that holds tile position `slot`: one word of padding after every 32.
// In the thread-major layout the lanes of a warp are 16 words apart. Unpadded, the compiler
// merges each 4 neighbouring registers of a thread into one 16-byte access, which a warp makes
// in four quarters of 8 lanes; the 8 lanes of a quarter fall on 8 banks, 4 words each, so the
// access takes 16 passes (wavefronts) where 4 would do (docs/09_v7_register_tile.md measures it).
// Padded, each run of 32 words starts one bank further on: the accesses stay 4-byte ones, and
// the 32 lanes of each land in 32 different banks. Lane-major layouts are conflict-free either way.
__host__ __device__ constexpr unsigned padded(unsigned slot) {
  return slot + slot / 32;
}

// The tile position of the first of the four neighbouring keys that thread `thread` writes with
// its store v (0 .. kKeysPerThread / 4 - 1) of 16 bytes, where a tile of keys alone leaves four
// keys to a store: lane l of a warp writes keys 4 l .. 4 l + 3 of the v-th run of 128 in its
// warp's 512, so the 32 lanes of one store write 512 consecutive bytes. A warp's position bits:
// 2 .. 6 the lane's, 7 .. 8 the store's, 9 and up the warp's.
//   Thread 35 (lane 3 of warp 1), store 2: 512 + 2 * 128 + 4 * 3 = 780; it writes keys 780 .. 783.
__host__ __device__ inline unsigned four_store_slot(unsigned thread, unsigned v) {
  const unsigned warp_start = thread / kWarpSize * kWarpSize * kKeysPerThread;
  return warp_start + v * 4 * kWarpSize + 4 * (thread % kWarpSize);
}

// The word of shared memory that holds the first key of store v, from the thread's base
// padded(four_store_slot(thread, 0)): the store's 128 v keys further on are 132 v words further
// on (padded, a sum of bits that do not overlap), and its four keys are the next four words, as
// four_store_slot keeps them inside one run of 32. Thread 35, store 2: base padded(524) = 540,
// plus padded(256) = 264, word 804 = padded(780).
__host__ __device__ inline unsigned four_store_word(unsigned base, unsigned v) {
  return base + padded(v * 4 * kWarpSize);
}

// A merge whose lane steps on tile bits kRegisterBits .. kRegisterBits + 3 (strides 16 .. 128)
// number kWarpRoundSteps or more runs them on registers, after a round of each warp through its
// own part of the tile (merge_in_block): merges of 256, 512, 2048 and 4096 keys, which have three
// or four such steps. Those of 128 and 1024 keys have two: leaving their rounds out won on
// arrays of 1024 and 4096 keys and lost a little on arrays of 128 (the lab note short_arrays
// timed both choices, no merge alone).
constexpr unsigned kWarpRoundSteps = 3;

// Whether a merge takes a warp's round (merge_in_block): `top_bit`, the bit of its largest stride
// once its round across warps is done, leaves kWarpRoundSteps or more steps on tile bits
// kRegisterBits .. top_bit, and its warps are whole (lanes == kWarpSize, a tile of 512 keys or
// more). Merge of 256 keys: top_bit 6 after its first step, steps on bits 4, 5 and 6, a round.
__host__ __device__ inline bool takes_warp_round(unsigned top_bit, unsigned lanes) {
  return lanes == kWarpSize && top_bit + 1 >= kRegisterBits + kWarpRoundSteps;
}

// Whether sorting runs of `run` keys (a tile, or arrays shorter than one) takes a warp's round in
// any merge, sizes 2^(kRegisterBits + 1) .. run, each as merge_in_block opens it: with its round
// across warps (round_layout, the bits above it left) or its first step across lanes (one bit
// left). Runs of 256 keys or more, in blocks of whole warps; not 8 .. 128, whose merges have two
// such steps at most.
__host__ __device__ inline bool sort_takes_warp_round(unsigned run, unsigned lanes) {
  for (unsigned size_bit = kRegisterBits + 1; (1u << size_bit) <= run; ++size_bit) {
    const unsigned low = round_layout(size_bit - 1);
    if (takes_warp_round(low != 0 ? low - 1 : size_bit - 2, lanes)) {
      return true;
    }
  }
  return false;
}

// Tile position `slot` with its bits 4 and 8 swapped: 289 = 1 | 2 << 4 | 1 << 8 becomes
// 1 | 1 << 4 | 1 << 5 = 49. If the two bits differ, both flip; if they agree, nothing changes.
__host__ __device__ inline unsigned swap_bits_4_and_8(unsigned slot) {
  const unsigned differ = ((slot >> 4) ^ (slot >> 8)) & 1u;
  return slot ^ (differ << 4 | differ << 8);
}

// The word of the tile that holds register k of thread `thread` during a warp's round, in the
// thread-major layout (layout 0) or the one with the registers on tile bits 4 .. 7 (layout
// kRegisterBits): padded() of its tile position with bits 4 and 8 swapped. Both layouts keep the
// keys of a warp in its own 512 positions (lane bit 4 stays on tile bit 8), so any order of the
// warp's words serves the round, and this one is free of bank conflicts in both. With padded()
// alone, layout kRegisterBits puts lane bit 4 on tile bit 8, 264 words on, bank 8: lanes 8 .. 15
// would share their banks with lanes 16 .. 23, two ways. Swapped, the lanes' five bits sit on
// tile bits 0 .. 4, 32 neighbouring words. In layout 0 the lanes' bits 0 .. 4 land on tile bits
// 8, 5, 6, 7 and 4, whose padded() are 264, 33, 66, 132 and 16 words: banks 8, 1, 2, 4 and 16,
// whose 32 subset sums reach each bank once. As in round_slot, the thread's part and the register's
// share no bit, so the word is the thread's base plus a constant for register k.
//   Layout 4, thread 17, register 2: tile position 1 | 2 << 4 | 1 << 8 = 289; swapped, 49 (lane
// 17 + 32: register 2's run of 32 neighbouring words), the word padded(49) = 50.
__host__ __device__ inline unsigned warp_round_slot(unsigned thread, unsigned k, unsigned layout) {
  return padded(swap_bits_4_and_8(layout_slot(thread, 0, layout))) +
      padded(swap_bits_4_and_8(k << layout));
}

// A group: the kGroupSize = 2^14 keys that one block of group_steps holds, 32 in each thread's
// registers (kGroupRegisterBits) and all of them, once per round, in 64 KB of shared memory (the
// most a block may have on every GPU the course supports, sm_75 included). Which keys form a
// group is the pass's choice: any 14 bits of the index. The steps on those bits pair keys of one
// group, so a pass runs them all; bits 0 .. 4 are always among them, so that the 32 lanes of a
// warp read 32 neighbouring keys, 128 bytes. A pass of global strides takes the other 9 bits
// from the strides it runs (kStepsPerPass); the last pass of a merge takes the bits of the
// strides it has left, 0 .. a, and above them the next merge's largest strides (group_key).
constexpr unsigned kGroupBits = 14;
constexpr unsigned kGroupSize = 1u << kGroupBits;
constexpr unsigned kGroupRegisterBits = 5;
constexpr unsigned kGroupKeys = 1u << kGroupRegisterBits;
constexpr unsigned kGroupThreads = kGroupSize / kGroupKeys;
constexpr unsigned kStepsPerPass = kGroupBits - 5;

// The fewest strides a pass of global strides leaves to the last pass of its merge, which then
// starts at stride 2^7 or above: its first round's registers (slot bits 5 .. 9) hold at most two
// bits of the next merge's (below 2^7, the compiler spills: docs/16_v14_span.md).
constexpr unsigned kFewestTailSteps = 8;

// The steps of the next pass of global strides of a merge whose strides left start at `stride`
// (2^14 or more): kStepsPerPass, or fewer, so as to leave kFewestTailSteps.
inline unsigned steps_in_pass(unsigned stride) {
  const unsigned most = exact_log2(stride) + 1 - kFewestTailSteps;
  return most < kStepsPerPass ? most : kStepsPerPass;
}

// The index of the key at `slot` (0 .. 2^14 - 1) of group `group` in a pass whose largest stride
// is 2^top_bit, top_bit >= 13: slot bits 0 .. low_bits - 1 are those index bits (0 .. 4 for
// global strides, a merge's strides left for its last pass), slot bits low_bits .. 13 are the
// index bits up to top_bit, and the group number fills the other bits, low ones first.
//
//   top_bit 13: index bits 0 .. 13, the group is 2^14 neighbouring keys: group * 2^14 + slot.
//   top_bit 20 (strides 2^20 .. 2^12): slot 37 = 0b1_00101 of group 3 is bits 0 .. 4 = 5, bit 12
//   (slot bit 5) = 4096, and 3 in bits 5 and 6 (below bit 12) = 96: key 4197.
__host__ __device__ inline unsigned group_key(unsigned group, unsigned slot, unsigned top_bit,
                                              unsigned low_bits = 5) {
  const unsigned low_bit = top_bit - (kGroupBits - 1 - low_bits);
  const unsigned between = low_bit - low_bits;
  const unsigned group_low = group & ((1u << between) - 1);
  return (slot & ((1u << low_bits) - 1)) | (group_low << low_bits) |
      ((slot >> low_bits) << low_bit) | ((group >> between) << (top_bit + 1));
}

// layout_slot for a group: the group slot of register k of thread `thread` when the registers
// hold slot bits low .. low + 4.
__host__ __device__ inline unsigned group_slot(unsigned thread, unsigned k, unsigned low) {
  const unsigned below = thread & ((1u << low) - 1);
  return below | (k << low) | ((thread >> low) << (low + kGroupRegisterBits));
}

// The lowest slot bit of a round's registers, which hold slot bits low .. low + 4, when the steps
// left run from slot bit `bit` down to `last_bit`: the five highest, but not below last_bit
// (nor above 9, the highest layout), so that steps that stop at bit 5 or above keep the lanes on
// bits 0 .. 4 and a warp stores 128 bytes.
__host__ __device__ constexpr unsigned round_low(unsigned bit, unsigned last_bit) {
  const unsigned highest_five = bit >= 4 ? bit - 4 : 0;
  const unsigned floor = last_bit < 9 ? last_bit : 9;
  return highest_five > floor ? highest_five : floor;
}

// The word of shared memory that holds group slot `slot`: slot bits 5 .. 9 XORed into bits
// 0 .. 4, a swizzle in place of padding (which 64 KB leaves no room for). In every layout a round
// uses, the 32 lanes of a warp hold slots that differ in 5 bits spread over bits 0 .. 9, and the
// XOR sends them to 32 different banks (index_groups_test checks each layout).
__host__ __device__ inline unsigned group_word(unsigned slot) {
  return slot ^ ((slot >> 5) & 31);
}

// The kernels bitonic_sort launches.
enum class Kernel { block_sort, group_steps, block_top, register_top };

// A kernel's name, as --trace-launches prints it.
inline const char *kernel_name(Kernel kernel) {
  switch (kernel) {
    case Kernel::block_sort:
      return "block_sort";
    case Kernel::group_steps:
      return "group_steps";
    case Kernel::block_top:
      return "block_top";
    case Kernel::register_top:
      return "register_top";
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

// The launches of the merge of n keys (a power of two) that form a bitonic sequence into one
// direction, alone: the sort across GPUs makes one after its exchanges, where no pass can run
// the next merge's strides (they pair keys of two GPUs). Above the tile: group_steps passes, the
// last one the merge's tail. A tile or less: one block_sort, which sorts the keys outright, as
// cheaply.
template <typename LaunchFunction>
void for_each_merge_launch(unsigned n, LaunchFunction launch) {
  if (n < 2) {
    return;
  }
  if (n <= kTileSize) {
    const unsigned t = exact_log2(n);
    launch(Launch{Kernel::block_sort, 2, 1, t * (t + 1) / 2});
    return;
  }
  // Strides of a group or more: up to kStepsPerPass of them per group_steps launch.
  unsigned stride = n / 2;
  while (stride >= kGroupSize) {
    const unsigned steps = steps_in_pass(stride);
    launch(Launch{Kernel::group_steps, n, stride, steps});
    stride >>= steps;
  }
  // The merge's tail, stride .. 1: one group_steps on neighbouring keys.
  launch(Launch{Kernel::group_steps, n, stride, exact_log2(stride) + 1});
}

// The launches bitonic_sort makes for n keys (a power of two) in arrays of
// `segment` keys, in order, each handed to
// launch(...): bitonic_sort makes it a kernel launch, and the program's --trace-launches a
// printed line. The cpu tests check that the launches run every step of the network once, in
// order, and that there are launches_per_sort(n) of them. The network of each array stops at the
// array's length.
//
// A pass runs the network's steps in order while their strides lie among its group's 14 bits,
// whichever merge they belong to: the one after block_sort, on neighbouring keys, runs every
// merge up to 2^14; the one that ends a merge of 2^k keys, strides 2^a .. 1 (its tail), runs in
// the group's other 13 - a bits the next merge's largest, 2^k .. 2^(k - 12 + a) (its head).
template <typename LaunchFunction>
void for_each_launch(unsigned n, unsigned segment, LaunchFunction launch) {
  if (n < 2) {
    return;
  }
  const unsigned tile_size = n < kTileSize ? n : kTileSize;
  // Every size up to the tile, or up to the arrays' length, in one block_sort: all s(s + 1) / 2
  // steps of those 2^s keys.
  const unsigned s = exact_log2(segment < tile_size ? segment : tile_size);
  launch(Launch{Kernel::block_sort, 2, 1, s * (s + 1) / 2});
  unsigned size = 2 * tile_size;
  if (size <= segment && size <= kGroupSize) {
    // Every merge up to a group or the arrays' length, log2(size) steps each, in one pass.
    unsigned steps = 0;
    for (; size <= segment && size <= kGroupSize; size *= 2) {
      steps += exact_log2(size);
    }
    launch(Launch{Kernel::group_steps, 2 * tile_size, tile_size, steps});
  }
  unsigned stride = size / 2;
  while (size <= segment) {
    if (stride >= kGroupSize) {
      // Strides of a group or more: up to kStepsPerPass of them per group_steps launch.
      const unsigned steps = steps_in_pass(stride);
      launch(Launch{Kernel::group_steps, size, stride, steps});
      stride >>= steps;
      continue;
    }
    // The merge's tail, stride .. 1, and the next merge's head, if there is a next merge.
    const unsigned tail = exact_log2(stride) + 1;
    const unsigned head = 2 * size <= segment ? kGroupBits - tail : 0;
    launch(Launch{Kernel::group_steps, size, stride, tail + head});
    size *= 2;
    stride = size >> (head + 1);
  }
}

// The launches of a sort of the whole input, one array of n keys.
template <typename LaunchFunction>
void for_each_launch(unsigned n, LaunchFunction launch) {
  for_each_launch(n, n, launch);
}

// The kernel launches bitonic_sort_segments makes for n = 2^q keys in arrays of segment = 2^s
// keys, with tiles of 2^t = min(n, kTileSize) keys: one block_sort for every size up to the
// tile or the array; one pass for the merges above it up to 2^14; then for each larger size 2^k,
// with h of its k strides run by the pass before, passes of up to kStepsPerPass global strides
// while more than 14 are left, leaving kFewestTailSteps or more, and one pass for the rest, its
// tail, which takes the next merge's largest 14 - (its steps) strides.
inline unsigned long long launches_per_segment_sort(unsigned n, unsigned segment) {
  if (n < 2) {
    return 0;
  }
  const unsigned long long s = exact_log2(segment);
  const unsigned long long t = exact_log2(n < kTileSize ? n : kTileSize);
  unsigned long long launches = s > t ? 2 : 1;
  unsigned long long head = 0;
  for (unsigned long long k = kGroupBits + 1; k <= s; ++k) {
    unsigned long long left = k - head;
    for (; left > kGroupBits; ++launches) {
      left -= left - kFewestTailSteps < kStepsPerPass ? left - kFewestTailSteps : kStepsPerPass;
    }
    launches += 1;
    head = k < s ? kGroupBits - left : 0;
  }
  return launches;
}

// The launches of a sort of the whole input, one array of n keys.
inline unsigned long long launches_per_sort(unsigned n) {
  return launches_per_segment_sort(n, n);
}

// The launches of for_each_merge_launch(n = 2^q): none for one key, one up to a group, and above
// it ceil((q - kGroupBits) / kStepsPerPass) passes of global strides and one on neighbouring keys.
inline unsigned long long launches_per_merge(unsigned n) {
  const unsigned long long passes = n <= kGroupSize ? 0 : exact_log2(n) - kGroupBits;
  return n < 2 ? 0 : (passes + kStepsPerPass - 1) / kStepsPerPass + 1;
}

// Sorting across GPUs (v25): GPU g of `gpus` holds keys g * n .. (g + 1) * n - 1 of the array.
// A stride below n pairs keys of one GPU; a stride of n * s pairs key i of GPU g with key i of
// GPU g ^ s, chapter 1's partner index one level up. Each GPU then needs all n keys of its
// partner, and keeps at every i the smaller or the larger of the two.
//
//   4 GPUs, n keys each                 rank 0    rank 1    rank 2    rank 3
//   local sorts (sizes 2 .. n)          up        down      up        down
//   size 2n: stride n   (s = 1)         0 <-> 1             2 <-> 3
//            merge (strides n/2 .. 1)   up        up        down      down
//   size 4n: stride 2n  (s = 2)         0 <-----------> 2,  1 <-----------> 3
//            stride n   (s = 1)         0 <-> 1             2 <-> 3
//            merge (strides n/2 .. 1)   up        up        up        up

// One exchange: the compare step of size span * n and stride rank_stride * n between GPUs.
struct Exchange {
  unsigned span;
  unsigned rank_stride;
};

// The exchanges of a sort across `gpus` GPUs in the network's order: for each merge of 2, 4, ...,
// gpus GPUs, its rank strides span / 2 .. 1. After rank stride 1 each GPU merges its own keys.
template <typename ExchangeFunction>
void for_each_exchange(unsigned gpus, ExchangeFunction exchange) {
  for (unsigned span = 2; span <= gpus; span *= 2) {
    for (unsigned rank_stride = span / 2; rank_stride > 0; rank_stride /= 2) {
      exchange(Exchange{span, rank_stride});
    }
  }
}

// The GPU that GPU g swaps keys with at rank stride s: g ^ s, which differs from g in bit s.
inline unsigned partner_rank(unsigned rank, unsigned rank_stride) {
  return rank ^ rank_stride;
}

// Whether GPU `rank`'s keys end up ascending in a merge of `span` GPUs (1: its own sort):
// sorts_ascending for its keys, whose bit span * n is bit `span` of the rank.
inline bool group_ascending(unsigned rank, unsigned span, bool ascending) {
  return ((rank & span) == 0) == ascending;
}

// Whether GPU `rank` keeps the smaller key at each index at rank stride s, in a merge of that
// direction: the lower GPU of the pair (bit s of its rank 0) does when the merge ascends.
inline bool keeps_smaller_half(unsigned rank, unsigned rank_stride, bool ascending) {
  return ((rank & rank_stride) == 0) == ascending;
}

// The launches of a sort of n keys on each of gpus = 2^L GPUs, all GPUs together: on each, its
// sort, a keep_half per exchange (merges of 2, 4, ... GPUs have 1, 2, ... rank strides: L (L + 1)
// / 2 in all) and L merges.
inline unsigned long long launches_per_gpus_sort(unsigned n, unsigned gpus) {
  const unsigned long long levels = exact_log2(gpus);
  return gpus * (launches_per_sort(n) + levels * (levels + 1) / 2 + levels * launches_per_merge(n));
}

// The most keys --top keeps of an array shorter than it: block_top holds two runs of `top` keys
// or more in one block's tile.
constexpr unsigned kMaxTop = kTileSize / 2;

// The rounds of the next block_top, when the runs that are left lie `stride` keys apart: each
// round halves the runs of a block, until one is left of each array or of the block's tile,
// which holds kTileSize / top runs.
inline unsigned rounds_in_block(unsigned segment, unsigned top, unsigned stride) {
  const unsigned runs_left = segment / stride;
  const unsigned runs_in_tile = kTileSize / top;
  return exact_log2(runs_left < runs_in_tile ? runs_left : runs_in_tile);
}

// The runs of `top` keys, `stride` keys apart, that one block of block_top takes: as many as its
// tile holds, or all n / stride of them when there are fewer.
inline unsigned runs_per_block(unsigned n, unsigned top, unsigned stride) {
  const unsigned runs_in_tile = kTileSize / top;
  return n / stride < runs_in_tile ? n / stride : runs_in_tile;
}

// register_top's mapping. The T = per_array threads of an array (a power of two, 1 .. 256) are
// neighbours in the block; thread j of them (register_top_thread) holds in its register k the
// array's key k * T + j (register_top_position), so that neighbouring lanes read neighbouring
// keys. T = 4, j = 1: keys 1, 5, 9, ..., 61. The array starts in the block's tile 16 keys after
// each thread before its first (register_top_start): thread 6 with T = 4 is j = 2 of the array
// of threads 4 .. 7, which starts at key 64.
__host__ __device__ inline unsigned register_top_thread(unsigned thread, unsigned per_array) {
  return thread & (per_array - 1);
}

__host__ __device__ inline unsigned register_top_position(unsigned thread, unsigned k,
                                                          unsigned per_array) {
  return k * per_array + register_top_thread(thread, per_array);
}

__host__ __device__ inline unsigned register_top_start(unsigned thread, unsigned per_array) {
  return (thread - register_top_thread(thread, per_array)) * kKeysPerThread;
}

// Whether a top-k of `top` keys of arrays of `segment` keys is one register_top launch: `top` fits
// one thread's kKeysPerThread registers and is less than the array (top == segment is a whole
// sort), and the array has 16 .. kTileSize keys, one thread's to one block's.
inline bool uses_register_top(unsigned segment, unsigned top) {
  return top <= kKeysPerThread && top < segment && segment >= kKeysPerThread &&
      segment <= kTileSize;
}

// The launches of a top-k. Where uses_register_top: one, Launch{register_top, top,
// kKeysPerThread, rounds}: each thread sorts a run of 16 keys, and the log2(segment / 16) rounds
// that follow halve the runs of each array to one. Otherwise, after the sort of every run of
// `top` keys (for_each_launch(n, top)): the block_top launches that leave the first `top` keys
// of each array of `segment` keys as its `top` smallest (largest, descending), in order. `top`
// is a power of two, at most kMaxTop or the whole array. Launch{block_top, top, stride, rounds}:
// the runs of `top` keys that are left lie `stride` keys apart; after the launch's rounds,
// 2^rounds times as far.
//
//   n = 8192, segment 1024, top 16: one register_top of 6 rounds (1024 / 16 = 64 runs of an
//   array, 2^6): 64, 32, ..., 2, 1 run.
//   n = 2^20, segment 2^20, top 16: after the sort of runs of 16 keys (for_each_launch's one
//   block_sort), two block_tops of 8 rounds each (a tile holds 4096 / 16 = 2^8 runs), taking
//   runs 16 and 4096 keys apart; then one run is left.
template <typename LaunchFunction>
void for_each_top_launch(unsigned n, unsigned segment, unsigned top, LaunchFunction launch) {
  if (n < 2) {
    return;
  }
  if (uses_register_top(segment, top)) {
    launch(Launch{Kernel::register_top, top, kKeysPerThread, exact_log2(segment / kKeysPerThread)});
    return;
  }
  for (unsigned stride = top; stride < segment;) {
    const unsigned rounds = rounds_in_block(segment, top, stride);
    launch(Launch{Kernel::block_top, top, stride, rounds});
    stride <<= rounds;
  }
}

// The launches of a top-k of n keys in arrays of `segment`: one register_top where
// uses_register_top; otherwise those of the sort of every run of `top` keys, then one block_top
// for every log2(kTileSize / top) halvings of the runs:
//   launches_per_segment_sort(n, top) + ceil(log2(segment / top) / log2(kTileSize / top))
inline unsigned long long launches_per_top(unsigned n, unsigned segment, unsigned top) {
  if (n < 2) {
    return 0;
  }
  if (uses_register_top(segment, top)) {
    return 1;
  }
  const unsigned long long halvings = exact_log2(segment / top);
  if (halvings == 0) {
    // top == segment: the whole sort.
    return launches_per_segment_sort(n, top);
  }
  const unsigned long long per_launch = exact_log2(kTileSize / top);
  return launches_per_segment_sort(n, top) + (halvings + per_launch - 1) / per_launch;
}
