// validate.h: the expected keys (what std::sort makes of the input) and the exact comparison
// of a result with them, element by element.
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

// Compares found with expected (same length) and keeps the first max_listed mismatches, on
// `threads` threads (0: as host_threads.h gives for their length).
Validation compare_keys(const std::vector<int> &expected, const std::vector<int> &found,
                        std::size_t max_listed = 5, unsigned threads = 0);

// "3 of 1000 keys differ from std::sort; first mismatches: index 17: expected 5, found 7; ..."
// With arrays of `segment` keys sorted separately (segment > 0), each mismatch names its array
// and its index in that array: "array 3, index 1 (key 49): expected 5, found 7". With floats
// (the keys are floats' bits), each key is written as a float with its bits: "-0 (0x80000000)".
std::string describe_mismatches(const Validation &validation, std::uint64_t n,
                                const std::string &reference_name, std::uint64_t segment = 0,
                                bool floats = false);

// Checks the indices of an argsort (--values) of `input`, whose sorted keys are `output`: in
// every array of `segment` keys (0: one array of all), the indices must name each position of
// the array once, and indices[i] must point at an input key equal to output[i]; ties may break
// either way. Returns "" if they do, else "N of n indices are wrong; first: ..." (up to three).
// With `kept` (a top-k, --top), output and indices hold the first `kept` of each array, and each
// position may be named once at most. On `threads` threads at most, one array or more each (0:
// as host_threads.h gives).
std::string check_indices(const std::vector<int> &input, const std::vector<int> &output,
                          const std::vector<int> &indices, std::uint64_t segment,
                          std::uint64_t kept = 0, unsigned threads = 0);

// The first `kept` keys of every array of `segment` consecutive keys (0: one array of all), one
// array after another: what a top-k (--top) keeps of the sorted keys.
std::vector<int> first_of_arrays(const std::vector<int> &keys, std::uint64_t segment,
                                 std::uint64_t kept);

// What std::sort makes of keys (with std::greater for descending). From 2^20 keys on they are
// cut into pieces that std::sort handles on up to 16 threads, as the cores allow, then merged
// with std::merge, every thread merging a slice of each round's output: the same result, sooner
// on a machine with many cores (on the H200's host, 2^27 keys in 1.96 s, 3.76 s with one thread
// a merge, where the tour's one-core std::sort takes 15 s); host_sort.h has the form that takes
// the count.
std::vector<int> std_sorted_copy(const std::vector<int> &keys, bool ascending);

// Sorts each of the `arrays` arrays of `segment` consecutive keys from `keys` on its own with
// std::sort, on this thread (the std::sort baseline, and each thread of the copy below); in
// host_sort.cpp, with the baseline's timing.
void std_sort_segments(int *keys, std::size_t arrays, std::size_t segment, bool ascending);

// What std::sort makes of every array of `segment` consecutive keys, each sorted on its own
// (keys.size() a multiple of segment), on `threads` threads; without `threads`, on several for
// large inputs.
std::vector<int> std_sorted_segments_copy(const std::vector<int> &keys, std::size_t segment,
                                          bool ascending, unsigned threads);
std::vector<int> std_sorted_segments_copy(const std::vector<int> &keys, std::size_t segment,
                                          bool ascending);
