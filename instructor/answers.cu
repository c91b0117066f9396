// answers.cu: the instructor's answers to exercises 1 to 3 (docs/29_exercises.md), written as a
// student's stage would write them from v0_naive: one launch per compare step, one thread per
// key, every launch checked and counted. The gpu suite runs the exercises' checks against them
// (gpu_exercise_answers): a right answer must pass every assertion, the launch counts included.
// Built with v0_naive's bitonic_index.h on the include path.
#include <cstdint>

#include "bitonic_index.h"
#include "launch_loop.h"
#include "stage.h"

namespace {

// Exercise 1. The network in its other form: the first step of each merge compares key i with
// its mirror image in its block of `size`, i ^ (size - 1); the later steps compare i with
// i ^ stride; every comparator puts the smaller key first (the larger for a descending sort, the
// mirror image of the whole network). The keys past n count as +infinity (-infinity when
// descending): a comparator that would meet one finds its pair in order already, so it is
// skipped, and no key past n is ever read.
__global__ void mirror_step(int *keys, unsigned n, unsigned size, unsigned stride, bool ascending) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  const unsigned partner = stride == size / 2 ? i ^ (size - 1) : i ^ stride;
  if (partner <= i || partner >= n) {
    return;
  }
  const int a = keys[i];
  const int b = keys[partner];
  if (ascending ? a > b : a < b) {
    keys[i] = b;
    keys[partner] = a;
  }
}

// Exercise 2. Chapter 1's network on the keys, each value moving with its key.
__global__ void pairs_step(int *keys, int *values, unsigned size, unsigned stride, bool ascending) {
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
    const int value = values[i];
    values[i] = values[partner];
    values[partner] = value;
  }
}

// Exercise 3. A float's bits, as an unsigned number that sorts in IEEE 754 totalOrder: a float
// with the sign bit set has all its bits flipped (so that the larger negative payloads come
// first), one without has only the sign bit set.
__device__ std::uint32_t total_order_key(float value) {
  const std::uint32_t bits = __float_as_uint(value);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

__global__ void floats_step(float *keys, unsigned size, unsigned stride, bool ascending) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned partner = partner_index(i, stride);
  if (partner <= i) {
    return;
  }
  const float a = keys[i];
  const float b = keys[partner];
  const std::uint32_t ka = total_order_key(a);
  const std::uint32_t kb = total_order_key(b);
  if (sorts_ascending(i, size, ascending) ? ka > kb : ka < kb) {
    keys[i] = b;
    keys[partner] = a;
  }
}

}  // namespace

// Any n: q(q + 1) / 2 launches for q = ceil(log2 n), as for n padded to 2^q.
void bitonic_sort(int *keys, unsigned n, bool ascending) {
  for_each_step(n, [&](unsigned size, unsigned stride) {
    mirror_step<<<blocks_for(n), kAnswerThreadsPerBlock>>>(keys, n, size, stride, ascending);
  });
}

// n a power of two, as for the stage's bitonic_sort.
void bitonic_sort_pairs(int *keys, int *values, unsigned n, bool ascending) {
  for_each_step(n, [&](unsigned size, unsigned stride) {
    pairs_step<<<blocks_for(n), threads_for(n)>>>(keys, values, size, stride, ascending);
  });
}

void bitonic_sort_floats(float *keys, unsigned n, bool ascending) {
  for_each_step(n, [&](unsigned size, unsigned stride) {
    floats_step<<<blocks_for(n), threads_for(n)>>>(keys, size, stride, ascending);
  });
}
