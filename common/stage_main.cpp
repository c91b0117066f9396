// stage_main.cpp: the main() of every stage executable. The build compiles this file once per
// stage with STAGE_NAME set to the stage's folder name ("v0_naive"), and links it with that
// stage's bitonic_sort().
#include <cstdio>

#include "bitonic_index.h"
#include "driver.h"
#include "stage.h"

namespace {

// --trace-launches: the launches that the stage's for_each_launch (bitonic_index.h) gives for one
// sort of n keys, the very ones bitonic_sort makes, one CSV line each, after a comment line with
// launches_per_sort(n), the count the gpu suite holds the real launches to.
void print_launches(unsigned n, unsigned /*segment*/) {
  std::printf("# launches_per_sort(%u) = %llu\n", n, launches_per_sort(n));
  std::printf("launch,kernel,size,stride,steps\n");
  unsigned long long index = 0;
  for_each_launch(n, [&](const Launch &launch) {
    std::printf("%llu,%s,%u,%u,%u\n", index++, kernel_name(launch.kernel), launch.size,
                launch.stride, launch.steps);
  });
}

}  // namespace

int main(int argc, char **argv) {
  const Algorithm stage{
      STAGE_NAME, Kind::kStage, whole_array(bitonic_sort), {}, false, print_launches, {}};
  return run_program(argc, argv, STAGE_NAME, {stage});
}
