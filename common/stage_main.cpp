// stage_main.cpp: the main() of every stage's program. The build compiles this file once per
// stage, with STAGE_NAME set to the folder's name ("v0_naive") and, for each function of
// stage.h beyond bitonic_sort, a switch that says whether the stage's bitonic_sort.cu defines
// it (the top-level meson.build looks): the program then takes the options that function serves.
//
//   STAGE_HAS_SEGMENTS  bitonic_sort_segments     --segment L    (v8_batched and after)
//   STAGE_HAS_ARGSORT   bitonic_argsort_segments  --values       (v9_argsort and after)
//   STAGE_HAS_TOP       bitonic_top_segments      --top K        (v10_top_k and after)
//   STAGE_HAS_FLOATS    bitonic_float_segments    --type float   (v11_float_keys and after)
//   STAGE_HAS_GPUS      bitonic_sort_gpus         --gpus P       (v25_multi_gpu, which sorts
//                                                                 across GPUs alone: Meson sets
//                                                                 its other switches to 0)
//   STAGE_HAS_RANKS     join_gpu_team (ranks.h)   mpirun -np P   (v25_multi_gpu where Meson
//                                                                 found MPI: one process a GPU)
//
// The switches are macros because a stage without a function must not name it, nor the helpers
// of its bitonic_index.h that go with it (kMaxTop, for_each_top_launch, ...).
#include <cstdio>
#include <memory>
#include <vector>

#include "bitonic_index.h"
#include "driver.h"
#include "stage.h"
#if STAGE_HAS_RANKS
#include "ranks.h"
#endif  // STAGE_HAS_RANKS

namespace {

// Prints the CSV header of --trace-launches and returns the printer of its rows, which numbers
// them in `index` (a launch function is copied as it is passed on, so the count lives outside).
auto launch_rows(unsigned long long &index) {
  std::printf("launch,kernel,size,stride,steps\n");
  return [&index](const Launch &launch) {
    std::printf("%llu,%s,%u,%u,%u\n", index++, kernel_name(launch.kernel), launch.size,
                launch.stride, launch.steps);
  };
}

// --trace-launches: the launches that the stage's for_each_launch (bitonic_index.h) gives for one
// sort of n keys in arrays of `segment` keys (one array, where the stage sorts whole arrays
// only), the very ones its sort makes, one CSV line each, after a comment line with the count
// the gpu suite holds the real launches to.
void print_launches(unsigned n, unsigned segment) {
  unsigned long long index = 0;
#if STAGE_HAS_SEGMENTS
  std::printf("# launches_per_segment_sort(%u, %u) = %llu\n", n, segment,
              launches_per_segment_sort(n, segment));
  for_each_launch(n, segment, launch_rows(index));
#else
  static_cast<void>(segment);
  std::printf("# launches_per_sort(%u) = %llu\n", n, launches_per_sort(n));
  for_each_launch(n, launch_rows(index));
#endif  // STAGE_HAS_SEGMENTS
}

#if STAGE_HAS_TOP
// --trace-launches with --top K: the launches of one top-k, after a comment line with
// launches_per_top. Those of for_each_top_launch follow the sort of every run of K keys where
// they are block_top's, or none (K is the whole array); a top-k kernel that sorts the keys
// itself (v16's register_top) is the whole plan.
void print_top_launches(unsigned n, unsigned segment, unsigned top) {
  std::printf("# launches_per_top(%u, %u, %u) = %llu\n", n, segment, top,
              launches_per_top(n, segment, top));
  std::vector<Launch> plan;
  for_each_top_launch(n, segment, top, [&plan](const Launch &launch) { plan.push_back(launch); });
  unsigned long long index = 0;
  const auto print = launch_rows(index);
  if (plan.empty() || plan.front().kernel == Kernel::block_top) {
    for_each_launch(n, top, print);
  }
  for (const Launch &launch : plan) {
    print(launch);
  }
}
#endif  // STAGE_HAS_TOP

}  // namespace

int main(int argc, char **argv) {
#if STAGE_HAS_RANKS
  // Started by mpirun: this process is one rank of the sort, on one GPU (common/ranks.cpp).
  if (launched_by_mpi()) {
    return run_ranks(argc, argv, STAGE_NAME);
  }
#endif  // STAGE_HAS_RANKS
  Algorithm stage;
  stage.name = STAGE_NAME;
  stage.kind = Kind::kStage;
  stage.device_sort = whole_array(bitonic_sort);
  stage.print_launches = print_launches;
#if STAGE_HAS_SEGMENTS
  stage.device_sort = bitonic_sort_segments;
  stage.sorts_segments = true;
#endif  // STAGE_HAS_SEGMENTS
#if STAGE_HAS_ARGSORT
  stage.pair_sort = bitonic_argsort_segments;
#endif  // STAGE_HAS_ARGSORT
#if STAGE_HAS_TOP
  stage.top_sort = bitonic_top_segments;
  stage.max_top = kMaxTop;
  stage.print_top_launches = print_top_launches;
#endif  // STAGE_HAS_TOP
#if STAGE_HAS_FLOATS
  // The driver holds every key as 32 bits in an int; here they are the bits of floats.
  stage.float_sort = [](int *keys, int *indices, unsigned n, unsigned segment, unsigned top,
                        bool ascending) {
    bitonic_float_segments(reinterpret_cast<float *>(keys), indices, n, segment, top, ascending);
  };
#endif  // STAGE_HAS_FLOATS
#if STAGE_HAS_GPUS
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
#endif  // STAGE_HAS_GPUS
  return run_program(argc, argv, STAGE_NAME, {stage});
}
