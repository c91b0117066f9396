// segment_launches.h: --trace-launches of a stage that sorts many arrays at once
// (stage_segments_main.cpp, stage_argsort_main.cpp). Include it after the stage's
// bitonic_index.h, whose for_each_launch and launches_per_segment_sort it prints.
#pragma once

#include <cstdio>

#include "stage_launches.h"

// As stage_main.cpp's print_launches, for n keys in arrays of `segment` keys (--segment;
// without it, one array of n).
inline void print_segment_launches(unsigned n, unsigned segment) {
  std::printf("# launches_per_segment_sort(%u, %u) = %llu\n", n, segment,
              launches_per_segment_sort(n, segment));
  unsigned long long index = 0;
  for_each_launch(n, segment, launch_rows(index));
}
