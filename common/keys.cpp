// keys.cpp: the generators of --dist.
#include "keys.h"

#include <algorithm>
#include <climits>

#include "float_order.h"

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
// i * 2^32 / count needs more than 64 bits once i reaches 2^32 (a sort across GPUs takes up to
// 2^34 keys), so it is computed in 128.
__extension__ typedef unsigned __int128 Uint128;  // GCC's and Clang's, on 64-bit machines
int ramp(std::uint64_t i, std::uint64_t count) {
  const auto step_sum = static_cast<std::int64_t>((static_cast<Uint128>(i) << 32) / count);
  return static_cast<int>(std::int64_t{INT_MIN} + step_sum);
}

}  // namespace

namespace {

// Every distribution with its name on the command line, in the order --help lists them.
struct NamedDistribution {
  Distribution distribution;
  const char *name;
};

const NamedDistribution kDistributions[] = {
    {Distribution::kUniform, "uniform"},      {Distribution::kSorted, "sorted"},
    {Distribution::kReversed, "reversed"},    {Distribution::kEqual, "equal"},
    {Distribution::kFewUnique, "few-unique"}, {Distribution::kOrganPipe, "organ-pipe"},
    {Distribution::kExtremes, "extremes"},
};

}  // namespace

const std::vector<Distribution> &all_distributions() {
  static const std::vector<Distribution> distributions = [] {
    std::vector<Distribution> list;
    for (const NamedDistribution &named : kDistributions) {
      list.push_back(named.distribution);
    }
    return list;
  }();
  return distributions;
}

const char *distribution_name(Distribution distribution) {
  for (const NamedDistribution &named : kDistributions) {
    if (named.distribution == distribution) {
      return named.name;
    }
  }
  return "?";
}

bool parse_distribution(const std::string &name, Distribution *distribution) {
  for (const NamedDistribution &named : kDistributions) {
    if (name == named.name) {
      *distribution = named.distribution;
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

std::vector<int> generate_float_keys(Distribution distribution, std::size_t n, std::uint64_t seed) {
  std::vector<int> keys = generate_keys(distribution, n, seed);
  if (distribution == Distribution::kExtremes) {
    // -NaN, -inf, -FLT_MAX, -0.0, +0.0, the smallest denormal, +inf, +NaN.
    const std::uint32_t values[] = {0xffc00000u, 0xff800000u, 0xff7fffffu, 0x80000000u,
                                    0x00000000u, 0x00000001u, 0x7f800000u, 0x7fc00000u};
    SplitMix64 random(seed);
    for (int &key : keys) {
      key = static_cast<int>(values[random.next() % 8]);
    }
    return keys;
  }
  for (int &key : keys) {
    key = float_rank(key);
  }
  return keys;
}
