// validate.cpp: the std::sort yardstick and exact comparison with it.
#include "validate.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <thread>

#include "float_order.h"

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

namespace {

// "index 17" in one array, "array 3, index 1 (key 49)" in arrays of `segment` keys.
std::string position_name(std::uint64_t i, std::uint64_t segment) {
  return segment == 0 ? "index " + std::to_string(i)
                      : "array " + std::to_string(i / segment) + ", index " +
          std::to_string(i % segment) + " (key " + std::to_string(i) + ")";
}

// A key as the run reads it: an int, or a float with its bits ("nan (0x7fc00000)").
std::string key_text(int key, bool floats) {
  if (!floats) {
    return std::to_string(key);
  }
  char text[48];
  std::snprintf(text, sizeof text, "%g (0x%08x)",
                static_cast<double>(float_from_bits(static_cast<std::uint32_t>(key))),
                static_cast<unsigned>(key));
  return text;
}

}  // namespace

std::string describe_mismatches(const Validation &validation, std::uint64_t n,
                                const std::string &reference_name, std::uint64_t segment,
                                bool floats) {
  std::string text = std::to_string(validation.mismatches) + " of " + std::to_string(n) +
      " keys differ from " + reference_name;
  if (!validation.first.empty()) {
    text += "; first mismatches:";
    for (const Mismatch &mismatch : validation.first) {
      text += " " + position_name(mismatch.index, segment) + ": expected " +
          key_text(mismatch.expected, floats) + ", found " + key_text(mismatch.found, floats) + ";";
    }
    text.pop_back();
  }
  return text;
}

std::string check_indices(const std::vector<int> &input, const std::vector<int> &output,
                          const std::vector<int> &indices, std::uint64_t segment,
                          std::uint64_t kept) {
  const std::size_t length = segment == 0 ? input.size() : segment;
  // Indices given for each array, and in all.
  const std::size_t each = kept == 0 ? length : kept;
  const std::size_t n = input.size() / length * each;
  if (output.size() != n || indices.size() != n) {
    return std::to_string(indices.size()) + " indices for " + std::to_string(n) + " keys";
  }
  std::uint64_t wrong = 0;
  std::string first;
  // Which positions of the current array an index has named already.
  std::vector<bool> named(length);
  for (std::size_t array = 0; array < n / each; ++array) {
    const std::size_t start = array * length;
    std::fill(named.begin(), named.end(), false);
    for (std::size_t i = array * each; i < (array + 1) * each; ++i) {
      const long long index = indices[i];
      std::string problem;
      if (index < 0 || index >= static_cast<long long>(length)) {
        problem = "lies outside its array";
      } else if (named[index]) {
        problem = "is named twice in its array";
      } else if (input[start + index] != output[i]) {
        problem = "points at key " + std::to_string(input[start + index]) +
            ", not at the sorted key " + std::to_string(output[i]);
      }
      if (index >= 0 && index < static_cast<long long>(length)) {
        named[index] = true;
      }
      if (!problem.empty() && ++wrong <= 3) {
        first += " " + position_name(i, segment == 0 ? 0 : each) + ": index " +
            std::to_string(index) + " " + problem + ";";
      }
    }
  }
  if (wrong == 0) {
    return "";
  }
  first.pop_back();
  return std::to_string(wrong) + " of " + std::to_string(n) + " indices are wrong; first:" + first;
}

std::vector<int> first_of_arrays(const std::vector<int> &keys, std::uint64_t segment,
                                 std::uint64_t kept) {
  const std::size_t length = segment == 0 ? keys.size() : segment;
  std::vector<int> first;
  first.reserve(keys.size() / length * kept);
  for (std::size_t start = 0; start < keys.size(); start += length) {
    first.insert(first.end(), keys.begin() + start, keys.begin() + start + kept);
  }
  return first;
}

namespace {

template <typename Before>
void parallel_sort(std::vector<int> &keys, Before before) {
  const std::size_t n = keys.size();
  unsigned pieces = 1;
  // Below a million keys one thread is quick enough; above, use up to 16 threads in a power
  // of two, so that the merge rounds pair pieces up evenly.
  if (n >= (std::size_t{1} << 20)) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    while (pieces * 2 <= std::min(cores, 16u)) {
      pieces *= 2;
    }
  }
  if (pieces == 1) {
    std::sort(keys.begin(), keys.end(), before);
    return;
  }
  auto bound = [&](std::size_t piece) { return n * piece / pieces; };
  std::vector<std::thread> threads;
  for (unsigned piece = 0; piece < pieces; ++piece) {
    threads.emplace_back([&, piece] {
      std::sort(keys.begin() + bound(piece), keys.begin() + bound(piece + 1), before);
    });
  }
  for (std::thread &thread : threads) {
    thread.join();
  }
  // Merge neighbouring sorted runs in rounds: runs of 1 piece into runs of 2, then 4, ...
  std::vector<int> buffer(n);
  std::vector<int> *source = &keys;
  std::vector<int> *target = &buffer;
  for (unsigned width = 1; width < pieces; width *= 2) {
    threads.clear();
    for (unsigned piece = 0; piece < pieces; piece += 2 * width) {
      threads.emplace_back([&, piece] {
        const auto begin = source->begin();
        std::merge(begin + bound(piece), begin + bound(piece + width), begin + bound(piece + width),
                   begin + bound(piece + 2 * width), target->begin() + bound(piece), before);
      });
    }
    for (std::thread &thread : threads) {
      thread.join();
    }
    std::swap(source, target);
  }
  if (source != &keys) {
    keys.swap(buffer);
  }
}

}  // namespace

std::vector<int> std_sorted_copy(const std::vector<int> &keys, bool ascending) {
  std::vector<int> sorted(keys);
  if (ascending) {
    parallel_sort(sorted, std::less<int>());
  } else {
    parallel_sort(sorted, std::greater<int>());
  }
  return sorted;
}

void std_sort_segments(int *keys, std::size_t arrays, std::size_t segment, bool ascending) {
  for (std::size_t array = 0; array < arrays; ++array) {
    int *begin = keys + array * segment;
    if (ascending) {
      std::sort(begin, begin + segment);
    } else {
      std::sort(begin, begin + segment, std::greater<int>());
    }
  }
}

std::vector<int> std_sorted_segments_copy(const std::vector<int> &keys, std::size_t segment,
                                          bool ascending) {
  std::vector<int> sorted(keys);
  const std::size_t arrays = keys.size() / segment;
  // Each thread sorts a contiguous share of the arrays.
  const unsigned threads = keys.size() >= (std::size_t{1} << 20)
      ? std::max(1u, std::min(16u, std::thread::hardware_concurrency()))
      : 1;
  std::vector<std::thread> workers;
  for (unsigned worker = 0; worker < threads; ++worker) {
    const std::size_t first = arrays * worker / threads;
    const std::size_t last = arrays * (worker + 1) / threads;
    workers.emplace_back(std_sort_segments, sorted.data() + first * segment, last - first, segment,
                         ascending);
  }
  for (std::thread &worker : workers) {
    worker.join();
  }
  return sorted;
}
