// host_sort.h: std::sort on the host, as the std_sort baseline times it. Its own file so that a
// record of the baseline (tools/records.py) changes with this code alone, not with the driver or
// the validation around it.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "sort_runner.h"

// A sort on the host, for the CPU baseline: arrays of `segment` keys sorted separately
// (segment == keys.size(): one array).
using HostSort = std::function<void(std::vector<int> &keys, std::size_t segment, bool ascending)>;

// Sorts each of the `arrays` arrays of `segment` consecutive keys from `keys` on its own with
// std::sort, on this thread (the std::sort baseline, and each thread of the reference of
// std_sorted_segments_copy in validate.h).
void std_sort_segments(int *keys, std::size_t arrays, std::size_t segment, bool ascending);

// Times `sort` on a fresh copy of `input` `reps` times: the median on the host's clock, with the
// last copy's result as the output.
TimedRun time_host_sort(const HostSort &sort, const std::vector<int> &input, std::size_t segment,
                        bool ascending, int reps);
