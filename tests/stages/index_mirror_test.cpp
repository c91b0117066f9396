// cpu suite, stages whose block_sort runs the network's mirrored form (v18_mirrored on).
//
// In the mirrored form each merge of `size` keys opens by pairing key i with its mirror image
// i ^ (size - 1), the other steps pair i with i ^ stride, and every compare puts the smaller key
// first (tools/reference_network.h, mirrored_step_comparators). mirror_mask says which thread
// holds the mirror images of a thread's keys. The test checks it against that definition in every
// layout a merge of 32 .. kTileSize keys uses, then plays v18's sort_tile on the host, with the
// stage's own helpers (layout_slot, round_layout, mirror_mask) and in the kernels' order of steps:
// each step must pair every key of the tile once, exactly as the mirrored network pairs them, and
// the keys must come out in the order the tile or array asks for: every tile from 2 keys to
// kTileSize, arrays shorter than a tile, both orders.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "bitonic_index.h"
#include "reference_network.h"

namespace {

using Pair = std::pair<unsigned, unsigned>;

// The mirrored network's pairs of one step on the tile's slots 0 .. tile_size - 1, from the
// reference (tools/reference_network.h): the merge's first step (mirror) or the step of
// `stride`. Every one is ascending there.
std::set<Pair> network_pairs(unsigned tile_size, unsigned size, unsigned stride, bool mirror) {
  std::set<Pair> pairs;
  for (const Comparator &c :
       mirrored_step_comparators(tile_size, size, mirror ? size / 2 : stride)) {
    REQUIRE(c.ascending);
    pairs.insert({c.lower, c.upper});
  }
  return pairs;
}

// v18's sort_tile on one tile of keys, played step by step: each step's pairs are gathered
// from the threads as the kernels form them, checked against the network, then compared.
class MirroredTile {
 public:
  MirroredTile(std::vector<unsigned> keys) : keys_(std::move(keys)) {}

  bool all_steps_right = true;
  unsigned steps = 0;

  // sort_tile: sort_thread_keys up to min(16, run), then merge_in_block for each larger size.
  void sort(unsigned run) {
    for (unsigned size = 2; size <= kKeysPerThread && size <= run; size *= 2) {
      thread_major_mirror(size);
      for (unsigned stride = size / 4; stride > 0; stride /= 2) {
        registers(stride, 0, false, size);
      }
    }
    for (unsigned size = 2 * kKeysPerThread; size <= run; size *= 2) {
      merge(exact_log2(size) - 1);
    }
  }

  const std::vector<unsigned> &keys() const {
    return keys_;
  }

 private:
  unsigned tile_size() const {
    return static_cast<unsigned>(keys_.size());
  }
  unsigned threads() const {
    return std::max(1u, tile_size() / kKeysPerThread);
  }

  // The slot register k of `thread` holds in layout `low`, in a mirrored round or not
  // (round_slot in the stage).
  static unsigned slot(unsigned thread, unsigned k, unsigned low, bool mirrored) {
    const bool upper = mirrored && k >= kKeysPerThread / 2;
    return layout_slot(upper ? thread ^ mirror_mask(low) : thread, k, low);
  }

  // One step: its pairs must be the network's, and each compare puts the smaller key first.
  void step(const std::vector<Pair> &pairs, unsigned size, unsigned stride, bool mirror) {
    const std::set<Pair> played(pairs.begin(), pairs.end());
    all_steps_right = all_steps_right && played.size() == pairs.size() &&
        played == network_pairs(tile_size(), size, stride, mirror);
    for (const Pair &p : pairs) {
      if (keys_[p.first] > keys_[p.second]) {
        std::swap(keys_[p.first], keys_[p.second]);
      }
    }
    ++steps;
  }

