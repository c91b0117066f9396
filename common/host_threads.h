// host_threads.h: passes over the host's large arrays (the check's std::sort, the comparison
// with it, the kept reference's reading) in slices, each on a thread of its own.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

// The threads a pass over `count` keys uses: one below 2^20 keys (quick enough on its own);
// above, one a core, at most 16.
inline unsigned host_threads(std::size_t count) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return count >= (std::size_t{1} << 20) ? std::min(cores, 16u) : 1;
}

// Calls work(part, first, last) for each of `parts` (at least one) consecutive slices
// [first, last) of [0, count) and waits for them all: the first on the calling thread, each
// other on a thread of its own. Example: count 10, parts 4 gives the slices [0, 2), [2, 5),
// [5, 7), [7, 10). An exception in a slice (std::bad_alloc) reaches the caller once every slice
// is done, as it would without threads: the first slice's that threw.
template <typename Work>
void for_each_slice(std::size_t count, unsigned parts, Work work) {
  parts = std::max(1u, parts);
  std::vector<std::exception_ptr> failed(parts);
  const auto slice = [&](unsigned part) {
    try {
      work(part, count * part / parts, count * (part + 1) / parts);
    } catch (...) {
      failed[part] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (unsigned part = 1; part < parts; ++part) {
    threads.emplace_back(slice, part);
  }
  slice(0);
  for (std::thread &thread : threads) {
    thread.join();
  }
  for (const std::exception_ptr &error : failed) {
    if (error) {
      std::rethrow_exception(error);
    }
  }
}
