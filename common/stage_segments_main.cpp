// stage_segments_main.cpp: the main() of a stage that also sorts many arrays at once
// (bitonic_sort_segments in stage.h, v8_batched). Like stage_main.cpp, compiled once per such
// stage with STAGE_NAME set to its folder name; its program takes --segment L.
#include <cstdio>

#include "bitonic_index.h"
#include "driver.h"
#include "stage.h"

namespace {

// --trace-launches: as in stage_main.cpp, for n keys in arrays of `segment` keys (--segment;
// without it, one array of n).
void print_launches(unsigned n, unsigned segment) {
  std::printf("# launches_per_segment_sort(%u, %u) = %llu\n", n, segment,
              launches_per_segment_sort(n, segment));
  std::printf("launch,kernel,size,stride,steps\n");
  unsigned long long index = 0;
  for_each_launch(n, segment, [&](const Launch &launch) {
    std::printf("%llu,%s,%u,%u,%u\n", index++, kernel_name(launch.kernel), launch.size,
                launch.stride, launch.steps);
  });
}

}  // namespace

int main(int argc, char **argv) {
  const Algorithm stage{STAGE_NAME, Kind::kStage, bitonic_sort_segments, {}, true, print_launches,
                        {}};
  return run_program(argc, argv, STAGE_NAME, {stage});
}
