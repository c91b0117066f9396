// gpu suite, stages that sort many arrays at once (v8_batched): bitonic_sort_segments, run
// through the same padding, transfer and timing code as the stage's program, must sort every
// array exactly as std::sort sorts it, for every array length from 2 to 2^12 at several n
// (powers of two, and a multiple of the length that is not one), distributions that stress a
// sort (sorted, reversed, all equal, few values, the extremes of int32, uniform) and both
// orders; and it must make exactly the launches launches_per_segment_sort says.
#include <doctest/doctest.h>

#include <string>

#include "bitonic_index.h"
#include "keys.h"
#include "padding.h"
#include "sort_runner.h"
#include "stage.h"
#include "validate.h"

namespace {

void check_segments(std::uint64_t n, unsigned segment, Distribution distribution, bool ascending) {
  const std::vector<int> input =
      generate_keys(distribution, n, n * 7 + segment + static_cast<std::uint64_t>(distribution));
  const DeviceSort sort = [](int *keys, unsigned count, unsigned array, bool up) {
    bitonic_sort_segments(keys, count, array, up);
  };
  const TimedRun run = time_device_sort(sort, true, input, segment, ascending, 0, 1);
  const Validation validation =
      compare_keys(std_sorted_segments_copy(input, segment, ascending), run.output);
  INFO("n = " << n << ", arrays of " << segment << ", " << distribution_name(distribution) << ", "
              << (ascending ? "ascending" : "descending"));
  CHECK_MESSAGE(validation.passed(), describe_mismatches(validation, n, "std::sort", segment));
  const unsigned padded = static_cast<unsigned>(next_power_of_two(n));
  CHECK(run.launches == launches_per_segment_sort(padded, segment));
}

const Distribution kHard[] = {Distribution::kUniform,   Distribution::kSorted,
                              Distribution::kReversed,  Distribution::kEqual,
                              Distribution::kFewUnique, Distribution::kExtremes};

}  // namespace

TEST_CASE("every array length from 2 to 2^12, at n = 2^12, 2^16 and 2^20") {
  for (unsigned q : {12u, 16u, 20u}) {
    for (unsigned segment = 2; segment <= (1u << 12); segment *= 2) {
      for (Distribution distribution : kHard) {
        for (const bool ascending : {true, false}) {
          check_segments(std::uint64_t{1} << q, segment, distribution, ascending);
        }
      }
    }
  }
}

TEST_CASE("a number of arrays that is not a power of two (the driver pads with whole arrays)") {
  for (unsigned segment = 2; segment <= (1u << 12); segment *= 2) {
    for (const bool ascending : {true, false}) {
      check_segments(std::uint64_t{3} * (1u << 12), segment, Distribution::kFewUnique, ascending);
      check_segments(std::uint64_t{5} * segment, segment, Distribution::kExtremes, ascending);
    }
  }
}

TEST_CASE("long arrays that need the global passes, and one array of everything") {
  for (unsigned segment : {1u << 14, 1u << 18, 1u << 22}) {
    for (const bool ascending : {true, false}) {
      check_segments(std::uint64_t{1} << 22, segment, Distribution::kUniform, ascending);
    }
  }
  check_segments(std::uint64_t{1} << 24, 1u << 24, Distribution::kUniform, false);
}
