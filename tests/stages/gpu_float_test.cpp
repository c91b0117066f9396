// gpu suite, stages that also sort floats (v11_float_keys): bitonic_float_segments, run through
// the same padding, transfer and timing code as the stage's program with --type float, must
// leave every array (or the first K keys of it, with a top-k) equal bit for bit to what std::sort
// makes of it in IEEE 754 totalOrder (common/float_order.h): -0.0 before +0.0, NaNs of both
// signs and every payload at the ends. With indices, they must be what a stable sort gives.
// Arrays of 2 to 2^12 keys and whole inputs, full sorts and top-k, both orders; every
// distribution, the float extremes (NaN, infinities, zeros, denormals) among them; a whole input
// that is not a power of two (the padding must be the float that sorts last: +NaN ascending,
// -NaN descending); and exactly the launches launches_per_top says.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "bitonic_index.h"
#include "float_order.h"
#include "keys.h"
#include "padding.h"
#include "sort_runner.h"
#include "stage.h"
#include "validate.h"

namespace {

// Whether float bits a come before b in the requested order.
bool before(int a, int b, bool ascending) {
  return ascending ? float_rank(a) < float_rank(b) : float_rank(a) > float_rank(b);
}

// Each array sorted on its own in totalOrder with std::stable_sort: the keys, and the positions
// a stable argsort gives (equal bit patterns by position).
void stable_sort_arrays(const std::vector<int> &input, std::uint64_t length, bool ascending,
                        std::vector<int> &keys, std::vector<int> &positions) {
  keys.resize(input.size());
  positions.resize(input.size());
  for (std::size_t start = 0; start < input.size(); start += length) {
    const auto first = positions.begin() + start;
    std::iota(first, first + length, 0);
    std::stable_sort(first, first + length, [&](int a, int b) {
      return before(input[start + a], input[start + b], ascending);
    });
    for (std::size_t i = start; i < start + length; ++i) {
      keys[i] = input[start + positions[i]];
    }
  }
}

// segment 0: the whole input is one array; top 0: every key is kept.
void check_floats(std::uint64_t n, unsigned segment, unsigned top, Distribution distribution,
                  bool ascending, bool with_indices) {
  const std::vector<int> input = generate_float_keys(
      distribution, n, n * 5 + segment + top + static_cast<std::uint64_t>(distribution));
  const PairSort sort = [top](int *keys, int *indices, unsigned count, unsigned array, bool up) {
    bitonic_float_segments(reinterpret_cast<float *>(keys), indices, count, array,
                           top == 0 ? array : top, up);
  };
  const TimedRun run =
      time_device_sort(sort, with_indices, true, input, segment, ascending, 0, 1, top, true);
  std::vector<int> keys, positions;
  stable_sort_arrays(input, segment == 0 ? n : segment, ascending, keys, positions);
  // Strings, not pointers: INFO keeps what it is given until a check fails.
  const std::string order = ascending ? "ascending" : "descending";
  const std::string what = with_indices ? ", with indices" : "";
  INFO("n = " << n << ", arrays of " << (segment == 0 ? n : segment) << ", top " << top << ", "
              << std::string(distribution_name(distribution)) << ", " << order << what);
  // What comes back: every key, or the first `top` of each array.
  const std::uint64_t kept = top == 0 ? (segment == 0 ? n : segment) : top;
  const Validation validation = compare_keys(first_of_arrays(keys, segment, kept), run.output);
  REQUIRE_MESSAGE(validation.passed(),
                  describe_mismatches(validation, run.output.size(), "std::stable_sort",
                                      segment == 0 ? 0 : (top == 0 ? segment : top), true));
  if (with_indices) {
    CHECK(run.indices == first_of_arrays(positions, segment, kept));
  }
  const unsigned padded = static_cast<unsigned>(next_power_of_two(n));
  const unsigned array = segment == 0 ? padded : segment;
  CHECK(run.launches == launches_per_top(padded, array, top == 0 ? array : top));
}

}  // namespace

TEST_CASE("full sorts and top-k of arrays from 2 to 2^12 floats, every distribution") {
  for (unsigned segment = 2; segment <= (1u << 12); segment *= 4) {
    for (Distribution distribution : all_distributions()) {
      for (const bool ascending : {true, false}) {
        check_floats(std::uint64_t{1} << 14, segment, 0, distribution, ascending, true);
      }
    }
    for (unsigned top : {1u, 2u, segment / 2}) {
      if (top == 0 || top > kMaxTop || top >= segment) {
        continue;
      }
      for (const bool ascending : {true, false}) {
        check_floats(std::uint64_t{1} << 14, segment, top, Distribution::kExtremes, ascending,
                     true);
        check_floats(std::uint64_t{1} << 14, segment, top, Distribution::kUniform, ascending,
                     false);
      }
    }
  }
}

TEST_CASE("whole inputs: several global passes, padding, one key") {
  for (const bool ascending : {true, false}) {
    check_floats(std::uint64_t{1} << 20, 0, 0, Distribution::kUniform, ascending, true);
    check_floats(std::uint64_t{1} << 20, 0, 16, Distribution::kExtremes, ascending, true);
    // Not a power of two: ascending, the padding +NaN 0x7fffffff ties with the largest real NaN
    // and changes nothing; descending, -NaN 0xffffffff must sort after every real key.
    check_floats(1000003, 0, 0, Distribution::kExtremes, ascending, true);
    check_floats(1000003, 0, 0, Distribution::kUniform, ascending, false);
    check_floats(1, 0, 0, Distribution::kUniform, ascending, true);
  }
}
