// cpu suite, stages with one thread per element (v0_naive .. v3_warp): the kernels' pairing
// (partner_index) and direction (sorts_ascending) reproduce the reference network exactly.
//
// For every step of every size up to 2^12, the test plays the kernel's rule on the host: thread
// i computes partner_index(i, stride) and, when the partner lies above it, compares the pair in
// the direction sorts_ascending(i, size, ascending). The comparators it produces must be the
// reference network's, each exactly once, and no thread may reach outside the array.
#include <doctest/doctest.h>

#include <algorithm>

#include "bitonic_index.h"
#include "reference_network.h"

TEST_CASE("partner_index pairs every element with exactly one partner, symmetrically") {
  for (unsigned stride = 1; stride <= (1u << 20); stride *= 2) {
    for (unsigned i = 0; i < 4096; ++i) {
      const unsigned partner = partner_index(i, stride);
      CHECK(partner != i);
      CHECK(partner_index(partner, stride) == i);
      CHECK((partner > i) == ((i & stride) == 0));
    }
  }
}

TEST_CASE("the kernels' compare steps are the reference network's, for every size up to 2^12") {
  for (unsigned q = 0; q <= 12; ++q) {
    const unsigned n = 1u << q;
    for (const bool ascending : {true, false}) {
      for (const auto &[size, stride] : network_steps(n)) {
        std::vector<Comparator> produced;
        std::vector<int> touched(n, 0);
        for (unsigned i = 0; i < n; ++i) {
          const unsigned partner = partner_index(i, stride);
          REQUIRE(partner < n);
          if (partner > i) {
            produced.push_back({i, partner, sorts_ascending(i, size, ascending)});
            ++touched[i];
            ++touched[partner];
          }
        }
        const std::vector<Comparator> expected =
            network_step_comparators(n, size, stride, ascending);
        INFO("n = " << n << ", size " << size << ", stride " << stride);
        REQUIRE(produced.size() == expected.size());
        for (std::size_t k = 0; k < expected.size(); ++k) {
          CHECK(produced[k].lower == expected[k].lower);
          CHECK(produced[k].upper == expected[k].upper);
          CHECK(produced[k].ascending == expected[k].ascending);
        }
        CHECK(std::count(touched.begin(), touched.end(), 1) == static_cast<long>(n));
      }
    }
  }
}

TEST_CASE("the last merge sorts the whole array in the requested order") {
  for (unsigned n = 2; n <= (1u << 20); n *= 2) {
    for (unsigned i = 0; i < n; i += 1 + n / 64) {
      CHECK(sorts_ascending(i, n, true));
      CHECK_FALSE(sorts_ascending(i, n, false));
    }
  }
}
