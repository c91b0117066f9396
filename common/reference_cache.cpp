// reference_cache.cpp: keys and their std::sort reference kept on disk from one run to the next.
#include "reference_cache.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_threads.h"
#include "validate.h"

namespace {

// The files are read, hashed and checked in this many slices, each on a thread of its own: a
// fixed count, so that a file's hash does not depend on the cores of the machine that wrote it.
constexpr unsigned kSlices = 16;

// Two 64-bit hashes of keys[first, last), taken two keys at a time, each a multiply-and-rotate
// with a multiplier of its own, from starting values of their own. (The two chains do not wait
// for each other, so the processor runs them side by side.)
void hash_slice(const std::vector<int> &keys, std::size_t first, std::size_t last,
                std::uint64_t &one, std::uint64_t &two) {
  for (std::size_t i = first; i < last; i += 2) {
    const std::uint64_t low = static_cast<std::uint32_t>(keys[i]);
    const std::uint64_t high = i + 1 < last ? static_cast<std::uint32_t>(keys[i + 1]) : 0;
    const std::uint64_t value = low | (high << 32);
    one = (one ^ value) * 0x9E3779B97F4A7C15ull;
    one = (one << 29) | (one >> 35);
    two = (two ^ value) * 0xC2B2AE3D27D4EB4Full;
    two = (two << 31) | (two >> 33);
  }
}

// The keys' hash as 32 hexadecimal digits: each slice's two hashes, then the same two chains
// over those, in order. Keys that differ anywhere give different digits, as far as 128 bits
// tell.
std::string keys_hash(const std::vector<int> &keys) {
  std::vector<int> slice_hashes(4 * kSlices);
  for_each_slice(keys.size(), kSlices, [&](unsigned part, std::size_t first, std::size_t last) {
    std::uint64_t one = 0x243F6A8885A308D3ull;
    std::uint64_t two = 0x13198A2E03707344ull;
    hash_slice(keys, first, last, one, two);
    for (unsigned word = 0; word < 2; ++word) {
      slice_hashes[4 * part + word] = static_cast<int>(one >> (32 * word));
      slice_hashes[4 * part + 2 + word] = static_cast<int>(two >> (32 * word));
    }
  });
  std::uint64_t one = 0x243F6A8885A308D3ull;
  std::uint64_t two = 0x13198A2E03707344ull;
  hash_slice(slice_hashes, 0, slice_hashes.size(), one, two);
  char digits[33];
  std::snprintf(digits, sizeof digits, "%016llx%016llx", static_cast<unsigned long long>(one),
                static_cast<unsigned long long>(two));
  return digits;
}

// The keys' sum, and whether they are in the order `ascending` asks for: each slice also checks
// its first key against the one before it, the last of the slice before.
struct Summary {
  std::int64_t sum = 0;
  bool ordered = true;
};

Summary summarize(const std::vector<int> &keys, bool ascending) {
  std::vector<Summary> slices(kSlices);
  for_each_slice(keys.size(), kSlices, [&](unsigned part, std::size_t first, std::size_t last) {
    Summary slice;
    for (std::size_t i = first; i < last; ++i) {
      slice.ordered = slice.ordered &&
          (i == 0 || (ascending ? keys[i - 1] <= keys[i] : keys[i - 1] >= keys[i]));
      slice.sum += keys[i];
    }
    slices[part] = slice;
  });
  Summary all;
  for (const Summary &slice : slices) {
    all.sum += slice.sum;
    all.ordered = all.ordered && slice.ordered;
  }
  return all;
}

// The file's `count` keys, or an empty vector where it is missing or of another length; with
// `hashed`, the file ends in the keys' hash (keys_hash), and one whose keys do not give it is
// empty too.
std::vector<int> read_file(const std::string &path, std::size_t count, bool hashed) {
  const int file = open(path.c_str(), O_RDONLY);
  struct stat status;
  const std::size_t bytes = count * sizeof(int);
  const std::size_t hash_bytes = hashed ? 32 : 0;
  if (file < 0 || fstat(file, &status) != 0 ||
      static_cast<std::size_t>(status.st_size) != bytes + hash_bytes) {
    if (file >= 0) {
      close(file);
    }
    return {};
  }
  // Each slice of the keys is read by a thread of its own (pread: no shared file position).
  std::vector<int> keys(count);
  std::vector<char> whole(kSlices);
  for_each_slice(bytes, kSlices, [&](unsigned part, std::size_t first, std::size_t last) {
    char *target = reinterpret_cast<char *>(keys.data());
    while (first < last) {
      const ssize_t got = pread(file, target + first, last - first, static_cast<off_t>(first));
      if (got < 0 && errno == EINTR) {
        continue;
      }
      if (got <= 0) {
        break;
      }
      first += static_cast<std::size_t>(got);
    }
    whole[part] = first == last;
  });
  std::string hash(hash_bytes, ' ');
  const bool read = std::all_of(whole.begin(), whole.end(), [](char done) { return done; }) &&
      pread(file, &hash[0], hash_bytes, static_cast<off_t>(bytes)) ==
          static_cast<ssize_t>(hash_bytes);
  close(file);
  if (!read || (hashed && hash != keys_hash(keys))) {
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
  const Summary summary = summarize(sorted, ascending);
  if (!summary.ordered || summary.sum != summarize(keys, ascending).sum) {
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
