// cpu suite, every stage (tests/stages/meson.build adds this file to each stage's index tests):
// the launches that for_each_launch hands to bitonic_sort, and that the program prints with
// --trace-launches, run the reference network's steps (common/reference.h), each once and in
// order, and there are launches_per_sort(n) of them, for every n from 2^0 to 2^30.
#include <doctest/doctest.h>

#include <cstring>
#include <utility>
#include <vector>

#include "bitonic_index.h"
#include "reference.h"

namespace {

// The (size, stride) of every compare step the launches for n keys run, in order: each launch
// runs `steps` consecutive steps of the network from its (size, stride).
std::vector<std::pair<std::uint32_t, std::uint32_t>> steps_of_launches(unsigned n,
                                                                       unsigned long long &count,
                                                                       bool &named) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> steps;
  count = 0;
  named = true;
  for_each_launch(n, [&](const Launch &launch) {
    ++count;
    named = named && std::strcmp(kernel_name(launch.kernel), "unknown") != 0;
    unsigned size = launch.size;
    unsigned stride = launch.stride;
    for (unsigned step = 0; step < launch.steps; ++step) {
      steps.emplace_back(size, stride);
      // The network's next step: half the stride, or the next size from its largest stride.
      if (stride > 1) {
        stride /= 2;
      } else {
        size *= 2;
        stride = size / 2;
      }
    }
  });
  return steps;
}

}  // namespace

TEST_CASE("the launches run every step of the network once, in order, for every n up to 2^30") {
  for (unsigned q = 0; q <= 30; ++q) {
    const unsigned n = 1u << q;
    INFO("n = 2^" << q);
    unsigned long long count = 0;
    bool named = false;
    const auto steps = steps_of_launches(n, count, named);
    CHECK(steps == network_steps(n));
    CHECK(count == launches_per_sort(n));
    CHECK(named);
  }
}
