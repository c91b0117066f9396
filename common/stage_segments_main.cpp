// stage_segments_main.cpp: the main() of a stage that also sorts many arrays at once
// (bitonic_sort_segments in stage.h, v8_batched). Like stage_main.cpp, compiled once per such
// stage with STAGE_NAME set to its folder name; its program takes --segment L.
#include "bitonic_index.h"
#include "driver.h"
#include "segment_launches.h"
#include "stage.h"

int main(int argc, char **argv) {
  const Algorithm stage{
      STAGE_NAME, Kind::kStage, bitonic_sort_segments, {}, true, print_segment_launches, {}};
  return run_program(argc, argv, STAGE_NAME, {stage});
}
