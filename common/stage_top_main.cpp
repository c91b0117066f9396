// stage_top_main.cpp: the main() of a stage that can also keep only the first keys of each array
// (bitonic_top_segments in stage.h, v10_top_k). Like stage_argsort_main.cpp, with the top-k that
// --top K runs.
#include <cstdio>

#include "bitonic_index.h"
#include "driver.h"
#include "segment_launches.h"
#include "stage.h"

namespace {

// --trace-launches with --top K: the launches of the sort of every run of K keys, then those of
// for_each_top_launch, after a comment line with launches_per_top, the count the gpu suite holds
// the real launches to.
void print_top_launches(unsigned n, unsigned segment, unsigned top) {
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

}  // namespace

int main(int argc, char **argv) {
  Algorithm stage{STAGE_NAME, Kind::kStage,           bitonic_sort_segments,   {},
                  true,       print_segment_launches, bitonic_argsort_segments};
  stage.top_sort = bitonic_top_segments;
  stage.max_top = kMaxTop;
  stage.print_top_launches = print_top_launches;
  return run_program(argc, argv, STAGE_NAME, {stage});
}
