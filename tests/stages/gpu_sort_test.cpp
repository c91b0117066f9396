// gpu suite, every stage: the stage's bitonic_sort, run through the same padding, transfer and
// timing code as the stage's program (common/sort_runner), must give exactly what std::sort
// gives, for every power of two up to 2^20, lengths that are not powers of two, 2^24 and more,
// every distribution and both orders. It must also make exactly the launches the chapter's
// formula (launches_per_sort in the stage's bitonic_index.h) says, and only queue its work on
// the GPU, returning before it is done (gpu_queue.h).
//
// Without a usable CUDA device the executable reports SKIP (gpu_main.cpp), never a pass.
#include <doctest/doctest.h>

#include <string>

#include "bitonic_index.h"
#include "device.h"
#include "errors.h"
#include "gpu_queue.h"
#include "keys.h"
#include "padding.h"
#include "sort_runner.h"
#include "stage.h"
#include "validate.h"

namespace {

void check_sort(std::uint64_t n, Distribution distribution, bool ascending) {
  const std::vector<int> input =
      generate_keys(distribution, n, n * 31 + static_cast<std::uint64_t>(distribution));
  // No warm-up and one run: the tests check results, the programs measure time.
  const DeviceSort sort = [](int *keys, unsigned count, unsigned, bool up) {
    bitonic_sort(keys, count, up);
  };
  const TimedRun run = time_device_sort(sort, true, input, 0, ascending, 0, 1);
  const Validation validation = compare_keys(std_sorted_copy(input, ascending), run.output);
  INFO("n = " << n << ", " << distribution_name(distribution) << ", "
              << (ascending ? "ascending" : "descending"));
  CHECK_MESSAGE(validation.passed(), describe_mismatches(validation, n, "std::sort"));
  CHECK(run.launches == launches_per_sort(static_cast<unsigned>(next_power_of_two(n))));
}

void check_all_distributions(std::uint64_t n) {
  for (Distribution distribution : all_distributions()) {
    for (const bool ascending : {true, false}) {
      check_sort(n, distribution, ascending);
    }
  }
}

}  // namespace

TEST_CASE("every power of two from 2^0 to 2^20") {
  for (unsigned q = 0; q <= 20; ++q) {
    check_all_distributions(std::uint64_t{1} << q);
  }
}

TEST_CASE("lengths that are not powers of two") {
  // Around the warp (32), the tiles (1024, 2048) and the larger powers of two.
  const std::uint64_t lengths[] = {3,    5,    7,    31,   33,    100,    1000,           1023,
                                   1025, 2047, 2049, 4097, 65535, 100000, (1u << 20) + 1, 3000017};
  for (std::uint64_t n : lengths) {
    check_all_distributions(n);
  }
}

TEST_CASE("2^24 keys") {
  check_all_distributions(std::uint64_t{1} << 24);
}

TEST_CASE("2^25 + 3 keys, padded to 2^26") {
  for (const bool ascending : {true, false}) {
    check_sort((std::uint64_t{1} << 25) + 3, Distribution::kUniform, ascending);
  }
}

TEST_CASE("bitonic_sort only queues its work: it returns at once behind a busy kernel") {
  // stage.h: it launches kernels and returns without waiting for them (gpu_queue.h).
  check_only_queues([](int *device_keys, unsigned n) { bitonic_sort(device_keys, n, true); },
                    1u << 20, 5, "bitonic_sort of 2^20 keys");
}

TEST_CASE("device memory is checked before allocating, and a refusal names the sizes") {
  try {
    require_device_memory(std::uint64_t{1} << 60, "2^58 keys on the device");
    FAIL("an exbibyte of device memory was granted");
  } catch (const FatalError &error) {
    CHECK(error.exit_code() == kExitOutOfMemory);
    CHECK(std::string(error.what())
              .find("not enough device memory: 2^58 keys on the device "
                    "need 1099511627776 MiB, the device has ") == 0);
  }
}
