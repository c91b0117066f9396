// block_player.h: block_sort and block_merge of the stages with several keys per thread in
// registers (v7_register_tile on), played on the host with the stage's own index helpers
// (layout_slot, round_layout) and in the kernels' order of steps, recording the pairs each step
// compares. tests/stages/index_layout_test.cpp and tests/stages/index_segments_test.cpp compare
// them with the reference network.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "bitonic_index.h"
#include "reference_network.h"

inline bool same_comparators(std::vector<Comparator> a, std::vector<Comparator> b) {
  const auto by_lower = [](const Comparator &x, const Comparator &y) { return x.lower < y.lower; };
  std::sort(a.begin(), a.end(), by_lower);
  std::sort(b.begin(), b.end(), by_lower);
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].lower != b[i].lower || a[i].upper != b[i].upper || a[i].ascending != b[i].ascending) {
      return false;
    }
  }
  return true;
}

// One block of `threads` threads on the tile that starts at tile_start, played step by step.
// Each step the kernels run appends the pairs it compares (in whole-array indices) and the
// direction each pair gets: ascending unless the thread flipped its keys.
class BlockPlayer {
 public:
  BlockPlayer(unsigned tile_start, unsigned tile_size)
      : tile_start_(tile_start),
        tile_size_(tile_size),
        threads_(std::max(1u, tile_size / kKeysPerThread)),
        flip_(threads_, false) {}

  std::vector<std::vector<Comparator>> steps;

  // sort_thread_keys: sizes 2 .. 16 (at most `last_size`) inside each thread, each pair in the
  // direction ascending_at(lower element, size) gives it.
  template <typename Direction>
  void sort_thread_keys(unsigned last_size, Direction ascending_at) {
    for (unsigned size = 2; size <= kKeysPerThread && size <= last_size; size *= 2) {
      for (unsigned stride = size / 2; stride > 0; stride /= 2) {
        std::vector<Comparator> step;
        for (unsigned thread = 0; thread < threads_; ++thread) {
          for (unsigned k = 0; k < kKeysPerThread && k < tile_size_; ++k) {
            if ((k & stride) == 0) {
              const unsigned lower = tile_start_ + layout_slot(thread, k, 0);
              step.push_back({lower, lower + stride, ascending_at(lower, size)});
            }
          }
        }
        steps.push_back(step);
      }
    }
  }

  void set_flip(unsigned thread, bool flip) {
    flip_[thread] = flip;
  }
  unsigned threads() const {
    return threads_;
  }

  // merge_in_block, as the kernel runs it.
  void merge(unsigned top_bit) {
    const unsigned lanes = warp_lanes(threads_);
    const unsigned low = round_layout(top_bit);
    if (low != 0) {
      registers(kRegisterBits - 1, low);
      top_bit = low - 1;
    }
    for (int c = 4; c >= 0; --c) {
      if (static_cast<unsigned>(c) + kRegisterBits <= top_bit && (1u << c) < lanes) {
        lanes_step(1u << c);
      }
    }
    registers(top_bit < kRegisterBits ? top_bit : kRegisterBits - 1, 0);
  }

 private:
  // compare_registers in layout `low`: register bits top_bit down to 0.
  void registers(unsigned top_bit, unsigned low) {
    for (int bit = kRegisterBits - 1; bit >= 0; --bit) {
      if (bit > static_cast<int>(top_bit)) {
        continue;
      }
      std::vector<Comparator> step;
      for (unsigned thread = 0; thread < threads_; ++thread) {
        for (unsigned k = 0; k < kKeysPerThread; ++k) {
          if ((k & (1u << bit)) == 0) {
            step.push_back({tile_start_ + layout_slot(thread, k, low),
                            tile_start_ + layout_slot(thread, k + (1u << bit), low),
                            !flip_[thread]});
          }
        }
      }
      steps.push_back(step);
    }
  }

  // compare_lanes for one lane bit: the lower lane keeps the smaller (flipped) key.
  void lanes_step(unsigned lane_stride) {
    std::vector<Comparator> step;
    for (unsigned thread = 0; thread < threads_; ++thread) {
      if ((thread & lane_stride) == 0) {
        REQUIRE(flip_[thread] == flip_[thread ^ lane_stride]);
        for (unsigned k = 0; k < kKeysPerThread; ++k) {
          step.push_back({tile_start_ + layout_slot(thread, k, 0),
                          tile_start_ + layout_slot(thread ^ lane_stride, k, 0), !flip_[thread]});
        }
      }
    }
    steps.push_back(step);
  }

  unsigned tile_start_;
  unsigned tile_size_;
  unsigned threads_;
  std::vector<bool> flip_;
};

// The reference network's comparators of one step, kept to the keys of one tile.
inline std::vector<Comparator> reference_step(unsigned n, unsigned size, unsigned stride,
                                              bool ascending, unsigned tile_start,
                                              unsigned tile_size) {
  std::vector<Comparator> kept;
  for (const Comparator &c : network_step_comparators(n, size, stride, ascending)) {
    if (c.lower >= tile_start && c.upper < tile_start + tile_size) {
      kept.push_back(c);
    }
  }
  return kept;
}
