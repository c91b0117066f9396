// top_stage.h: what the program of a stage that keeps the first keys of each array alone is
// (stage_top_main.cpp, stage_float_main.cpp): its --trace-launches with --top K, and its Algorithm
// for the driver. Include it after the stage's bitonic_index.h, whose for_each_launch,
// for_each_top_launch, launches_per_top and kMaxTop it uses.
#pragma once

#include <cstdio>

#include "driver.h"
#include "segment_launches.h"
#include "stage.h"

// The launches of the sort of every run of K keys, then those of for_each_top_launch, after a
// comment line with launches_per_top, the count the gpu suite holds the real launches to.
inline void print_top_launches(unsigned n, unsigned segment, unsigned top) {
  std::printf("# launches_per_top(%u, %u, %u) = %llu\n", n, segment, top,
              launches_per_top(n, segment, top));
  unsigned long long index = 0;
  const auto print = launch_rows(index);
  for_each_launch(n, top, print);
  for_each_top_launch(n, segment, top, print);
}

// The stage as the driver runs it: its sort, argsort and top-k of arrays (stage.h).
inline Algorithm top_stage_algorithm() {
  Algorithm stage{STAGE_NAME, Kind::kStage,           bitonic_sort_segments,   {},
                  true,       print_segment_launches, bitonic_argsort_segments};
  stage.top_sort = bitonic_top_segments;
  stage.max_top = kMaxTop;
  stage.print_top_launches = print_top_launches;
  return stage;
}
