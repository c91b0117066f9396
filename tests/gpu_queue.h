// gpu_queue.h: whether a sort only queues its work on the GPU, as stage.h asks of a stage's
// functions (they launch kernels and return without waiting). A kernel that keeps the GPU busy
// for kBusyMs is queued first: a sort that only launches kernels returns at once, its work queued
// behind that kernel; one that copies the keys to the host (cudaMemcpy) must wait for that kernel
// to end before it can read them, and returns kBusyMs later or more. So a sort on the host fails
// here however many launches it counts (instructor/faked_answers.cu).
#pragma once

#include <functional>
#include <vector>

// How long the queued kernel keeps the GPU busy, and the most a sort that only queues its work
// may take to return: a launch costs microseconds, and the longest plan the tests time (v0_naive
// at 2^20 keys) is 210 launches.
constexpr double kBusyMs = 500;
constexpr double kQueueingMs = 100;

// Copies `keys` to the device, sorts them there once with `sort` (so that CUDA has loaded its
// kernels, which it does on their first launch) and again, from `keys`, right after a busy
// kernel was queued; returns the milliseconds that second call took to return on the host, and
// leaves its result in `keys`, after waiting for the GPU.
double milliseconds_to_queue(const std::function<void(int *device_keys, unsigned n)> &sort,
                             std::vector<int> &keys);
