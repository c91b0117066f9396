// gpu suite, stages that also give every key's position (v9_argsort): bitonic_argsort_segments,
// run through the same padding, transfer and timing code as the stage's program with --values,
// must sort every array as std::sort does and give indices that check_indices accepts (each
// position of an array named once, each pointing at an equal input key), and more: the sort is
// stable, so equal keys keep the order of their positions. Array lengths 2 to 2^12 and longer,
// a whole input that is not a power of two (its padding keys equal the largest real keys),
// distributions with many ties and the extremes of int32, both orders; and exactly the launches
// launches_per_segment_sort says.
#include <doctest/doctest.h>

#include <string>

#include "bitonic_index.h"
#include "keys.h"
#include "padding.h"
#include "sort_runner.h"
#include "stage.h"
#include "validate.h"

namespace {

// The first place where two equal keys of one array have their positions out of order, or "".
std::string unstable_tie(const std::vector<int> &keys, const std::vector<int> &indices,
                         std::uint64_t segment) {
  for (std::size_t i = 1; i < keys.size(); ++i) {
    if (i % segment != 0 && keys[i] == keys[i - 1] && indices[i] < indices[i - 1]) {
      return "key " + std::to_string(i) + ": position " + std::to_string(indices[i]) +
          " after position " + std::to_string(indices[i - 1]) + " of an equal key";
    }
  }
  return "";
}

// segment 0: the whole input is one array.
void check_argsort(std::uint64_t n, unsigned segment, Distribution distribution, bool ascending) {
  const std::vector<int> input =
      generate_keys(distribution, n, n * 5 + segment + static_cast<std::uint64_t>(distribution));
  const PairSort sort = [](int *keys, int *indices, unsigned count, unsigned array, bool up) {
    bitonic_argsort_segments(keys, indices, count, array, up);
  };
  const TimedRun run = time_device_sort(sort, true, true, input, segment, ascending, 0, 1);
  const std::uint64_t array = segment == 0 ? n : segment;
  const Validation validation =
      compare_keys(segment == 0 ? std_sorted_copy(input, ascending)
                                : std_sorted_segments_copy(input, segment, ascending),
                   run.output);
  INFO("n = " << n << ", arrays of " << array << ", " << distribution_name(distribution) << ", "
              << (ascending ? "ascending" : "descending"));
  REQUIRE_MESSAGE(validation.passed(), describe_mismatches(validation, n, "std::sort", segment));
  CHECK(check_indices(input, run.output, run.indices, segment) == "");
  CHECK(unstable_tie(run.output, run.indices, array) == "");
  const unsigned padded = static_cast<unsigned>(next_power_of_two(n));
  CHECK(run.launches == launches_per_segment_sort(padded, segment == 0 ? padded : segment));
}

}  // namespace

TEST_CASE("every array length from 2 to 2^12, with many ties and with the extremes") {
  for (unsigned segment = 2; segment <= (1u << 12); segment *= 2) {
    for (Distribution distribution :
         {Distribution::kFewUnique, Distribution::kExtremes, Distribution::kUniform}) {
      for (const bool ascending : {true, false}) {
        check_argsort(std::uint64_t{1} << 16, segment, distribution, ascending);
      }
    }
  }
}

TEST_CASE("a number of arrays that is not a power of two, and all keys equal") {
  for (unsigned segment : {2u, 64u, 2048u}) {
    for (const bool ascending : {true, false}) {
      check_argsort(std::uint64_t{3} * (1u << 12), segment, Distribution::kFewUnique, ascending);
      check_argsort(std::uint64_t{1} << 14, segment, Distribution::kEqual, ascending);
    }
  }
}

TEST_CASE("long arrays that need the global passes, and one whole input") {
  for (unsigned segment : {1u << 14, 1u << 18}) {
    for (const bool ascending : {true, false}) {
      check_argsort(std::uint64_t{1} << 20, segment, Distribution::kFewUnique, ascending);
    }
  }
  // Not a power of two: padded with INT_MAX (ascending) or INT_MIN, keys that the extremes hold
  // too; the stable sort keeps every real key before the padding.
  for (const bool ascending : {true, false}) {
    check_argsort(1000003, 0, Distribution::kExtremes, ascending);
    check_argsort(std::uint64_t{1} << 22, 0, Distribution::kFewUnique, ascending);
    // One key: no launch at all, and its position is 0.
    check_argsort(1, 0, Distribution::kUniform, ascending);
  }
}
