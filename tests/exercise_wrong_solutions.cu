// exercise_wrong_solutions.cu: three wrong answers to exercises 1 to 3, each the mistake the
// exercise warns about, so that the gpu suite can check that the exercises' checks
// (tests/exercise_*_test.cpp) reject them: a check that accepts these would be a check that
// cannot fail. tests/exercise_checks_reject.py runs them and names the assertion each must
// trip. Like exercise_solutions.cu, each sorts on the host and copies the keys back.
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "host_solution.h"

namespace {

// The largest power of two that is at most n (n >= 1).
unsigned power_of_two_below(unsigned n) {
  unsigned size = 1;
  while (size <= n / 2) {
    size *= 2;
  }
  return size;
}

// A float order that a first attempt often uses: numeric order, with every NaN after every
// number. -0.0 and +0.0 compare equal, and so do all NaNs, whatever their sign and payload.
bool numeric_less_nan_last(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) {
    return !std::isnan(a) && std::isnan(b);
  }
  return a < b;
}

}  // namespace

// Exercise 1, wrong: sorts the largest power of two of keys that fits and leaves the rest where
// they are, as a first attempt that runs chapter 1's network on what fits might. Right for every
// power of two, wrong for any other n.
void bitonic_sort(int *keys, unsigned n, bool ascending) {
  std::vector<int> host = to_host(keys, n);
  const auto end = host.begin() + power_of_two_below(n);
  sort_keys(host.begin(), end, ascending);
  to_device(keys, host);
}

// Exercise 2, wrong: sorts the keys and leaves the values where they were. The keys are right
// and the values are still a permutation; only "each value points at its key" can catch it.
void bitonic_sort_pairs(int *keys, int *, unsigned n, bool ascending) {
  std::vector<int> host = to_host(keys, n);
  sort_keys(host.begin(), host.end(), ascending);
  to_device(keys, host);
}

// Exercise 3, wrong: numeric order with NaNs last, stable, so that numbers come out in order
// but -0.0 and +0.0, and NaNs of either sign, keep their input order.
void bitonic_sort_floats(float *keys, unsigned n, bool ascending) {
  std::vector<float> host = to_host(keys, n);
  std::stable_sort(host.begin(), host.end(), [&](float a, float b) {
    return ascending ? numeric_less_nan_last(a, b) : numeric_less_nan_last(b, a);
  });
  to_device(keys, host);
}
