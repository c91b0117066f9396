// network_dump: the reference network for the docs generator (docs/generate.py).
//
//   network_dump N [asc|desc]   prints the comparators, one per line, N a power of two up to
//                               2^16:  <size> <stride> <lower> <upper> <asc|desc>
//   network_dump swaps N        runs the ascending network on N keys (a power of two up to
//                               2^20) of every distribution, seed 1 as the programs use by
//                               default, and prints how many compare-exchanges found their pair
//                               out of order: <distribution> <compares> <swaps>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "keys.h"
#include "reference_network.h"

namespace {

bool power_of_two_up_to(unsigned n, unsigned limit) {
  return n != 0 && (n & (n - 1)) == 0 && n <= limit;
}

void print_comparators(unsigned n, bool ascending) {
  for (const auto &[size, stride] : network_steps(n)) {
    for (const Comparator &c : network_step_comparators(n, size, stride, ascending)) {
      std::printf("%u %u %u %u %s\n", size, stride, c.lower, c.upper, c.ascending ? "asc" : "desc");
    }
  }
}

// The compares of the network on n keys (n/2 per step), and the swaps of every distribution.
void print_swaps(unsigned n) {
  const unsigned long long compares = network_steps(n).size() * (n / 2ull);
  for (Distribution distribution : all_distributions()) {
    std::vector<int> keys = generate_keys(distribution, n, 1);
    const unsigned long long swaps = reference_bitonic_sort(keys, true);
    std::printf("%s %llu %llu\n", distribution_name(distribution), compares, swaps);
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "swaps") == 0) {
    const unsigned n = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
    if (power_of_two_up_to(n, 1u << 20)) {
      print_swaps(n);
      return 0;
    }
  } else if (argc >= 2 && argc <= 3) {
    const unsigned n = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
    const bool ascending = argc == 2 || std::strcmp(argv[2], "desc") != 0;
    const bool direction_named = argc == 2 || !ascending || std::strcmp(argv[2], "asc") == 0;
    if (power_of_two_up_to(n, 1u << 16) && direction_named) {
      print_comparators(n, ascending);
      return 0;
    }
  }
  std::fprintf(stderr,
               "usage: network_dump N [asc|desc], N a power of two up to 65536\n"
               "       network_dump swaps N, N a power of two up to 1048576\n");
  return 2;
}
