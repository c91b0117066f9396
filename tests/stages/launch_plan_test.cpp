// cpu suite, every stage (tests/stages/meson.build adds this file to each stage's index tests):
// the launches that for_each_launch hands to bitonic_sort, and that the program prints with
// --trace-launches, run the reference network's steps (tools/reference_network.h), each once and in
// order, and there are launches_per_sort(n) of them, for every n from 2^0 to 2^30.
#include <doctest/doctest.h>

#include "bitonic_index.h"
#include "launch_steps.h"
#include "reference_network.h"

TEST_CASE("the launches run every step of the network once, in order, for every n up to 2^30") {
  for (unsigned q = 0; q <= 30; ++q) {
    const unsigned n = 1u << q;
    INFO("n = 2^" << q);
    unsigned long long count = 0;
    bool named = false;
    const auto steps = launch_steps([&](auto visit) { for_each_launch(n, visit); }, count, named);
    CHECK(steps == network_steps(n));
    CHECK(count == launches_per_sort(n));
    CHECK(named);
  }
}
