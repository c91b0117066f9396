// validate.cpp: the std::sort yardstick and exact comparison with it.
#include "validate.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <thread>

#include "float_order.h"
#include "host_sort.h"
#include "host_threads.h"

Validation compare_keys(const std::vector<int> &expected, const std::vector<int> &found,
                        std::size_t max_listed, unsigned threads) {
  Validation validation;
  const std::size_t n = expected.size();
  if (found.size() != n) {
    validation.mismatches = n > found.size() ? n - found.size() : found.size() - n;
    return validation;
  }
  // Each slice of the keys counts its own mismatches and keeps its first few; the slices' lists,
  // joined in order, hold the first max_listed of all.
  const unsigned parts = threads != 0 ? threads : host_threads(n);
  std::vector<Validation> slices(parts);
  for_each_slice(n, parts, [&](unsigned part, std::size_t first, std::size_t last) {
    Validation &slice = slices[part];
    for (std::size_t i = first; i < last; ++i) {
      if (expected[i] != found[i]) {
        if (slice.first.size() < max_listed) {
          slice.first.push_back({i, expected[i], found[i]});
        }
        ++slice.mismatches;
      }
    }
  });
  for (const Validation &slice : slices) {
    validation.mismatches += slice.mismatches;
    validation.first.insert(validation.first.end(), slice.first.begin(), slice.first.end());
  }
  validation.first.resize(std::min(validation.first.size(), max_listed));
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
                          std::uint64_t kept, unsigned threads) {
  const std::size_t length = segment == 0 ? input.size() : segment;
  // Indices given for each array, and in all.
  const std::size_t each = kept == 0 ? length : kept;
  const std::size_t n = input.size() / length * each;
  if (output.size() != n || indices.size() != n) {
    return std::to_string(indices.size()) + " indices for " + std::to_string(n) + " keys";
  }
  // Each slice of the arrays, on a thread of its own, counts its wrong indices and describes its
  // first three; the slices' descriptions, joined in order, begin with the first three of all.
  const std::size_t arrays = n / each;
  // No more slices than arrays: each slice holds a table of one array's positions.
  const unsigned parts = static_cast<unsigned>(std::min<std::size_t>(
      threads != 0 ? threads : host_threads(n), std::max<std::size_t>(1, arrays)));
  std::vector<std::uint64_t> wrong_in(parts);
  std::vector<std::vector<std::string>> first_in(parts);
  for_each_slice(arrays, parts, [&](unsigned part, std::size_t first_array, std::size_t last) {
    // Which positions of the current array an index has named already.
    std::vector<bool> named(length);
    for (std::size_t array = first_array; array < last; ++array) {
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
        if (!problem.empty() && ++wrong_in[part] <= 3) {
          first_in[part].push_back(" " + position_name(i, segment == 0 ? 0 : each) + ": index " +
                                   std::to_string(index) + " " + problem + ";");
        }
      }
    }
  });
  std::uint64_t wrong = 0;
  std::string first;
  int described = 0;
  for (unsigned part = 0; part < parts; ++part) {
    wrong += wrong_in[part];
    for (const std::string &description : first_in[part]) {
      if (described < 3) {
        first += description;
        ++described;
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

// How many keys of the sorted run a[0, m) come before output position k of its merge with the
// sorted run b[0, n): std::merge's order, in which a's key goes first on a tie. A binary search
// for the split i of k = i + j. Example: a = {1, 3, 5}, b = {2, 4}, k = 3 (the output's 1, 2, 3
// come first): co_rank = 2, as 1 and 3 of a and 2 of b fill positions 0 .. 2.
template <typename Before>
std::size_t co_rank(std::size_t k, const int *a, std::size_t m, const int *b, std::size_t n,
                    Before before) {
  std::size_t low = k > n ? k - n : 0;
  std::size_t high = std::min(k, m);
  while (low < high) {
    const std::size_t i = low + (high - low) / 2;
    // i < high <= k, so j = k - i >= 1; a[i] going before b[j - 1] means more of a come first.
    if (!before(b[k - i - 1], a[i])) {
      low = i + 1;
    } else {
      high = i;
    }
  }
  return low;
}

// Merges the sorted runs source[lo, middle) and source[middle, hi) into target[lo, hi) as
// `parts` slices of the output, each on a thread of its own (added to `threads`).
template <typename Before>
void merge_in_slices(const int *source, int *target, std::size_t lo, std::size_t middle,
                     std::size_t hi, unsigned parts, Before before,
                     std::vector<std::thread> &threads) {
  const int *a = source + lo;
  const int *b = source + middle;
  const std::size_t m = middle - lo;
  const std::size_t n = hi - middle;
  for (unsigned part = 0; part < parts; ++part) {
    threads.emplace_back([=] {
      const std::size_t first = (m + n) * part / parts;
      const std::size_t last = (m + n) * (part + 1) / parts;
      const std::size_t i0 = co_rank(first, a, m, b, n, before);
      const std::size_t i1 = co_rank(last, a, m, b, n, before);
      std::merge(a + i0, a + i1, b + (first - i0), b + (last - i1), target + lo + first, before);
    });
  }
}

template <typename Before>
std::vector<int> parallel_sorted_copy(const std::vector<int> &keys, unsigned pieces,
                                      Before before) {
  const std::size_t n = keys.size();
  std::vector<int> sorted(n);
  if (pieces <= 1) {
    std::copy(keys.begin(), keys.end(), sorted.begin());
    std::sort(sorted.begin(), sorted.end(), before);
    return sorted;
  }
  // Each round of merges writes into the other buffer, so the pieces start in the buffer that
  // lets the last round write `sorted`. The scratch buffer is not zeroed first: its pages are
  // first touched by the threads that fill it, at once.
  std::unique_ptr<int[]> scratch(new int[n]);
  unsigned rounds = 0;
  while ((1u << rounds) < pieces) {
    ++rounds;
  }
  int *source = rounds % 2 == 0 ? sorted.data() : scratch.get();
  int *target = rounds % 2 == 0 ? scratch.get() : sorted.data();
  // Piece p is the slice [bound(p), bound(p + 1)) of for_each_slice.
  auto bound = [&](std::size_t piece) { return n * piece / pieces; };
  for_each_slice(n, pieces, [&](unsigned, std::size_t first, std::size_t last) {
    std::copy(keys.begin() + first, keys.begin() + last, source + first);
    std::sort(source + first, source + last, before);
  });
  std::vector<std::thread> threads;
  // Merge neighbouring sorted runs in rounds: runs of 1 piece into runs of 2, then 4, ...; each
  // merge of two runs of `width` pieces is cut into 2 x width slices, so every round keeps all
  // `pieces` threads at work (the last round, one merge, too).
  for (unsigned width = 1; width < pieces; width *= 2) {
    threads.clear();
    for (unsigned piece = 0; piece < pieces; piece += 2 * width) {
      merge_in_slices(source, target, bound(piece), bound(piece + width), bound(piece + 2 * width),
                      2 * width, before, threads);
    }
    for (std::thread &thread : threads) {
      thread.join();
    }
    std::swap(source, target);
  }
  return sorted;
}

}  // namespace

std::vector<int> std_sorted_copy(const std::vector<int> &keys, bool ascending, unsigned threads) {
  // The merge rounds pair pieces up: a power of two of them, at most `threads`.
  unsigned pieces = 1;
  while (pieces * 2 <= threads) {
    pieces *= 2;
  }
  return ascending ? parallel_sorted_copy(keys, pieces, std::less<int>())
                   : parallel_sorted_copy(keys, pieces, std::greater<int>());
}

std::vector<int> std_sorted_copy(const std::vector<int> &keys, bool ascending) {
  return std_sorted_copy(keys, ascending, host_threads(keys.size()));
}

std::vector<int> std_sorted_segments_copy(const std::vector<int> &keys, std::size_t segment,
                                          bool ascending, unsigned threads) {
  const std::size_t arrays = keys.size() / segment;
  threads = std::max(1u, threads);
  if (arrays == 1) {
    return std_sorted_copy(keys, ascending, threads);
  }
  std::vector<int> sorted(keys);
  if (arrays < threads) {
    // Fewer arrays than threads: one array after another, each sorted by every thread
    // (std_sorted_copy's merges), so that 2^27 keys in eight arrays take seconds, not the
    // minute one thread an array would; beside the keys and the result, at most three arrays'
    // worth of memory at a time (a copy, its sort and the merges' scratch).
    for (std::size_t array = 0; array < arrays; ++array) {
      const auto first = keys.begin() + static_cast<std::ptrdiff_t>(array * segment);
      const std::vector<int> one =
          std_sorted_copy(std::vector<int>(first, first + static_cast<std::ptrdiff_t>(segment)),
                          ascending, threads);
      std::copy(one.begin(), one.end(), sorted.begin() + (first - keys.begin()));
    }
    return sorted;
  }
  // Each thread sorts a contiguous share of the arrays.
  for_each_slice(arrays, threads, [&](unsigned, std::size_t first, std::size_t last) {
    std_sort_segments(sorted.data() + first * segment, last - first, segment, ascending);
  });
  return sorted;
}

std::vector<int> std_sorted_segments_copy(const std::vector<int> &keys, std::size_t segment,
                                          bool ascending) {
  return std_sorted_segments_copy(keys, segment, ascending, host_threads(keys.size()));
}
