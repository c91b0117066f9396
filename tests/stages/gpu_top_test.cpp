// gpu suite, stages that also keep the first keys of each array alone (v10_top_k):
// bitonic_top_segments, run through the same padding, transfer and timing code as the stage's
// program with --top K (with and without --values), must leave the first K keys of every array
// equal to the first K of what std::sort makes of it, with indices that check_indices accepts
// (each position of an array named once at most, each pointing at an equal input key), and the
// very positions a stable sort keeps (equal keys by position). Every K
// the stage takes for arrays of 2 to 2^12 keys, inputs of 16 to 2048 keys (one small block),
// arrays long enough to need several block_top launches, a whole input that is not a power of
// two, ties and the extremes of int32, both orders; and exactly the launches launches_per_top
// says.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "bitonic_index.h"
#include "keys.h"
#include "padding.h"
#include "sort_runner.h"
#include "stage.h"
#include "validate.h"

namespace {

// Each array's positions in the order of a stable sort of its keys: equal keys by position, in
// both orders. A stable top-k's positions are the first K of these, exactly.
std::vector<int> stable_positions(const std::vector<int> &input, std::uint64_t length,
                                  bool ascending) {
  std::vector<int> positions(input.size());
  for (std::size_t start = 0; start < input.size(); start += length) {
    const auto first = positions.begin() + start;
    std::iota(first, first + length, 0);
    std::stable_sort(first, first + length, [&](int a, int b) {
      return ascending ? input[start + a] < input[start + b] : input[start + a] > input[start + b];
    });
  }
  return positions;
}

// segment 0: the whole input is one array.
void check_top(std::uint64_t n, unsigned segment, unsigned top, Distribution distribution,
               bool ascending, bool with_indices) {
  const std::vector<int> input = generate_keys(
      distribution, n, n * 7 + segment + top + static_cast<std::uint64_t>(distribution));
  const PairSort sort = [top](int *keys, int *indices, unsigned count, unsigned array, bool up) {
    bitonic_top_segments(keys, indices, count, array, top, up);
  };
  const TimedRun run =
      time_device_sort(sort, with_indices, true, input, segment, ascending, 0, 1, top);
  const std::vector<int> sorted = segment == 0
      ? std_sorted_copy(input, ascending)
      : std_sorted_segments_copy(input, segment, ascending);
  const Validation validation = compare_keys(first_of_arrays(sorted, segment, top), run.output);
  // Strings, not pointers: INFO keeps what it is given until a check fails.
  const std::string order = ascending ? "ascending" : "descending";
  const std::string what = with_indices ? ", with indices" : "";
  INFO("n = " << n << ", arrays of " << (segment == 0 ? n : segment) << ", top " << top << ", "
              << std::string(distribution_name(distribution)) << ", " << order << what);
  REQUIRE_MESSAGE(
      validation.passed(),
      describe_mismatches(validation, run.output.size(), "std::sort", segment == 0 ? 0 : top));
  if (with_indices) {
    CHECK(check_indices(input, run.output, run.indices, segment, top) == "");
    // Stable: of equal keys, those of lower positions are kept, and come first.
    CHECK(run.indices ==
          first_of_arrays(stable_positions(input, segment == 0 ? n : segment, ascending), segment,
                          top));
  }
  const unsigned padded = static_cast<unsigned>(next_power_of_two(n));
  CHECK(run.launches == launches_per_top(padded, segment == 0 ? padded : segment, top));
}

}  // namespace

TEST_CASE("every K of arrays from 2 to 2^12 keys, with many ties and with the extremes") {
  for (unsigned segment = 2; segment <= (1u << 12); segment *= 2) {
    for (unsigned top = 1; top <= segment; top *= 2) {
      if (top > kMaxTop && top < segment) {
        continue;
      }
      for (Distribution distribution : {Distribution::kFewUnique, Distribution::kExtremes}) {
        for (const bool ascending : {true, false}) {
          check_top(std::uint64_t{1} << 15, segment, top, distribution, ascending, true);
        }
      }
      // Distinct keys, so that an index that points at the wrong place cannot land on an equal
      // key; and keys alone.
      check_top(std::uint64_t{1} << 15, segment, top, Distribution::kUniform, true, true);
      check_top(std::uint64_t{1} << 15, segment, top, Distribution::kUniform, false, false);
    }
  }
}

TEST_CASE("inputs of fewer than 4096 keys: one block of fewer than 256 threads, or of a warp") {
  // v16's register_top runs a block of n / 16 threads here: below 512 keys fewer than a warp's
  // lanes, whose shuffles name only those. Whole inputs and several arrays, K up to 16.
  for (std::uint64_t n = 16; n <= 2048; n *= 2) {
    for (unsigned top : {1u, 8u, 16u}) {
      if (top >= n) {
        continue;
      }
      for (const bool ascending : {true, false}) {
        check_top(n, 0, top, Distribution::kFewUnique, ascending, true);
        check_top(n, 0, top, Distribution::kUniform, ascending, false);
        if (n >= 64) {
          check_top(n, 32, top, Distribution::kExtremes, ascending, true);
        }
      }
    }
  }
  // Not a power of two: 300 keys pad to 512.
  check_top(300, 0, 16, Distribution::kUniform, false, true);
}

TEST_CASE("long arrays that need several block_top launches, and one whole input") {
  for (unsigned top : {1u, 16u, 1024u}) {
    for (const bool ascending : {true, false}) {
      check_top(std::uint64_t{1} << 20, 1u << 18, top, Distribution::kUniform, ascending, true);
      check_top(std::uint64_t{1} << 20, 0, top, Distribution::kFewUnique, ascending, false);
    }
  }
  // Not a power of two: the padding (INT_MAX ascending, INT_MIN descending) sorts last, so it
  // never enters the first K when K <= n.
  for (const bool ascending : {true, false}) {
    check_top(1000003, 0, 64, Distribution::kExtremes, ascending, true);
    check_top(1, 0, 1, Distribution::kUniform, ascending, true);
  }
}
