// gpu suite, exercise 1 (docs/12_exercises.md): the check a student's stage lists in its
// stage_gpu_tests. Its bitonic_sort must sort any n, not only powers of two: the test calls it
// without the driver's padding and compares with std::sort.
#include <doctest/doctest.h>

#include "data.h"
#include "reference.h"
#include "sort_runner.h"
#include "stage.h"
#include "validate.h"

namespace {

void check_unpadded(std::uint64_t n, Distribution distribution, bool ascending) {
  const std::vector<int> input = generate_keys(distribution, n, n + 11);
  const DeviceSort sort = [](int *keys, unsigned count, unsigned, bool up) {
    bitonic_sort(keys, count, up);
  };
  // pad_to_power_of_two = false: the stage sees exactly n keys.
  const TimedRun run = time_device_sort(sort, false, input, 0, ascending, 0, 1);
  const Validation validation = compare_keys(std_sorted_copy(input, ascending), run.output);
  INFO("n = " << n << ", " << distribution_name(distribution)
              << (ascending ? ", ascending" : ", descending"));
  CHECK_MESSAGE(validation.passed(), describe_mismatches(validation, n, "std::sort"));
}

}  // namespace

TEST_CASE("every n from 1 to 100, and some larger ones, without padding") {
  std::vector<std::uint64_t> lengths;
  for (std::uint64_t n = 1; n <= 100; ++n) {
    lengths.push_back(n);
  }
  for (std::uint64_t n : {1000u, (1u << 20) + 1, 3u << 19}) {
    lengths.push_back(n);
  }
  for (std::uint64_t n : lengths) {
    for (Distribution distribution : all_distributions()) {
      for (const bool ascending : {true, false}) {
        check_unpadded(n, distribution, ascending);
      }
    }
  }
}
