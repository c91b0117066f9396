// stage.h: what a stage is, declared once. Everything a stage folder must provide is listed
// here; README.md ("Writing your own stage") walks through it.
//
// A stage folder (v0_naive, ..., or a copy of one under a new name) holds three files:
//
//   bitonic_sort.cu   defines bitonic_sort() below: the kernels and the host function that
//                     launches them. Every launch is followed by CHECK_LAUNCH() (cuda_check.h),
//                     which checks and counts it.
//   bitonic_index.h   the stage's index helpers, __host__ __device__ (host_device.h) so that the
//                     cpu tests call the very functions the kernels call. It must define
//                       template <typename F> void for_each_launch(unsigned n, F launch)
//                     the launch plan: it calls launch(Launch{kernel, size, stride, steps}) for
//                     each launch of a sort of n keys, in order; bitonic_sort walks it, the
//                     program's --trace-launches prints it (with Kernel's kernel_name), and
//                       unsigned long long launches_per_sort(unsigned n)
//                     the number of those launches, by formula: the cpu tests hold the plan to
//                     it, the gpu tests the launches counted.
//   meson.build       the same in every stage, byte for byte. The folder name is the
//                     program's name.
//
// and an entry in stages.txt: its line (with a chapter in docs/ if it has one), its cpu tests
// (of bitonic_index.h) and gpu tests (of bitonic_sort).
//
// Of common/, a stage's program uses: stage.h, cuda_check.h (CUDA_CHECK, CHECK_LAUNCH) and
// host_device.h in its own files; stage_main.cpp as its main(), which hands it to the driver
// (driver.h: command line, keys, padding, timing, validation, report). Beyond bitonic_sort, a
// stage may define the functions below marked "Only for a stage that"; the top-level
// meson.build finds which its bitonic_sort.cu defines, and its program takes their options.
// tools/ holds the course's own tools (baselines, transfers, the tour and the measuring
// scripts); a stage needs none of them.
#pragma once

// Sorts n 32-bit signed integers that are already in device memory, in place, ascending or
// descending. n is a power of two from 1 to 2^30; the common driver pads any other length
// (padding.h). The function only launches kernels: it allocates nothing, copies nothing between
// host and device, and returns without waiting for the kernels to finish (the caller times them
// with CUDA events).
void bitonic_sort(int *keys, unsigned n, bool ascending);

// Only for a stage that also sorts many arrays at once (v8_batched; the program then takes
// --segment L, and its bitonic_index.h defines for_each_launch(n, segment, launch) and
// launches_per_segment_sort(n, segment) for --trace-launches): sorts the n / segment arrays of
// `segment` consecutive keys each, every one in the requested order. segment is a power of two
// from 2 to n.
void bitonic_sort_segments(int *keys, unsigned n, unsigned segment, bool ascending);

// Only for a stage that also gives every key's position (v9_argsort; the program then also
// takes --values): sorts as bitonic_sort_segments does and writes indices[i], the position in
// its array before the sort of the key that ends at i, for each of the n keys. indices is a device
// buffer of n ints. For one key (n = 1) no kernel runs: indices[0] is set to 0 with
// cudaMemsetAsync.
void bitonic_argsort_segments(int *keys, int *indices, unsigned n, unsigned segment,
                              bool ascending);

// Only for a stage that also keeps the first keys of each array alone (v10_top_k; the program
// then also takes --top K; the stage also defines bitonic_sort_segments, and its bitonic_index.h
// kMaxTop, for_each_top_launch and launches_per_top): leaves the first `top` keys of each array as
// the `top` smallest of that array (largest, descending), in order, and with indices (not nullptr)
// indices[i] their positions in the array for those keys. The rest of each array, and of indices,
// is left in no defined state. top is a power of two, at most the array's length, and at most
// kMaxTop (bitonic_index.h) below it.
void bitonic_top_segments(int *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                          bool ascending);

// Only for a stage that also sorts floats (v11_float_keys; the program then also takes
// --type float): as bitonic_top_segments, on n 32-bit IEEE 754 floats, in their totalOrder:
// -NaN, -inf, negative numbers, -0.0, +0.0, positive numbers, +inf, +NaN (NaNs by payload, the
// reverse descending).
// With top == segment every key of every array is kept and sorted; with indices == nullptr no
// positions are written.
void bitonic_float_segments(float *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                            bool ascending);

// Only for a stage that sorts one array across the GPUs of a machine (v25_multi_gpu; the
// program then takes --gpus P and none of the options above, and links NCCL). A GpuTeam is what the
// GPUs 0 .. gpus - 1 share for sorts of per_gpu keys each: their NCCL communicators, and on each a
// stream and a buffer of per_gpu keys for a partner's. make_gpu_team makes one (gpus a power of
// two, per_gpu a power of two up to 2^30) and free_gpu_team frees it.
struct GpuTeam;
GpuTeam *make_gpu_team(unsigned gpus, unsigned per_gpu);
void free_gpu_team(GpuTeam *team);

// Sorts the gpus x per_gpu keys of the team's GPUs as one array, in place, ascending or
// descending: keys[g] points to the per_gpu keys on device g, the g-th part of the array. Like
// bitonic_sort, it only launches kernels and NCCL transfers, and returns without waiting; the
// current device is left changed.
void bitonic_sort_gpus(GpuTeam *team, int *const *keys, bool ascending);
// The milliseconds that the last exchange of the team's last sort took on the GPU that was
// ready for it last (the others also waited for their partners), after waiting for it to end;
// -1 on one GPU, which exchanges nothing. For the report's exchange line.
float last_exchange_ms(const GpuTeam *team);
