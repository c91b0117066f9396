// launch_loop.h: what the GPU answers (answers.cu, wrong_answers.cu) share: the grid of one
// thread per key, and the loop over the network's steps, one checked launch each, as v0_naive
// makes them.
#pragma once

#include "cuda_check.h"

constexpr unsigned kAnswerThreadsPerBlock = 256;

// Blocks of kAnswerThreadsPerBlock threads that cover n keys (the last one may stick out).
inline unsigned blocks_for(unsigned n) {
  return (n + kAnswerThreadsPerBlock - 1) / kAnswerThreadsPerBlock;
}

// Threads per block for n keys, n a power of two: one block of n when n is smaller than a block.
inline unsigned threads_for(unsigned n) {
  return n < kAnswerThreadsPerBlock ? n : kAnswerThreadsPerBlock;
}

// Calls launch(size, stride) for every step of the network for n keys, in the network's order
// (sizes up to the power of two that holds n), each launch checked and counted.
template <typename Launch>
void for_each_step(unsigned n, Launch launch) {
  for (unsigned size = 2; size / 2 < n; size *= 2) {
    for (unsigned stride = size / 2; stride > 0; stride /= 2) {
      launch(size, stride);
      CHECK_LAUNCH();
    }
  }
}
