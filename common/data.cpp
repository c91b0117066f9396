// data.cpp: key generators and raw int32 files.
#include "data.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

#include "errors.h"
#include "padding.h"

// The files hold little-endian int32, which is also how this host keeps an int in memory, so
// keys are read and written as they are. A big-endian host would need a byte swap here.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "raw key files assume a little-endian host");
static_assert(sizeof(int) == 4, "keys are 32-bit signed integers");

namespace {

// SplitMix64: a small, fast generator whose output is the same on every platform (unlike the
// distributions of <random>), so a seed names the same keys everywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // A uniformly random int32: the high 32 bits of the next output.
  int next_int() {
    return static_cast<int>(static_cast<std::uint32_t>(next() >> 32));
  }

 private:
  std::uint64_t state_;
};

// Position i of an increasing ramp of `count` values spread evenly from INT_MIN upwards.
// i * 2^32 / count needs 64 bits: i < 2^30, so the product stays below 2^62.
int ramp(std::uint64_t i, std::uint64_t count) {
  const std::int64_t step_sum = static_cast<std::int64_t>((i << 32) / count);
  return static_cast<int>(std::int64_t{INT_MIN} + step_sum);
}

std::string system_error(const std::string &what, const std::string &path) {
  return what + " '" + path + "': " + std::strerror(errno);
}

}  // namespace

const std::vector<Distribution> &all_distributions() {
  static const std::vector<Distribution> distributions = {
      Distribution::kUniform,  Distribution::kSorted,    Distribution::kReversed,
      Distribution::kEqual,    Distribution::kFewUnique, Distribution::kOrganPipe,
      Distribution::kExtremes,
  };
  return distributions;
}

const char *distribution_name(Distribution distribution) {
  switch (distribution) {
    case Distribution::kUniform:
      return "uniform";
    case Distribution::kSorted:
      return "sorted";
    case Distribution::kReversed:
      return "reversed";
    case Distribution::kEqual:
      return "equal";
    case Distribution::kFewUnique:
      return "few-unique";
    case Distribution::kOrganPipe:
      return "organ-pipe";
    case Distribution::kExtremes:
      return "extremes";
  }
  return "?";
}

bool parse_distribution(const std::string &name, Distribution *distribution) {
  for (Distribution candidate : all_distributions()) {
    if (name == distribution_name(candidate)) {
      *distribution = candidate;
      return true;
    }
  }
  return false;
}

std::vector<int> generate_keys(Distribution distribution, std::size_t n, std::uint64_t seed) {
  std::vector<int> keys(n);
  SplitMix64 random(seed);
  switch (distribution) {
    case Distribution::kUniform:
      for (int &key : keys) {
        key = random.next_int();
      }
      break;
    case Distribution::kSorted:
      for (std::size_t i = 0; i < n; ++i) {
        keys[i] = ramp(i, n);
      }
      break;
    case Distribution::kReversed:
      for (std::size_t i = 0; i < n; ++i) {
        keys[i] = ramp(n - 1 - i, n);
      }
      break;
    case Distribution::kEqual:
      std::fill(keys.begin(), keys.end(), random.next_int());
      break;
    case Distribution::kFewUnique: {
      int values[16];
      for (int &value : values) {
        value = random.next_int();
      }
      for (int &key : keys) {
        key = values[random.next() % 16];
      }
      break;
    }
    case Distribution::kOrganPipe: {
      // Up the first half, down the second: keys i and n - 1 - i are equal.
      const std::size_t half = (n + 1) / 2;
      for (std::size_t i = 0; i < n; ++i) {
        keys[i] = ramp(std::min(i, n - 1 - i), half);
      }
      break;
    }
    case Distribution::kExtremes: {
      const int values[] = {INT_MIN, INT_MIN + 1, -1, 0, 1, INT_MAX - 1, INT_MAX};
      for (int &key : keys) {
        key = values[random.next() % 7];
      }
      break;
    }
  }
  return keys;
}

std::uint64_t count_keys_in_file(const std::string &path) {
  struct stat status;
  if (stat(path.c_str(), &status) != 0) {
    throw FatalError(kExitBadInput, system_error("cannot open input file", path));
  }
  if (S_ISDIR(status.st_mode)) {
    throw FatalError(kExitBadInput, "input file '" + path + "' is a directory, not a file");
  }
  const std::uint64_t bytes = static_cast<std::uint64_t>(status.st_size);
  if (bytes == 0) {
    throw FatalError(kExitBadInput, "input file '" + path + "' is empty: there is nothing to sort");
  }
  if (bytes % sizeof(int) != 0) {
    throw FatalError(kExitBadInput,
                     "input file '" + path + "' has " + std::to_string(bytes) +
                         " bytes, not a multiple of 4 (raw int32 keys expected)");
  }
  if (bytes / sizeof(int) > kMaxKeys) {
    throw FatalError(kExitBadInput,
                     "input file '" + path + "' holds " + std::to_string(bytes / sizeof(int)) +
                         " keys, more than the 2^30 a run can sort");
  }
  return bytes / sizeof(int);
}

std::vector<int> read_keys_file(const std::string &path) {
  const std::uint64_t count = count_keys_in_file(path);
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw FatalError(kExitBadInput, system_error("cannot open input file", path));
  }
  std::vector<int> keys(count);
  const std::size_t read = std::fread(keys.data(), sizeof(int), count, file);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed || read != count) {
    throw FatalError(kExitBadInput,
                     "cannot read input file '" + path + "': got " + std::to_string(read) + " of " +
                         std::to_string(count) + " keys");
  }
  return keys;
}

OutputFile::OutputFile(const std::string &path) : path_(path) {
  // mkstemp needs a writable buffer ending in XXXXXX; the file lands in the target's directory,
  // so the final rename() stays on one file system and replaces the target in one step.
  std::string pattern = path + ".tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  descriptor_ = mkstemp(name.data());
  if (descriptor_ < 0) {
    throw FatalError(kExitBadInput, system_error("cannot write output file", path));
  }
  temporary_path_ = name.data();
  fchmod(descriptor_, 0644);
}

OutputFile::~OutputFile() {
  if (descriptor_ >= 0) {
    close(descriptor_);
    unlink(temporary_path_.c_str());
  }
}

void OutputFile::commit(const std::vector<int> &keys) {
  const char *bytes = reinterpret_cast<const char *>(keys.data());
  std::size_t left = keys.size() * sizeof(int);
  while (left > 0) {
    const ssize_t written = write(descriptor_, bytes, left);
    if (written < 0 && errno == EINTR) {
      continue;
    }
    if (written <= 0) {
      throw FatalError(kExitBadInput, system_error("cannot write output file", path_));
    }
    bytes += written;
    left -= static_cast<std::size_t>(written);
  }
  if (fsync(descriptor_) != 0 || close(descriptor_) != 0) {
    descriptor_ = -1;
    unlink(temporary_path_.c_str());
    throw FatalError(kExitBadInput, system_error("cannot write output file", path_));
  }
  descriptor_ = -1;
  if (std::rename(temporary_path_.c_str(), path_.c_str()) != 0) {
    unlink(temporary_path_.c_str());
    throw FatalError(kExitBadInput, system_error("cannot write output file", path_));
  }
}
