// gpu suite, stages that also give every key's position (v9_argsort): bitonic_argsort_segments,
// run through the same padding, transfer and timing code as the stage's program with --values,
// must sort every array as std::sort does and give indices that check_indices accepts (each
// position of an array named once, each pointing at an equal input key), and more: the sort is
// stable, so equal keys keep the order of their positions. Array lengths 2 to 2^12 and longer,
// a whole input that is not a power of two (its padding keys equal the largest real keys),
// distributions with many ties and the extremes of int32, keys that agree in all but the bits a
// position takes (v17_prefix_argsort's runs; runs of two alone, which v20_register_fixup settles
// in registers), both orders; and exactly the launches
// launches_per_segment_sort says.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
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

// segment 0: the whole input is one array; `what` names the input in a failure's message.
void check_argsort_of(const std::vector<int> &input, unsigned segment, const std::string &what,
                      bool ascending) {
  const std::uint64_t n = input.size();
  const PairSort sort = [](int *keys, int *indices, unsigned count, unsigned array, bool up) {
    bitonic_argsort_segments(keys, indices, count, array, up);
  };
  const TimedRun run = time_device_sort(sort, true, true, input, segment, ascending, 0, 1);
  const std::uint64_t array = segment == 0 ? n : segment;
  const Validation validation =
      compare_keys(segment == 0 ? std_sorted_copy(input, ascending)
                                : std_sorted_segments_copy(input, segment, ascending),
                   run.output);
  INFO("n = " << n << ", arrays of " << array << ", " << what << ", "
              << (ascending ? "ascending" : "descending"));
  REQUIRE_MESSAGE(validation.passed(), describe_mismatches(validation, n, "std::sort", segment));
  CHECK(check_indices(input, run.output, run.indices, segment) == "");
  CHECK(unstable_tie(run.output, run.indices, array) == "");
  const unsigned padded = static_cast<unsigned>(next_power_of_two(n));
  CHECK(run.launches == launches_per_segment_sort(padded, segment == 0 ? padded : segment));
}

void check_argsort(std::uint64_t n, unsigned segment, Distribution distribution, bool ascending) {
  const std::vector<int> input =
      generate_keys(distribution, n, n * 5 + segment + static_cast<std::uint64_t>(distribution));
  check_argsort_of(input, segment, distribution_name(distribution), ascending);
}

// n keys in arrays of `segment` = 2^b whose keys come in runs that agree in all but their low
// b bits, the bits a position takes: run lengths 1, 2, ..., longest, 1, 2, ..., the count going
// on from one array to the next (a run cut at an array's end, the next array starting at the
// next length, so that arrays of 2 and 4 keys get runs of 2 and 4 too), each run's high bits
// drawn anew, its low bits drawn for each key (a quarter of them copying the key before: equal
// keys), then each array shuffled. Such keys share the high digit of v17_prefix_argsort's
// words, so its fix-up must order them, or, in a run longer than it counts through, its
// fallback; runs of at most two, v20_register_fixup orders in registers, unless one lies across
// two warps. The ints' top bit is flipped, as ordered_bits flips it back.
std::vector<int> run_keys(std::uint64_t n, unsigned segment, unsigned longest) {
  std::mt19937 random(n + segment * 7 + longest);
  std::vector<int> keys(n);
  const unsigned mask = segment - 1;
  unsigned length = 1;
  for (std::uint64_t start = 0; start < n; start += segment) {
    unsigned place = 0, low = 0;
    while (place < segment) {
      const unsigned high = static_cast<unsigned>(random()) & ~mask;
      for (unsigned r = 0; r < length && place < segment; ++r, ++place) {
        low = r > 0 && random() % 4 == 0 ? low : static_cast<unsigned>(random()) & mask;
        keys[start + place] = static_cast<int>((high | low) ^ 0x80000000u);
      }
      length = length % longest + 1;
    }
    std::shuffle(keys.begin() + start, keys.begin() + start + segment, random);
  }
  return keys;
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

TEST_CASE("keys that agree in all but a position's bits, in runs of up to 2, 4 and 8") {
  for (unsigned segment = 2; segment <= (1u << 12); segment *= 2) {
    for (const unsigned longest : {2u, 4u, 8u}) {
      for (const bool ascending : {true, false}) {
        check_argsort_of(run_keys(std::uint64_t{1} << 16, segment, longest), segment,
                         "runs of up to " + std::to_string(longest), ascending);
        // One whole input of `segment` keys: one block, fewer than 16 threads up to 128 keys,
        // one thread below 16.
        check_argsort_of(run_keys(segment, segment, longest), 0,
                         "one input, runs of up to " + std::to_string(longest), ascending);
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
