// stage_argsort_main.cpp: the main() of a stage that sorts many arrays at once and can also give
// every key's position in its array (bitonic_argsort_segments in stage.h, v9_argsort). Like
// stage_segments_main.cpp, with the argsort that --values runs.
#include "bitonic_index.h"
#include "driver.h"
#include "segment_launches.h"
#include "stage.h"

int main(int argc, char **argv) {
  const Algorithm stage{STAGE_NAME, Kind::kStage,           bitonic_sort_segments,   {},
                        true,       print_segment_launches, bitonic_argsort_segments};
  return run_program(argc, argv, STAGE_NAME, {stage});
}
