// cpu suite, v0_naive: launches_per_sort, the formula the chapter gives (q(q+1)/2 for n = 2^q),
// equals the number of steps of the reference network, that is one launch per step. The gpu
// suite then checks it against the launches the program actually counts.
#include <doctest/doctest.h>

#include "bitonic_index.h"
#include "reference_network.h"

TEST_CASE("one launch per step of the network, for every n up to 2^30") {
  for (unsigned q = 0; q <= 30; ++q) {
    const unsigned n = 1u << q;
    INFO("n = 2^" << q);
    CHECK(launches_per_sort(n) == network_steps(n).size());
  }
  CHECK(launches_per_sort(1u << 29) == 435);
}
