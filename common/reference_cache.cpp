// reference_cache.cpp: the std::sort reference kept on disk from one run to the next.
#include "reference_cache.h"

#include <cstdint>
#include <cstdio>
#include <fstream>

#include <unistd.h>

#include "validate.h"

namespace {

// Two 64-bit hashes of the keys, taken two keys at a time, each a multiply-and-rotate with a
// multiplier of its own: keys that differ anywhere give different names, as far as 128 bits
// tell. (The two chains do not wait for each other, so the processor runs them side by side.)
std::string keys_name(const std::vector<int> &keys, bool ascending) {
  std::uint64_t first = 0x243F6A8885A308D3ull;
  std::uint64_t second = 0x13198A2E03707344ull;
  for (std::size_t i = 0; i < keys.size(); i += 2) {
    const std::uint64_t low = static_cast<std::uint32_t>(keys[i]);
    const std::uint64_t high = i + 1 < keys.size() ? static_cast<std::uint32_t>(keys[i + 1]) : 0;
    const std::uint64_t value = low | (high << 32);
    first = (first ^ value) * 0x9E3779B97F4A7C15ull;
    first = (first << 29) | (first >> 35);
    second = (second ^ value) * 0xC2B2AE3D27D4EB4Full;
    second = (second << 31) | (second >> 33);
  }
  char name[80];
  std::snprintf(name, sizeof name, "%zu-%016llx%016llx-%s.keys", keys.size(),
                static_cast<unsigned long long>(first), static_cast<unsigned long long>(second),
                ascending ? "asc" : "desc");
  return name;
}

std::int64_t sum(const std::vector<int> &keys) {
  std::int64_t total = 0;
  for (const int key : keys) {
    total += key;
  }
  return total;
}

// The file's keys, or an empty vector where it is missing, of another length, out of order or
// does not hold the sum of `keys` (a cheap check that it is theirs, sorted).
std::vector<int> read_sorted(const std::string &path, const std::vector<int> &keys,
                             bool ascending) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  const auto bytes = static_cast<std::streamsize>(keys.size() * sizeof(int));
  if (!file || file.tellg() != bytes || !file.seekg(0)) {
    return {};
  }
  std::vector<int> sorted(keys.size());
  if (!file.read(reinterpret_cast<char *>(sorted.data()), bytes)) {
    return {};
  }
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (ascending ? sorted[i] < sorted[i - 1] : sorted[i] > sorted[i - 1]) {
      return {};
    }
  }
  if (sum(sorted) != sum(keys)) {
    return {};
  }
  return sorted;
}

}  // namespace

std::vector<int> cached_sorted_copy(const std::vector<int> &keys, bool ascending,
                                    const std::string &cache) {
  if (cache.empty() || keys.size() < (std::size_t{1} << 20)) {
    return std_sorted_copy(keys, ascending);
  }
  const std::string path = cache + "/" + keys_name(keys, ascending);
  std::vector<int> sorted = read_sorted(path, keys, ascending);
  if (!sorted.empty()) {
    return sorted;
  }
  sorted = std_sorted_copy(keys, ascending);
  // Written to a file of its own and renamed: a reader never finds half of one. A folder that
  // cannot be written leaves the run as it would be without the cache.
  const std::string partial = path + "." + std::to_string(getpid()) + ".partial";
  std::ofstream file(partial, std::ios::binary | std::ios::trunc);
  if (file.write(reinterpret_cast<const char *>(sorted.data()),
                 static_cast<std::streamsize>(sorted.size() * sizeof(int))) &&
      file.flush()) {
    file.close();
    if (std::rename(partial.c_str(), path.c_str()) != 0) {
      std::remove(partial.c_str());
    }
  } else {
    file.close();
    std::remove(partial.c_str());
  }
  return sorted;
}
