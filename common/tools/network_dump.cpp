// network_dump: prints the reference network's comparators, one per line, for the figure
// generator (docs/generate.py). Usage: network_dump N [asc|desc], N a power of two.
//   <size> <stride> <lower> <upper> <asc|desc>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "reference.h"

int main(int argc, char **argv) {
  const unsigned n = argc > 1 ? static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10)) : 0;
  const bool ascending = argc <= 2 || std::strcmp(argv[2], "desc") != 0;
  if (n == 0 || (n & (n - 1)) != 0 || n > (1u << 16)) {
    std::fprintf(stderr, "usage: network_dump N [asc|desc], N a power of two up to 65536\n");
    return 2;
  }
  for (const auto &[size, stride] : network_steps(n)) {
    for (const Comparator &c : network_step_comparators(n, size, stride, ascending)) {
      std::printf("%u %u %u %u %s\n", size, stride, c.lower, c.upper, c.ascending ? "asc" : "desc");
    }
  }
  return 0;
}
