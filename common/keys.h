// keys.h: the keys a run makes: the distributions of --dist, the same on every machine for a seed.
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
//   sorted      increasing, spread over the whole int32 range (strictly up to 2^32 keys)
//   reversed    decreasing, the same keys backwards
//   equal       one value n times
//   few-unique  16 distinct values, each key one of them at random
//   organ-pipe  increasing over the first half, decreasing over the second
//   extremes    INT_MIN, INT_MIN + 1, -1, 0, 1, INT_MAX - 1 and INT_MAX at random
std::vector<int> generate_keys(Distribution distribution, std::size_t n, std::uint64_t seed);

// The same n keys as floats (--type float), as the bits of 32-bit IEEE 754 floats: the floats at
// the places in totalOrder that generate_keys's ints hold in int order (float_rank), so sorted
// stays sorted and few-unique few unique; uniform is every bit pattern equally likely (NaNs and
// infinities included). Only extremes is its own: -NaN, -inf, -FLT_MAX, -0.0, +0.0, the
// smallest denormal, +inf and +NaN at random.
std::vector<int> generate_float_keys(Distribution distribution, std::size_t n, std::uint64_t seed);
