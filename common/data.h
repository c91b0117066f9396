// data.h: the keys a run sorts. Generators for the distributions of the command line, and
// reading and writing raw little-endian int32 files (the --input and --output formats).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

enum class Distribution {
  kUniform,
  kSorted,
  kReversed,
  kEqual,
  kFewUnique,
  kOrganPipe,
  kExtremes,
};

// Every distribution, in the order --help lists them.
const std::vector<Distribution> &all_distributions();
const char *distribution_name(Distribution distribution);
// Sets *distribution and returns true when name is one of the names above.
bool parse_distribution(const std::string &name, Distribution *distribution);

// n keys drawn from the distribution; the same seed gives the same keys on every machine.
//   uniform     every int32 value equally likely, INT_MIN and INT_MAX included
//   sorted      strictly increasing, spread over the whole int32 range
//   reversed    strictly decreasing
//   equal       one value n times
//   few-unique  16 distinct values, each key one of them at random
//   organ-pipe  increasing over the first half, decreasing over the second
//   extremes    INT_MIN, INT_MIN + 1, -1, 0, 1, INT_MAX - 1 and INT_MAX at random
std::vector<int> generate_keys(Distribution distribution, std::size_t n, std::uint64_t seed);

// The number of int32 keys in a raw file, after checking that it can be opened and that its
// size is a positive multiple of 4. Throws FatalError(kExitBadInput) with the reason otherwise.
std::uint64_t count_keys_in_file(const std::string &path);
// The keys of a raw little-endian int32 file (the same checks first).
std::vector<int> read_keys_file(const std::string &path);

// An output file that is written completely or not at all. The constructor creates a temporary
// file next to the target (so a path that cannot be written fails at once, before any sorting);
// commit() writes the keys and renames the temporary file onto the target in one step. If commit()
// is never reached, the destructor removes the temporary file and the target is left untouched.
class OutputFile {
 public:
  explicit OutputFile(const std::string &path);
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;
  void commit(const std::vector<int> &keys);

 private:
  std::string path_;
  std::string temporary_path_;
  int descriptor_ = -1;
};
