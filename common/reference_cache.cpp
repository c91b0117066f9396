// reference_cache.cpp: keys and their std::sort reference kept on disk from one run to the next.
#include "reference_cache.h"

#include <cstdint>
#include <cstdio>
#include <fstream>

#include <unistd.h>

#include "validate.h"

namespace {

// Two 64-bit hashes of the keys, taken two keys at a time, each a multiply-and-rotate with a
// multiplier of its own, as 32 hexadecimal digits: keys that differ anywhere give different
// digits, as far as 128 bits tell. (The two chains do not wait for each other, so the processor
// runs them side by side.)
std::string keys_hash(const std::vector<int> &keys) {
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
  char digits[33];
  std::snprintf(digits, sizeof digits, "%016llx%016llx", static_cast<unsigned long long>(first),
                static_cast<unsigned long long>(second));
  return digits;
}

std::int64_t sum(const std::vector<int> &keys) {
  std::int64_t total = 0;
  for (const int key : keys) {
    total += key;
  }
  return total;
}

// The file's `count` keys, or an empty vector where it is missing or of another length; with
// `hashed`, the file ends in the keys' hash (keys_hash), and one whose keys do not give it is
// empty too.
std::vector<int> read_file(const std::string &path, std::size_t count, bool hashed) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  const auto bytes = static_cast<std::streamsize>(count * sizeof(int));
  const std::streamsize hash_bytes = hashed ? 32 : 0;
  if (!file || file.tellg() != bytes + hash_bytes || !file.seekg(0)) {
    return {};
  }
  std::vector<int> keys(count);
  std::string hash(static_cast<std::size_t>(hash_bytes), ' ');
  if (!file.read(reinterpret_cast<char *>(keys.data()), bytes) ||
      !file.read(&hash[0], hash_bytes) || (hashed && hash != keys_hash(keys))) {
    return {};
  }
  return keys;
}

// The file's keys, or an empty vector where it is missing, of another length, out of order or
// does not hold the sum of `keys` (a cheap check that it is theirs, sorted).
std::vector<int> read_sorted(const std::string &path, const std::vector<int> &keys,
                             bool ascending) {
  std::vector<int> sorted = read_file(path, keys.size(), false);
  if (sorted.empty()) {
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

// Leaves `keys` at `path`, and after them `trailer`: written to a file of its own and renamed,
// so that a reader never finds half of one. A folder that cannot be written leaves the run as
// it would be without the cache.
void keep(const std::string &path, const std::vector<int> &keys, const std::string &trailer) {
  const std::string partial = path + "." + std::to_string(getpid()) + ".partial";
  std::ofstream file(partial, std::ios::binary | std::ios::trunc);
  if (file.write(reinterpret_cast<const char *>(keys.data()),
                 static_cast<std::streamsize>(keys.size() * sizeof(int))) &&
      file.write(trailer.data(), static_cast<std::streamsize>(trailer.size())) && file.flush()) {
    file.close();
    if (file.fail() || std::rename(partial.c_str(), path.c_str()) != 0) {
      std::remove(partial.c_str());
    }
  } else {
    file.close();
    std::remove(partial.c_str());
  }
}

bool kept_here(const std::string &cache, std::size_t count) {
  return !cache.empty() && count >= (std::size_t{1} << 20);
}

std::vector<int> made_keys(Distribution distribution, std::size_t n, std::uint64_t seed,
                           bool floats) {
  return floats ? generate_float_keys(distribution, n, seed) : generate_keys(distribution, n, seed);
}

}  // namespace

std::vector<int> cached_keys(Distribution distribution, std::size_t n, std::uint64_t seed,
                             bool floats, const std::string &cache) {
  if (!kept_here(cache, n)) {
    return made_keys(distribution, n, seed, floats);
  }
  const std::string path = cache + "/" + distribution_name(distribution) + "-" + std::to_string(n) +
      "-" + std::to_string(seed) + (floats ? "-float" : "-int") + ".input";
  // The file ends in the keys' hash: a file damaged since it was written is made again.
  std::vector<int> keys = read_file(path, n, true);
  if (keys.empty()) {
    keys = made_keys(distribution, n, seed, floats);
    keep(path, keys, keys_hash(keys));
  }
  return keys;
}

std::vector<int> cached_sorted_copy(const std::vector<int> &keys, bool ascending,
                                    const std::string &cache) {
  if (!kept_here(cache, keys.size())) {
    return std_sorted_copy(keys, ascending);
  }
  const std::string path = cache + "/" + std::to_string(keys.size()) + "-" + keys_hash(keys) +
      (ascending ? "-asc" : "-desc") + ".sorted";
  std::vector<int> sorted = read_sorted(path, keys, ascending);
  if (sorted.empty()) {
    sorted = std_sorted_copy(keys, ascending);
    keep(path, sorted, "");
  }
  return sorted;
}
