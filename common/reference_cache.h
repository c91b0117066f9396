// reference_cache.h: the std::sort reference of a run kept on disk for the next run that sorts
// the same keys. The lab's record (tools/record.py) runs many programs on the same keys, and at
// 2^29 keys std::sort takes most of a run; the record names a folder in COURSE_REFERENCE_CACHE,
// and without it every run sorts its own reference, as a student's does.
#pragma once

#include <string>
#include <vector>

// std_sorted_copy(keys, ascending) (validate.h), read from the folder `cache` where an earlier
// call left it, else made and left there. A file is named by the keys' count, two hashes of them
// and the order; one that cannot be read whole, is out of order or does not hold the keys' sum
// is made again. Below 2^20 keys, or with an empty `cache`, nothing is kept.
std::vector<int> cached_sorted_copy(const std::vector<int> &keys, bool ascending,
                                    const std::string &cache);
