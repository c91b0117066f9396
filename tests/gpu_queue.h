// gpu_queue.h: whether a sort only queues its work on the GPU, as stage.h asks of a stage's
// functions (they launch kernels and return without waiting). A kernel that keeps the GPU busy
// for kBusyMs is queued first, then the copy of the keys to sort into the buffer the sort is
// given (until then it holds zeros): a sort that only launches kernels returns at once, its work
// queued behind both, and sorts the keys. One that copies the keys to the host (cudaMemcpy) must
// wait for the busy kernel to end before it can read them, and returns kBusyMs later or more;
// one that reads them at once on another stream reads zeros, and its result is wrong. So a sort
// on the host that copies the keys synchronously fails here however many launches it counts
// (instructor/faked_answers.cu); one that queues its copies (instructor/async_answers.cu) is
// caught by gpu_activity.h instead.
#pragma once

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "keys.h"
#include "validate.h"

// How long the queued kernel keeps the GPU busy, and the most a sort that only queues its work
// may take to return: a launch costs microseconds, and the longest plan the tests time (v0_naive's
// network for 2^21 keys, exercise 1's 2^20 + 1 padded) is 231 launches.
constexpr double kBusyMs = 500;
constexpr double kQueueingMs = 100;

// Sorts `keys` on the device with `sort` once (so that CUDA has loaded its kernels, which it does
// on their first launch), then again behind a busy kernel, as above; returns the milliseconds
// that second call took to return on the host, and leaves its result in `keys`, after waiting
// for the GPU.
double milliseconds_to_queue(const std::function<void(int *device_keys, unsigned n)> &sort,
                             std::vector<int> &keys);

// The check every stage's and every exercise's gpu test makes of an int sort (`what`, "bitonic_sort
// of 2^20 keys"): n uniform keys of `seed`, sorted ascending behind the busy kernel, come out as
// std::sort has them, and the call returned within kQueueingMs.
inline void check_only_queues(const std::function<void(int *device_keys, unsigned n)> &sort,
                              unsigned n, std::uint64_t seed, const std::string &what) {
  const std::vector<int> input = generate_keys(Distribution::kUniform, n, seed);
  std::vector<int> keys(input);
  const double returned_ms = milliseconds_to_queue(sort, keys);
  CHECK(keys == std_sorted_copy(input, true));
  INFO(what << " returned " << returned_ms << " ms after its call, behind a " << kBusyMs
            << " ms kernel");
  CHECK(returned_ms < kQueueingMs);
}
