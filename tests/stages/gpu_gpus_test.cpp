// gpu suite, stages that sort across GPUs (v25_multi_gpu): bitonic_sort_gpus, run through the
// same padding, transfer and timing code as the stage's program with --gpus P
// (common/sort_runner, time_gpus_sort), must give exactly what std::sort gives, and make exactly
// the launches launches_per_gpus_sort says, and time an exchange exactly when there is one
// (last_exchange_ms). On one GPU (P = 1, any machine with a GPU): every
// power of two up to 2^20, lengths that are not powers of two, every distribution, both orders.
// The test cases named "two GPUs" run the same on P = 2; meson.build runs them as their own test,
// which reports SKIP where there are fewer than two GPUs (gpu_main.cpp, COURSE_MIN_GPUS).
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "bitonic_index.h"
#include "keys.h"
#include "padding.h"
#include "sort_runner.h"
#include "stage.h"
#include "validate.h"

namespace {

// The teams of a test case, one per length of the parts: making one starts NCCL (ncclCommInitAll),
// which takes far longer than a small sort.
using Teams = std::map<unsigned, std::unique_ptr<GpuTeam, void (*)(GpuTeam *)>>;

void check_sort(Teams &teams, unsigned gpus, std::uint64_t n, Distribution distribution,
                bool ascending) {
  const std::vector<int> input =
      generate_keys(distribution, n, n * 31 + static_cast<std::uint64_t>(distribution));
  const GpusSort sort = [&teams](const std::vector<int *> &keys, unsigned per_gpu, bool up) {
    if (teams.count(per_gpu) == 0) {
      teams.emplace(per_gpu,
                    std::unique_ptr<GpuTeam, void (*)(GpuTeam *)>(
                        make_gpu_team(static_cast<unsigned>(keys.size()), per_gpu), free_gpu_team));
    }
    bitonic_sort_gpus(teams.at(per_gpu).get(), keys.data(), up);
    return static_cast<double>(last_exchange_ms(teams.at(per_gpu).get()));
  };
  // No warm-up and one run: the tests check results, the programs measure time.
  const TimedRun run = time_gpus_sort(sort, gpus, input, ascending, 0, 1);
  const Validation validation = compare_keys(std_sorted_copy(input, ascending), run.output);
  INFO(gpus << " GPU(s), n = " << n << ", " << distribution_name(distribution) << ", "
            << (ascending ? "ascending" : "descending"));
  CHECK_MESSAGE(validation.passed(), describe_mismatches(validation, n, "std::sort"));
  const std::uint64_t padded = std::max<std::uint64_t>(next_power_of_two(n), gpus);
  CHECK(run.launches == launches_per_gpus_sort(static_cast<unsigned>(padded / gpus), gpus));
  // One GPU exchanges nothing; more take a time for the last exchange, which is a part of the
  // sort and so shorter than the whole sort.
  if (gpus == 1) {
    CHECK(run.exchange_ms < 0);
  } else {
    CHECK(run.exchange_ms > 0);
    CHECK(run.exchange_ms < run.sort_ms);
  }
}

void check_sizes(unsigned gpus) {
  Teams teams;
  for (unsigned q = 0; q <= 20; q += (q < 14 ? 1 : 3)) {
    for (Distribution distribution : all_distributions()) {
      for (const bool ascending : {true, false}) {
        check_sort(teams, gpus, std::uint64_t{1} << q, distribution, ascending);
      }
    }
  }
  // Fewer keys than GPUs, and lengths around the tile (8192) that padding fills up.
  for (const std::uint64_t n : {3ull, 1000ull, 8191ull, 8193ull, 16385ull, 1000003ull}) {
    for (const bool ascending : {true, false}) {
      check_sort(teams, gpus, n, Distribution::kUniform, ascending);
      check_sort(teams, gpus, n, Distribution::kFewUnique, ascending);
    }
  }
}

}  // namespace

TEST_CASE("one GPU: every size up to 2^20, every distribution, both orders") {
  check_sizes(1);
}

TEST_CASE("one GPU: 2^24 keys") {
  Teams teams;
  check_sort(teams, 1, std::uint64_t{1} << 24, Distribution::kUniform, true);
}

TEST_CASE("two GPUs: every size up to 2^20, every distribution, both orders") {
  check_sizes(2);
}

TEST_CASE("two GPUs: 2^25 + 3 keys, padded to 2^26") {
  Teams teams;
  for (const bool ascending : {true, false}) {
    check_sort(teams, 2, (std::uint64_t{1} << 25) + 3, Distribution::kUniform, ascending);
  }
}
