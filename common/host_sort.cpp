// host_sort.cpp: std::sort on the host, as the std_sort baseline times it.
#include "host_sort.h"

#include <algorithm>
#include <chrono>
#include <functional>

#include "validate.h"

void std_sort_segments(int *keys, std::size_t arrays, std::size_t segment, bool ascending) {
  for (std::size_t array = 0; array < arrays; ++array) {
    int *begin = keys + array * segment;
    if (ascending) {
      std::sort(begin, begin + segment);
    } else {
      std::sort(begin, begin + segment, std::greater<int>());
    }
  }
}

TimedRun time_host_sort(const HostSort &sort, const std::vector<int> &input, std::size_t segment,
                        bool ascending, int reps) {
  // No warm-up: a host sort has no module to load, and at the sizes that matter its data does
  // not stay in the caches between runs anyway.
  TimedRun run;
  run.padded_n = input.size();
  std::vector<double> times;
  for (int rep = 0; rep < reps; ++rep) {
    run.output = input;
    const auto start = std::chrono::steady_clock::now();
    sort(run.output, segment, ascending);
    const auto stop = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  run.sort_ms = median(times);
  run.total_ms = run.sort_ms;
  return run;
}
