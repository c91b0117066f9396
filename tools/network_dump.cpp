// network_dump: the reference network, and the index rules of the stages, for the docs
// generator (docs/generate.py), so that no figure or table re-codes a formula the kernels use.
//
//   network_dump N [asc|desc]   prints the comparators, one per line, N a power of two up to
//                               2^16:  <size> <stride> <lower> <upper> <asc|desc>
//   network_dump mirrored N     the same for the network's mirrored form (every one asc)
//   network_dump swaps N        runs the ascending network on N keys (a power of two up to
//                               2^20) of every distribution, seed 1 as the programs use by
//                               default, and prints how many compare-exchanges found their pair
//                               out of order: <distribution> <compares> <swaps>
//   network_dump lower STRIDE T  get_lower_partner of threads 0 .. T-1 at STRIDE (T, STRIDE up
//                               to 2^16, STRIDE a power of two): <thread> <lower> <upper>
//   network_dump groups LOWEST STEPS N  get_first_key of each thread of a multistep pass of STEPS
//                               steps from stride LOWEST on N keys (powers of two up to 2^16):
//                               <thread> <first key>
//   network_dump group TOP_BIT LOWEST  the group, rounds and layouts of a group_steps pass of
//                               v13_any_bits whose largest stride is 2^TOP_BIT (13 .. 30), its
//                               rounds ending at slot bit LOWEST (0 or 5): see group_rules.h
//   network_dump plan N         the launches of v14_span for N keys (a power of two up to 2^30):
//                               see span_rules.h
//   network_dump passes N       launches_per_sort(N) of v13_any_bits, of v14_span and of v14_span
//                               with its variant v14_tail6's rule (N a power of two up to 2^30):
//                               <name> <passes>
// The index rules are those of v6_multistep/bitonic_index.h, which the build compiles in: the
// very functions the kernels call (v4's get_lower_partner is the same, byte for byte); those of
// the groups are v13_any_bits's (group_rules.cpp), the plan's v14_span's (span_rules.cpp).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "bitonic_index.h"
#include "group_rules.h"
#include "keys.h"
#include "reference_network.h"
#include "span_rules.h"

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

void print_mirrored_comparators(unsigned n) {
  for (const auto &[size, stride] : network_steps(n)) {
    for (const Comparator &c : mirrored_step_comparators(n, size, stride)) {
      std::printf("%u %u %u %u asc\n", size, stride, c.lower, c.upper);
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

// get_lower_partner for threads 0 .. threads-1, each with the upper element of its pair.
void print_lower_partners(unsigned stride, unsigned threads) {
  for (unsigned thread = 0; thread < threads; ++thread) {
    const unsigned lower = get_lower_partner(thread, stride);
    std::printf("%u %u %u\n", thread, lower, lower + stride);
  }
}

// get_first_key for every thread of a pass of `steps` steps from stride `lowest` on n keys:
// n / 2^steps threads, one group of 2^steps keys each.
void print_groups(unsigned lowest, unsigned steps, unsigned n) {
  for (unsigned thread = 0; thread < (n >> steps); ++thread) {
    std::printf("%u %u\n", thread, get_first_key(thread, lowest, steps));
  }
}

unsigned number(const char *text) {
  return static_cast<unsigned>(std::strtoul(text, nullptr, 10));
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[1], "lower") == 0) {
    const unsigned stride = number(argv[2]), threads = number(argv[3]);
    if (power_of_two_up_to(stride, 1u << 16) && threads >= 1 && threads <= (1u << 16)) {
      print_lower_partners(stride, threads);
      return 0;
    }
  } else if (argc == 5 && std::strcmp(argv[1], "groups") == 0) {
    const unsigned lowest = number(argv[2]), steps = number(argv[3]), n = number(argv[4]);
    if (power_of_two_up_to(lowest, 1u << 16) && power_of_two_up_to(n, 1u << 16) && steps >= 1 &&
        steps <= 16 && (lowest << steps) <= n) {
      print_groups(lowest, steps, n);
      return 0;
    }
  } else if (argc == 4 && std::strcmp(argv[1], "group") == 0) {
    const unsigned top_bit = number(argv[2]), lowest = number(argv[3]);
    if (top_bit >= 13 && top_bit <= 30 && (lowest == 0 || lowest == 5)) {
      print_group_pass(top_bit, lowest);
      return 0;
    }
  } else if (argc == 3 && std::strcmp(argv[1], "plan") == 0) {
    const unsigned n = number(argv[2]);
    if (power_of_two_up_to(n, 1u << 30)) {
      print_span_plan(n);
      return 0;
    }
  } else if (argc == 3 && std::strcmp(argv[1], "passes") == 0) {
    const unsigned n = number(argv[2]);
    if (power_of_two_up_to(n, 1u << 30)) {
      std::printf("v13_any_bits %llu\nv14_span %llu\nv14_tail6 %llu\n", group_passes(n),
                  span_passes(n), span_tail6_passes(n));
      return 0;
    }
  } else if (argc == 3 && std::strcmp(argv[1], "mirrored") == 0) {
    const unsigned n = number(argv[2]);
    if (power_of_two_up_to(n, 1u << 16)) {
      print_mirrored_comparators(n);
      return 0;
    }
  } else if (argc == 3 && std::strcmp(argv[1], "swaps") == 0) {
    const unsigned n = number(argv[2]);
    if (power_of_two_up_to(n, 1u << 20)) {
      print_swaps(n);
      return 0;
    }
  } else if (argc >= 2 && argc <= 3) {
    const unsigned n = number(argv[1]);
    const bool ascending = argc == 2 || std::strcmp(argv[2], "desc") != 0;
    const bool direction_named = argc == 2 || !ascending || std::strcmp(argv[2], "asc") == 0;
    if (power_of_two_up_to(n, 1u << 16) && direction_named) {
      print_comparators(n, ascending);
      return 0;
    }
  }
  std::fprintf(stderr,
               "usage: network_dump N [asc|desc], N a power of two up to 65536\n"
               "       network_dump mirrored N, N a power of two up to 65536\n"
               "       network_dump swaps N, N a power of two up to 1048576\n"
               "       network_dump lower STRIDE T, STRIDE a power of two, T threads, up to 65536\n"
               "       network_dump groups LOWEST STEPS N, lowest * 2^steps <= N <= 65536\n"
               "       network_dump group TOP_BIT LOWEST, TOP_BIT 13 .. 30, LOWEST 0 or 5\n"
               "       network_dump plan N | passes N, N a power of two up to 2^30\n");
  return 2;
}
