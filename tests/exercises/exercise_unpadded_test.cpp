// gpu suite, exercise 1 (docs/29_exercises.md): the check a student's stage lists in its
// stage_gpu_tests. Its bitonic_sort must sort any n, not only powers of two: the test calls it
// without the driver's padding, compares with std::sort, and counts the launches, which must be
// those of the network for n padded, launches_per_sort (the stage's bitonic_index.h) of the
// next power of two: the work is done on the GPU, by the network. The first test case, the small
// n, is also what the grader runs under compute-sanitizer memcheck, so that no key past n is
// ever touched (tools/grade.py). The last two test cases check that the sort only queues its
// work on the GPU (gpu_queue.h) and that the GPU ran the network's kernels with no copy to or from
// the host (gpu_activity.h, from CUPTI): counted launches alone can be faked by a sort on the host.
#include <doctest/doctest.h>

#include "bitonic_index.h"
#include "gpu_activity.h"
#include "gpu_queue.h"
#include "keys.h"
#include "padding.h"
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
  CHECK(run.launches == launches_per_sort(static_cast<unsigned>(next_power_of_two(n))));
}

void check_lengths(const std::vector<std::uint64_t> &lengths) {
  for (std::uint64_t n : lengths) {
    for (Distribution distribution : all_distributions()) {
      for (const bool ascending : {true, false}) {
        check_unpadded(n, distribution, ascending);
      }
    }
  }
}

}  // namespace

TEST_CASE("every n from 1 to 100 without padding") {
  std::vector<std::uint64_t> lengths;
  for (std::uint64_t n = 1; n <= 100; ++n) {
    lengths.push_back(n);
  }
  check_lengths(lengths);
}

TEST_CASE("larger n without padding: 1000, 2^20 + 1, 3 x 2^19") {
  check_lengths({1000, (std::uint64_t{1} << 20) + 1, std::uint64_t{3} << 19});
}

TEST_CASE("the unpadded sort only queues its work on the GPU") {
  check_only_queues([](int *device_keys, unsigned n) { bitonic_sort(device_keys, n, true); },
                    (1u << 20) + 1, 9, "bitonic_sort of 2^20 + 1 keys");
}

TEST_CASE("the GPU runs the unpadded sort's kernels, and no key crosses to the host") {
  const std::vector<int> keys = generate_keys(Distribution::kUniform, (1u << 20) + 1, 21);
  // The kernels of the network for n padded, as in the cases above.
  const unsigned long long network =
      launches_per_sort(static_cast<unsigned>(next_power_of_two(keys.size())));
  const GpuActivity activity = gpu_activity_of_sort(
      [](int *device_keys, unsigned n) { bitonic_sort(device_keys, n, true); }, keys);
  INFO("bitonic_sort of 2^20 + 1 keys: the GPU ran " << activity.kernels << " kernels and copied "
                                                     << activity.host_bytes
                                                     << " bytes to or from the host");
  CHECK(activity.kernels == network);
  CHECK(activity.host_bytes == 0);
}
