// wrong_answers.cu: three wrong answers to exercises 1 to 3, each on the GPU and each the mistake
// its exercise warns about, so that the gpu suite can check that the exercises' checks reject
// them: a check that accepts these would be a check that cannot fail. They launch as many
// kernels as a right answer, so that the one assertion meant for the mistake is the one that
// fails (instructor/checks_reject.py names it). Built with v0_naive's bitonic_index.h.
#include <cmath>

#include "bitonic_index.h"
#include "launch_loop.h"
#include "stage.h"

namespace {

// Exercise 1, wrong: chapter 1's network, skipping every pair whose partner lies at or past n.
// Its descending blocks would have moved the missing keys (+infinity) to the front; skipping
// them leaves keys out of place for many n that are not powers of two. Right for every power
// of two.
__global__ void skipping_step(int *keys, unsigned n, unsigned size, unsigned stride,
                              bool ascending) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned partner = partner_index(i, stride);
  if (i >= n || partner <= i || partner >= n) {
    return;
  }
  const int a = keys[i];
  const int b = keys[partner];
  if (sorts_ascending(i, size, ascending) ? a > b : a < b) {
    keys[i] = b;
    keys[partner] = a;
  }
}

// Exercise 2, wrong: the keys are sorted, the values stay where they were. The keys are right
// and the values are still a permutation; only "each value points at its key" can catch it.
__global__ void keys_only_step(int *keys, unsigned size, unsigned stride, bool ascending) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned partner = partner_index(i, stride);
  if (partner <= i) {
    return;
  }
  const int a = keys[i];
  const int b = keys[partner];
  if (sorts_ascending(i, size, ascending) ? a > b : a < b) {
    keys[i] = b;
    keys[partner] = a;
  }
}

// Exercise 3, wrong: numeric order with every NaN after every number, as a first attempt often
// compares floats. -0.0 and +0.0 compare equal, and so do all NaNs, whatever their sign and
// payload, so they come out in whatever order the network leaves them.
__device__ bool numeric_less_nan_last(float a, float b) {
  if (isnan(a) || isnan(b)) {
    return !isnan(a) && isnan(b);
  }
  return a < b;
}

__global__ void numeric_step(float *keys, unsigned size, unsigned stride, bool ascending) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned partner = partner_index(i, stride);
  if (partner <= i) {
    return;
  }
  const float a = keys[i];
  const float b = keys[partner];
  if (sorts_ascending(i, size, ascending) ? numeric_less_nan_last(b, a)
                                          : numeric_less_nan_last(a, b)) {
    keys[i] = b;
    keys[partner] = a;
  }
}

}  // namespace

void bitonic_sort(int *keys, unsigned n, bool ascending) {
  for_each_step(n, [&](unsigned size, unsigned stride) {
    skipping_step<<<blocks_for(n), kAnswerThreadsPerBlock>>>(keys, n, size, stride, ascending);
  });
}

void bitonic_sort_pairs(int *keys, int *, unsigned n, bool ascending) {
  for_each_step(n, [&](unsigned size, unsigned stride) {
    keys_only_step<<<blocks_for(n), threads_for(n)>>>(keys, size, stride, ascending);
  });
}

void bitonic_sort_floats(float *keys, unsigned n, bool ascending) {
  for_each_step(n, [&](unsigned size, unsigned stride) {
    numeric_step<<<blocks_for(n), threads_for(n)>>>(keys, size, stride, ascending);
  });
}