  // mirror_registers(key, size) in the thread-major layout (sort_thread_keys).
  void thread_major_mirror(unsigned size) {
    std::vector<Pair> pairs;
    for (unsigned thread = 0; thread < threads(); ++thread) {
      for (unsigned p = 0; p < kKeysPerThread / 2; ++p) {
        const unsigned lower = get_lower_partner(p, size / 2);
        const unsigned upper = lower ^ (size - 1);
        if (upper < tile_size()) {
          pairs.push_back({layout_slot(thread, lower, 0), layout_slot(thread, upper, 0)});
        }
      }
    }
    step(pairs, size, 0, true);
  }

  // compare_registers at register stride `stride` in layout `low`.
  void registers(unsigned stride, unsigned low, bool mirrored, unsigned size) {
    std::vector<Pair> pairs;
    for (unsigned thread = 0; thread < threads(); ++thread) {
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        if ((k & stride) == 0 && k + stride < tile_size()) {
          pairs.push_back(
              {slot(thread, k, low, mirrored), slot(thread, k + stride, low, mirrored)});
        }
      }
    }
    step(pairs, size, stride << low, false);
  }

  // merge_in_block(key, tile, top_bit, lanes), as the kernel runs it.
  void merge(unsigned top_bit) {
    const unsigned size = 2u << top_bit;
    const unsigned lanes = warp_lanes(threads());
    const unsigned low = round_layout(top_bit);
    std::vector<Pair> pairs;
    if (low != 0) {
      // The round: register k of a thread against its register 15 - k, the mirrored thread's.
      for (unsigned thread = 0; thread < threads(); ++thread) {
        for (unsigned k = 0; k < kKeysPerThread / 2; ++k) {
          pairs.push_back(
              {slot(thread, k, low, true), slot(thread, kKeysPerThread - 1 - k, low, true)});
        }
      }
      step(pairs, size, 0, true);
      for (unsigned stride = kKeysPerThread / 4; stride > 0; stride /= 2) {
        registers(stride, low, true, size);
      }
      top_bit = low - 1;
    } else {
      // mirror_lanes: the lower lane's register k against the mirrored lane's 15 - k.
      const unsigned mirror = mirror_mask(top_bit + 1 - kRegisterBits);
      for (unsigned thread = 0; thread < threads(); ++thread) {
        if ((thread & (1u << (top_bit - kRegisterBits))) == 0) {
          for (unsigned k = 0; k < kKeysPerThread; ++k) {
            pairs.push_back({layout_slot(thread, k, 0),
                             layout_slot(thread ^ mirror, kKeysPerThread - 1 - k, 0)});
          }
        }
      }
      step(pairs, size, 0, true);
      top_bit = top_bit - 1;
    }
    // compare_lanes, then compare_registers, thread-major.
    for (int c = 4; c >= 0; --c) {
      if (static_cast<unsigned>(c) + kRegisterBits <= top_bit && (1u << c) < lanes) {
        std::vector<Pair> lane_pairs;
        for (unsigned thread = 0; thread < threads(); ++thread) {
          if ((thread & (1u << c)) == 0) {
            for (unsigned k = 0; k < kKeysPerThread; ++k) {
              lane_pairs.push_back(
                  {layout_slot(thread, k, 0), layout_slot(thread ^ (1u << c), k, 0)});
            }
          }
        }
        step(lane_pairs, size, kKeysPerThread << c, false);
      }
    }
    const unsigned last = top_bit < kRegisterBits ? top_bit : kRegisterBits - 1;
    for (unsigned stride = 1u << last; stride > 0; stride /= 2) {
      registers(stride, 0, false, size);
    }
  }

  std::vector<unsigned> keys_;
};

}  // namespace

