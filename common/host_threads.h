// host_threads.h: passes over the host's large arrays (the check's std::sort, the comparison
// with it, the kept reference's reading) on all its cores.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

// The threads a pass over `count` keys uses: one below 2^20 keys (quick enough on its own);
// above, one a core, at most 16.
inline unsigned host_threads(std::size_t count) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return count >= (std::size_t{1} << 20) ? std::min(cores, 16u) : 1;
}

// Calls work(part, first, last) for each of `parts` consecutive slices [first, last) of
// [0, count), each on a thread of its own, and waits for them all. Example: count 10, parts 4
// gives the slices [0, 2), [2, 5), [5, 7), [7, 10).
template <typename Work>
void for_each_slice(std::size_t count, unsigned parts, Work work) {
  std::vector<std::thread> threads;
  for (unsigned part = 0; part < parts; ++part) {
    threads.emplace_back(work, part, count * part / parts, count * (part + 1) / parts);
  }
  for (std::thread &thread : threads) {
    thread.join();
  }
}
