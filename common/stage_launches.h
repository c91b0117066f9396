// stage_launches.h: a stage's --trace-launches (stage_main.cpp, stage_gpus_main.cpp; its rows
// serve segment_launches.h and top_stage.h too). Include it after the stage's bitonic_index.h,
// whose for_each_launch, launches_per_sort and kernel_name it uses.
#pragma once

#include <cstdio>

// Prints the CSV header of --trace-launches and returns the printer of its rows, which numbers
// them in `index` (a launch function is copied as it is passed on, so the count lives outside).
inline auto launch_rows(unsigned long long &index) {
  std::printf("launch,kernel,size,stride,steps\n");
  return [&index](const Launch &launch) {
    std::printf("%llu,%s,%u,%u,%u\n", index++, kernel_name(launch.kernel), launch.size,
                launch.stride, launch.steps);
  };
}

// The launches that the stage's for_each_launch (bitonic_index.h) gives for one sort of n keys,
// the very ones bitonic_sort makes, one CSV line each, after a comment line with
// launches_per_sort(n), the count the gpu suite holds the real launches to.
inline void print_launches(unsigned n, unsigned /*segment*/) {
  std::printf("# launches_per_sort(%u) = %llu\n", n, launches_per_sort(n));
  unsigned long long index = 0;
  for_each_launch(n, launch_rows(index));
}
