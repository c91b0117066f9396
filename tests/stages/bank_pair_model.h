// bank_pair_model.h: the bank model (bank_model.h) applied to every shared-memory access of the
// in-block kernels of v4_half_threads and v5_bank_free: the tile's loads and stores
// (tile_slot), the compare steps of strides of a warp or more (get_lower_partner, + stride),
// and the register phase (warp_slot). The stage's bitonic_index.h is the one on the include
// path of the test that includes this.
#pragma once

#include <algorithm>

#include "bank_model.h"
#include "bitonic_index.h"

// The tile loads and stores of a block of block_threads threads: thread t moves tile element
// tile_slot(t, k, block_threads) in its k-th copy. The worst ways over every k.
inline unsigned worst_ways_of_tile_moves(unsigned block_threads) {
  unsigned worst = 0;
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    worst = std::max(worst, worst_ways(block_threads, [&](unsigned t) {
                       return tile_slot(t, k, block_threads);
                     }));
  }
  return worst;
}

// The worst ways of the compare steps (lower and upper element of every stride the shared
// phase runs) and of the register phase's loads and stores, for a block of block_threads.
inline unsigned worst_ways_of_compare_steps(unsigned block_threads) {
  const unsigned lanes = warp_lanes(block_threads);
  unsigned worst = 0;
  for (unsigned stride = lanes; stride < 2 * block_threads; stride *= 2) {
    worst = std::max(
        worst, worst_ways(block_threads, [&](unsigned t) { return get_lower_partner(t, stride); }));
    worst = std::max(worst, worst_ways(block_threads, [&](unsigned t) {
                       return get_lower_partner(t, stride) + stride;
                     }));
  }
  return worst;
}

inline unsigned worst_ways_of_register_phase(unsigned block_threads) {
  const unsigned lanes = warp_lanes(block_threads);
  unsigned worst = 0;
  for (unsigned k = 0; k < kKeysPerThread; ++k) {
    worst = std::max(worst,
                     worst_ways(block_threads, [&](unsigned t) { return warp_slot(t, k, lanes); }));
  }
  return worst;
}
