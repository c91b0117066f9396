// cpu suite, stages with a register phase (v3_warp on): the lane mask, and the direction rule
// of the register exchange (keeps_smaller) against the reference network.
//
// In the register phase both positions of a pair see both keys and each keeps one. That is the
// reference comparator exactly when the lower position keeps the smaller key of an ascending
// pair and the larger key of a descending one, and the upper position the other key.
#include <doctest/doctest.h>

#include <algorithm>
#include <bitset>

#include "bitonic_index.h"
#include "keys.h"
#include "reference_network.h"

TEST_CASE("the mask names exactly the lanes that exist") {
  for (unsigned block_threads = 1; block_threads <= 1024; block_threads *= 2) {
    const unsigned lanes = warp_lanes(block_threads);
    CHECK(lanes == std::min(block_threads, 32u));
    const unsigned mask = lane_mask(lanes);
    CHECK(std::bitset<32>(mask).count() == lanes);
    // Lanes 0 .. lanes - 1, and no lane above.
    CHECK((mask & 1u) == 1u);
    CHECK((lanes == 32 || (mask >> lanes) == 0));
  }
  CHECK(lane_mask(32) == 0xffffffffu);
}

TEST_CASE("keeps_smaller matches every comparator of the steps below the warp size") {
  for (unsigned q = 1; q <= 12; ++q) {
    const unsigned n = 1u << q;
    for (const bool ascending : {true, false}) {
      for (const auto &[size, stride] : network_steps(n)) {
        if (stride >= kWarpSize) {
          continue;
        }
        INFO("n = " << n << ", size " << size << ", stride " << stride);
        for (const Comparator &c : network_step_comparators(n, size, stride, ascending)) {
          CHECK(keeps_smaller(c.lower, size, stride, ascending) == c.ascending);
          CHECK(keeps_smaller(c.upper, size, stride, ascending) == !c.ascending);
        }
      }
    }
  }
}

TEST_CASE("the exchange rule applied at every position does what the comparators do") {
  const unsigned n = 1024;
  for (const bool ascending : {true, false}) {
    for (const auto &[size, stride] : network_steps(n)) {
      if (stride >= kWarpSize) {
        continue;
      }
      const std::vector<int> keys = generate_keys(Distribution::kFewUnique, n, size + stride);
      // Every position i, at once, as the lanes of a warp do: keep min or max of its pair.
      std::vector<int> exchanged(n);
      for (unsigned i = 0; i < n; ++i) {
        const int mine = keys[i];
        const int other = keys[i ^ stride];
        exchanged[i] = keeps_smaller(i, size, stride, ascending) ? std::min(mine, other)
                                                                 : std::max(mine, other);
      }
      std::vector<int> compared(keys);
      for (const Comparator &c : network_step_comparators(n, size, stride, ascending)) {
        const bool out_of_order = c.ascending ? compared[c.lower] > compared[c.upper]
                                              : compared[c.lower] < compared[c.upper];
        if (out_of_order) {
          std::swap(compared[c.lower], compared[c.upper]);
        }
      }
      CHECK(exchanged == compared);
    }
  }
}
