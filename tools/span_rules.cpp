#include "span_rules.h"

#include <cstdio>

#include "host_device.h"

// v14_span's bitonic_index.h in a namespace of its own: group_rules.cpp defines the same inline
// functions (launches_per_sort among them) from v13_any_bits's header, and the linker would
// keep one body for both.
namespace span {
#include "bitonic_index.h"
}  // namespace span

void print_span_plan(unsigned n) {
  span::for_each_launch(n, [](const span::Launch &launch) {
    std::printf("launch %s %u %u %u\n", span::kernel_name(launch.kernel), launch.size,
                launch.stride, launch.steps);
  });
}

unsigned long long span_passes(unsigned n) {
  return span::launches_per_sort(n);
}
