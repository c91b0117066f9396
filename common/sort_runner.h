// sort_runner.h: how every GPU sort is run and timed (README, "How we measure").
//
// One run: copy the input from pinned host memory to the device, fill the padding, sort, copy
// the first n keys back. CUDA events around the sort give the device sort time; events around the
// whole run give the total time. The first `warmups` runs are not recorded (they pay for module
// loading and first-touch costs); each recorded run sorts a fresh copy of the input (the copy is
// outside the sort time); the medians are reported.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

// A sort of n keys in device memory, in arrays of `segment` keys that are sorted separately
// (segment == n: one array). The stages' bitonic_sort (stage.h) and the GPU baselines.
using DeviceSort = std::function<void(int *keys, unsigned n, unsigned segment, bool ascending)>;

// A sort that also says where each key came from (--values, an argsort): on return, indices[i]
// is the position in its array, before the sort, of the key now at i (0 .. segment - 1).
using PairSort =
    std::function<void(int *keys, int *indices, unsigned n, unsigned segment, bool ascending)>;

// A top-k (--top): leaves the first `top` keys of each array as its `top` smallest (largest,
// descending), in order, and with indices their positions in the array, as a PairSort does.
using TopSort = std::function<void(int *keys, int *indices, unsigned n, unsigned segment,
                                   unsigned top, bool ascending)>;

// A sort of keys spread over GPUs (--gpus, v25_multi_gpu): keys[g] holds the g-th part of the
// array, per_gpu keys, on device g. Returns the milliseconds of its last exchange of keys between
// GPUs, or a negative number when it made none.
using GpusSort =
    std::function<double(const std::vector<int *> &keys, unsigned per_gpu, bool ascending)>;

struct TimedRun {
  // The first n keys, or the first `kept` of each array (time_device_sort).
  std::vector<int> output;
  // The indices of those keys; empty unless the run asked for them.
  std::vector<int> indices;
  std::uint64_t padded_n = 0;
  // Launches counted during the last sort (CHECK_LAUNCH); 0 for code that does not count.
  unsigned long long launches = 0;
  double sort_ms = 0;
  double total_ms = 0;
  // A sort across GPUs: the median time of its last exchange between GPUs; negative when none.
  double exchange_ms = -1;
};

// pad_to_power_of_two: sort next_power_of_two(n) keys, the extra ones set to padding_value();
// they come last in the requested order, so the first n keys are the result. `segment` is the
// length of the arrays sorted separately, a power of two that divides n (then it divides the
// padded length too, and the padding forms whole arrays of its own), or 0 for one array of all
// the keys. The device memory is checked before it is allocated (FatalError kExitOutOfMemory).
// with_indices: gives `sort` a buffer for the indices and copies them back with the keys (timed
// in the total); otherwise it gets nullptr. kept: only the first `kept` keys (and indices) of
// each array are copied back, n / segment x kept of them (a top-k); 0 copies all n. floats: the
// keys are floats' bits (--type float), padded with the float that sorts last.
TimedRun time_device_sort(const PairSort &sort, bool with_indices, bool pad_to_power_of_two,
                          const std::vector<int> &input, std::uint64_t segment, bool ascending,
                          int warmups, int reps, std::uint64_t kept = 0, bool floats = false);

// Waits for everything launched on devices 0 .. gpus - 1 (leaves the last one current).
void synchronize_devices(unsigned gpus);

// time_device_sort for a sort across devices 0 .. gpus - 1: the input, padded to a power of two
// of at least `gpus` keys, is cut into gpus parts of equal length, part g on device g. There is
// no event that spans devices, so the times are the host's clock, from when every device holds its
// part and is idle until the last one is done (sort), and from the first copy to the last
// (total).
TimedRun time_gpus_sort(const GpusSort &sort, unsigned gpus, const std::vector<int> &input,
                        bool ascending, int warmups, int reps);

// The same for a sort of keys alone.
inline TimedRun time_device_sort(const DeviceSort &sort, bool pad_to_power_of_two,
                                 const std::vector<int> &input, std::uint64_t segment,
                                 bool ascending, int warmups, int reps) {
  const PairSort keys_only = [&sort](int *keys, int *, unsigned n, unsigned array, bool up) {
    sort(keys, n, array, up);
  };
  return time_device_sort(keys_only, false, pad_to_power_of_two, input, segment, ascending, warmups,
                          reps);
}

// The median (the mean of the middle two for an even count); values must not be empty.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}
