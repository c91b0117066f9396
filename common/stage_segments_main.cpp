// stage_segments_main.cpp: the main() of a stage that also sorts many arrays at once
// (bitonic_sort_segments in stage.h, v8_batched). Like stage_main.cpp, compiled once per such
// stage with STAGE_NAME set to its folder name; its program takes --segment L.
#include "driver.h"
#include "stage.h"

int main(int argc, char **argv) {
  return run_program(argc, argv, STAGE_NAME,
                     {segmented_stage_algorithm(STAGE_NAME, bitonic_sort_segments)});
}
