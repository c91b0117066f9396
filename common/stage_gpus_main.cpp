// stage_gpus_main.cpp: the main() of a stage that sorts one array across the GPUs of a machine
// (bitonic_sort_gpus in stage.h, v16_multi_gpu). Like stage_main.cpp, with --gpus P: the driver
// cuts the keys into P parts, one per GPU, and hands them to the sort below.
#include <memory>

#include "bitonic_index.h"
#include "driver.h"
#include "stage.h"
#include "stage_launches.h"

int main(int argc, char **argv) {
  Algorithm stage{STAGE_NAME, Kind::kStage, whole_array(bitonic_sort), {}, false, print_launches,
                  {}};
  // The team of GPUs (NCCL communicators, receive buffers), made on the first sort, which the
  // driver does not time (its warm-up), and kept for the timed ones.
  std::unique_ptr<GpuTeam, void (*)(GpuTeam *)> team(nullptr, free_gpu_team);
  stage.gpus_sort = [&team](const std::vector<int *> &keys, unsigned per_gpu, bool ascending) {
    if (!team) {
      team.reset(make_gpu_team(static_cast<unsigned>(keys.size()), per_gpu));
    }
    bitonic_sort_gpus(team.get(), keys.data(), ascending);
    return static_cast<double>(last_exchange_ms(team.get()));
  };
  return run_program(argc, argv, STAGE_NAME, {stage});
}
