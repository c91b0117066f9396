// stage_top_main.cpp: the main() of a stage that can also keep only the first keys of each array
// (bitonic_top_segments in stage.h, v10_top_k). Like stage_argsort_main.cpp, with the top-k that
// --top K runs.
#include "bitonic_index.h"
#include "driver.h"
#include "segment_launches.h"
#include "stage.h"
#include "top_launches.h"

int main(int argc, char **argv) {
  Algorithm stage{STAGE_NAME, Kind::kStage,           bitonic_sort_segments,   {},
                  true,       print_segment_launches, bitonic_argsort_segments};
  stage.top_sort = bitonic_top_segments;
  stage.max_top = kMaxTop;
  stage.print_top_launches = print_top_launches;
  return run_program(argc, argv, STAGE_NAME, {stage});
}
