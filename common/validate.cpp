// validate.cpp: exact comparison with the expected keys.
#include "validate.h"

Validation compare_keys(const std::vector<int> &expected, const std::vector<int> &found,
                        std::size_t max_listed) {
  Validation validation;
  const std::size_t n = expected.size();
  if (found.size() != n) {
    validation.mismatches = n > found.size() ? n - found.size() : found.size() - n;
    return validation;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (expected[i] != found[i]) {
      if (validation.first.size() < max_listed) {
        validation.first.push_back({i, expected[i], found[i]});
      }
      ++validation.mismatches;
    }
  }
  return validation;
}

std::string describe_mismatches(const Validation &validation, std::uint64_t n,
                                const std::string &reference_name, std::uint64_t segment) {
  std::string text = std::to_string(validation.mismatches) + " of " + std::to_string(n) +
      " keys differ from " + reference_name;
  if (!validation.first.empty()) {
    text += "; first mismatches:";
    for (const Mismatch &mismatch : validation.first) {
      const std::string where = segment == 0 ? "index " + std::to_string(mismatch.index)
                                             : "array " + std::to_string(mismatch.index / segment) +
              ", index " + std::to_string(mismatch.index % segment) + " (key " +
              std::to_string(mismatch.index) + ")";
      text += " " + where + ": expected " + std::to_string(mismatch.expected) + ", found " +
          std::to_string(mismatch.found) + ";";
    }
    text.pop_back();
  }
  return text;
}
