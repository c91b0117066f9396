// launch_steps.h: the compare steps a launch plan runs, for the tests of for_each_launch
// (launch_plan_test.cpp, and index_segments_test.cpp for arrays of L keys).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bitonic_index.h"

// The (size, stride) of every compare step that the launches of `plan` run, in order: each
// launch runs `steps` consecutive steps of the network from its (size, stride). plan(visit)
// must call visit(launch) for each launch, as for_each_launch does; `count` gets the number of
// launches, and `named` whether every kernel has a name.
template <typename Plan>
std::vector<std::pair<std::uint32_t, std::uint32_t>> launch_steps(Plan plan,
                                                                  unsigned long long &count,
                                                                  bool &named) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> steps;
  count = 0;
  named = true;
  plan([&](const Launch &launch) {
    ++count;
    named = named && std::string(kernel_name(launch.kernel)) != "unknown";
    unsigned size = launch.size;
    unsigned stride = launch.stride;
    for (unsigned step = 0; step < launch.steps; ++step) {
      steps.emplace_back(size, stride);
      // The network's next step: half the stride, or the next size from its largest stride.
      if (stride > 1) {
        stride /= 2;
      } else {
        size *= 2;
        stride = size / 2;
      }
    }
  });
  return steps;
}
