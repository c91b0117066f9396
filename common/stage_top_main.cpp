// stage_top_main.cpp: the main() of a stage that can also keep only the first keys of each array
// (bitonic_top_segments in stage.h, v10_top_k). Like stage_argsort_main.cpp, with the top-k that
// --top K runs (top_stage.h).
#include "bitonic_index.h"
#include "top_stage.h"

int main(int argc, char **argv) {
  return run_program(argc, argv, STAGE_NAME, {top_stage_algorithm()});
}
