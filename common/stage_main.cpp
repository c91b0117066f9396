// stage_main.cpp: the main() of every stage executable. The build compiles this file once per
// stage with STAGE_NAME set to the stage's folder name ("v0_naive"), and links it with that
// stage's bitonic_sort().
#include "bitonic_index.h"
#include "driver.h"
#include "stage.h"
#include "stage_launches.h"

int main(int argc, char **argv) {
  const Algorithm stage{
      STAGE_NAME, Kind::kStage, whole_array(bitonic_sort), {}, false, print_launches, {}};
  return run_program(argc, argv, STAGE_NAME, {stage});
}
