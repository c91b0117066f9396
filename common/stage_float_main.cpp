// stage_float_main.cpp: the main() of a stage that can also sort floats (bitonic_float_segments in
// stage.h, v11_float_keys). Like stage_top_main.cpp, with the sort of floats that --type float
// runs (with --values and --top as for ints).
#include "bitonic_index.h"
#include "top_stage.h"

int main(int argc, char **argv) {
  Algorithm stage = top_stage_algorithm();
  // The driver holds every key as 32 bits in an int; here they are the bits of floats.
  stage.float_sort = [](int *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                        bool ascending) {
    bitonic_float_segments(reinterpret_cast<float *>(keys), indices, n, segment, top, ascending);
  };
  return run_program(argc, argv, STAGE_NAME, {stage});
}
