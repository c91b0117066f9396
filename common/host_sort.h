// host_sort.h: std::sort on the host: how the std_sort baseline is timed, and the reference of
// validate.h on a chosen number of threads. The baseline's code is in host_sort.cpp alone (with
// std_sort_segments, declared in validate.h), so that a record of it (tools/records.py) changes
// with that file, not with the driver or the validation around it.
#pragma once

#include <cstddef>
#include <vector>

#include "driver.h"

// Times `sort` on a fresh copy of `input` `reps` times: the median on the host's clock, with the
// last copy's result as the output.
TimedRun time_host_sort(const HostSort &sort, const std::vector<int> &input, std::size_t segment,
                        bool ascending, int reps);

// std_sorted_copy (validate.h) on `threads` threads, rounded down to a power of two (defined in
// validate.cpp): the tests try every count.
std::vector<int> std_sorted_copy(const std::vector<int> &keys, bool ascending, unsigned threads);
