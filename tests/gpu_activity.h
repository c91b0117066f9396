// gpu_activity.h: what the GPU did while a sort ran, as the CUDA runtime records it, not as the
// stage's own calls count it. CHECK_LAUNCH() counts the stage's calls of it, which a sort on the
// host can make without launching anything (instructor/faked_answers.cu); CUPTI, the profiling
// interface that ships with the CUDA toolkit, reports each kernel the GPU ran and each copy that
// crossed between host and device, whoever asked for it. A sort that only runs kernels shows its
// network's launches and no copy; one that sorts on the host shows its copies, however it queues
// them (cudaMemcpyAsync and cudaLaunchHostFunc: instructor/async_answers.cu). Not seen: host
// memory the GPU maps or manages, which a kernel reads without a copy (README, Limits).
#pragma once

#include <functional>
#include <vector>

struct GpuActivity {
  unsigned long long kernels = 0;  // kernels the GPU ran
  unsigned long long host_bytes = 0;  // bytes copied to, from or between host memory
};

// Copies `keys` to the device and sorts them there with `sort` once, not counted (the first
// launch of a kernel loads it); then copies them again, sorts them again and returns what the GPU
// did from that call until it was idle again. Throws std::runtime_error where CUPTI was not found
// when the build was configured, fails, or lost records.
GpuActivity gpu_activity_of_sort(const std::function<void(int *device_keys, unsigned n)> &sort,
                                 const std::vector<int> &keys);