TEST_CASE(
    "mirror_mask: register k of a thread and register 15 - k of its mirror are mirror images") {
  // Every merge above a thread's keys, in the layout its first step runs in: its round's, or
  // thread-major for a merge without a round (32 .. 512 keys).
  for (unsigned size_bit = kRegisterBits + 1; size_bit <= kTileBits; ++size_bit) {
    const unsigned size = 1u << size_bit;
    const unsigned round = round_layout(size_bit - 1);
    const unsigned mirror_bits = round != 0 ? round : size_bit - kRegisterBits;
    bool all_right = true;
    for (unsigned thread = 0; thread < kBlockThreads; ++thread) {
      const unsigned mirror = thread ^ mirror_mask(mirror_bits);
      for (unsigned k = 0; k < kKeysPerThread; ++k) {
        all_right = all_right &&
            (layout_slot(thread, k, round) ^ (size - 1)) ==
                layout_slot(mirror, kKeysPerThread - 1 - k, round);
      }
    }
    INFO("merge of " << size << " keys");
    CHECK(all_right);
  }
  // The worked example of bitonic_index.h: the merge of 1024 keys, round at layout 6.
  if (kRegisterBits == 4 && round_layout(9) == 6) {
    CHECK(layout_slot(5, 3, 6) == 197);
    CHECK((197 ^ 1023) == layout_slot(5 ^ mirror_mask(6), 12, 6));
  }
}

TEST_CASE("sort_tile, played on the host, is the mirrored network and sorts every tile") {
  std::mt19937 random(2026);
  for (unsigned tile_size = 2; tile_size <= kTileSize; tile_size *= 2) {
    // Arrays of the whole tile, and arrays of a quarter of it (where there are 4 keys or more).
    for (const unsigned segment : {tile_size, tile_size / 4}) {
      if (segment < 2) {
        continue;
      }
      // Keys from a narrow range: duplicates.
      std::vector<unsigned> keys(tile_size);
      for (unsigned &key : keys) {
        key = random() % (tile_size / 2 + 1);
      }
      MirroredTile tile(keys);
      tile.sort(std::min(tile_size, segment));
      // log2(run) (log2(run) + 1) / 2 steps: the network's, with no step left out or added.
      const unsigned bits = exact_log2(std::min(tile_size, segment));
      INFO("tile of " << tile_size << ", arrays of " << segment);
      CHECK(tile.all_steps_right);
      CHECK(tile.steps == bits * (bits + 1) / 2);
      bool sorted = true;
      for (unsigned first = 0; first < tile_size; first += segment) {
        sorted = sorted &&
            std::is_sorted(tile.keys().begin() + first, tile.keys().begin() + first + segment);
      }
      CHECK(sorted);
      std::sort(keys.begin(), keys.end());
      std::vector<unsigned> out = tile.keys();
      std::sort(out.begin(), out.end());
      CHECK(out == keys);
    }
  }
}

TEST_CASE("sort_tile flips a tile once for the direction the network of chapter 1 gives it") {
  // A descending sort, or an odd tile of an array longer than the tile: the keys are flipped
  // (~key) before the mirrored sort and after it, so they come out in the other order.
  const unsigned tile_size = kTileSize;
  for (const bool ascending : {true, false}) {
    for (unsigned tile_start = 0; tile_start < 4 * tile_size; tile_start += tile_size) {
      const unsigned segment = 4 * tile_size;
      const bool flip = !sorts_ascending(index_in_array(tile_start, segment), tile_size, ascending);
      std::vector<unsigned> keys(tile_size);
      for (unsigned i = 0; i < tile_size; ++i) {
        keys[i] = (i * 2654435761u) >> 8;
      }
      for (unsigned &key : keys) {
        key = flip ? ~key : key;
      }
      MirroredTile tile(keys);
      tile.sort(tile_size);
      std::vector<unsigned> out = tile.keys();
      for (unsigned &key : out) {
        key = flip ? ~key : key;
      }
      const bool tile_ascending = (tile_start / tile_size) % 2 == 0 ? ascending : !ascending;
      INFO("tile at " << tile_start << (ascending ? ", ascending" : ", descending"));
      CHECK(tile_ascending == !flip);
      CHECK(tile_ascending ? std::is_sorted(out.begin(), out.end())
                           : std::is_sorted(out.rbegin(), out.rend()));
    }
  }
}
