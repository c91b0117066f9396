// stage_float_main.cpp: the main() of a stage that can also sort floats (bitonic_float_segments in
// stage.h, v11_float_keys). Like stage_top_main.cpp, with the sort of floats that --type float
// runs (with --values and --top as for ints).
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
  // The driver holds every key as 32 bits in an int; here they are the bits of floats.
  stage.float_sort = [](int *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                        bool ascending) {
    bitonic_float_segments(reinterpret_cast<float *>(keys), indices, n, segment, top, ascending);
  };
  return run_program(argc, argv, STAGE_NAME, {stage});
}
