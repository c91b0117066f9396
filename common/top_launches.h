// top_launches.h: --trace-launches with --top K, of a stage that keeps the first keys of each
// array alone (stage_top_main.cpp, stage_float_main.cpp). Include it after the stage's
// bitonic_index.h, whose for_each_launch, for_each_top_launch and launches_per_top it prints.
#pragma once

#include <cstdio>

// The launches of the sort of every run of K keys, then those of for_each_top_launch, after a
// comment line with launches_per_top, the count the gpu suite holds the real launches to.
inline void print_top_launches(unsigned n, unsigned segment, unsigned top) {
  std::printf("# launches_per_top(%u, %u, %u) = %llu\n", n, segment, top,
              launches_per_top(n, segment, top));
  std::printf("launch,kernel,size,stride,steps\n");
  unsigned long long index = 0;
  const auto print = [&](const Launch &launch) {
    std::printf("%llu,%s,%u,%u,%u\n", index++, kernel_name(launch.kernel), launch.size,
                launch.stride, launch.steps);
  };
  for_each_launch(n, top, print);
  for_each_top_launch(n, segment, top, print);
}
