// validate.h: exact comparison of a result with the expected keys, element by element.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct Mismatch {
  std::uint64_t index;
  int expected;
  int found;
};

struct Validation {
  std::uint64_t mismatches = 0;
  // The first few mismatching positions, in index order.
  std::vector<Mismatch> first;
  bool passed() const {
    return mismatches == 0;
  }
};

// Compares found with expected (same length) and keeps the first max_listed mismatches.
Validation compare_keys(const std::vector<int> &expected, const std::vector<int> &found,
                        std::size_t max_listed = 5);

// "3 of 1000 keys differ from std::sort; first mismatches: index 17: expected 5, found 7; ..."
// With arrays of `segment` keys sorted separately (segment > 0), each mismatch names its array
// and its index in that array: "array 3, index 1 (key 49): expected 5, found 7".
std::string describe_mismatches(const Validation &validation, std::uint64_t n,
                                const std::string &reference_name, std::uint64_t segment = 0);
