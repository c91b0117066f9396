// stage_main.cpp: the main() of every stage executable. The build compiles this file once per
// stage with STAGE_NAME set to the stage's folder name ("v0_naive"), and links it with that
// stage's bitonic_sort().
#include "driver.h"
#include "stage.h"

int main(int argc, char **argv) {
  return run_program(argc, argv, STAGE_NAME, {stage_algorithm(STAGE_NAME, bitonic_sort)});
}
