// reference_cache.h: a run's keys and their std::sort reference kept on disk for the next run
// that sorts the same keys. The lab's record (tools/record.py) runs many programs on the same
// keys, and at 2^29 keys making them and sorting them with std::sort take most of a run; the
// record names a folder in COURSE_REFERENCE_CACHE, and without it every run makes its own keys
// and sorts its own reference, as a student's does. The folder serves the runs of one build: a
// kept file names the keys it holds, not the generator that made them, so record.py empties it
// before each chunk (a folder kept across a change of keys.cpp would give the old keys).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "keys.h"

// generate_keys(distribution, n, seed) (generate_float_keys with `floats`), read from the folder
// `cache` where an earlier call left them, else made and left there. A file is named by the
// distribution, the count, the --seed and the type, and ends in a hash of its keys; one that cannot
// be read whole, or whose keys do not give the hash, is made again. Below 2^20 keys, or with an
// empty `cache`, nothing is kept.
std::vector<int> cached_keys(Distribution distribution, std::size_t n, std::uint64_t seed,
                             bool floats, const std::string &cache);

// std_sorted_copy(keys, ascending) (validate.h), read from the folder `cache` where an earlier
// call left it, else made and left there. A file is named by the keys' count, two hashes of them
// and the order; one that cannot be read whole, is out of order or does not hold the keys' sum
// is made again. Below 2^20 keys, or with an empty `cache`, nothing is kept.
std::vector<int> cached_sorted_copy(const std::vector<int> &keys, bool ascending,
                                    const std::string &cache);
