// driver.h: the main() every stage and the baselines share: parse the command line, make or
// read the keys, pick the device, run and time the sort, validate, report, write the output.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sort_runner.h"

// A sort on the host, for the CPU baseline: arrays of `segment` keys sorted separately
// (segment == keys.size(): one array).
using HostSort = std::function<void(std::vector<int> &keys, std::size_t segment, bool ascending)>;

// One thing a program can run. Exactly one of device_sort and host_sort is set.
struct Algorithm {
  std::string name;
  DeviceSort device_sort;
  HostSort host_sort;
  // The stages sort powers of two only; the driver pads for them.
  bool pads_to_power_of_two = false;
  // The stages count their launches, and each launch is one pass over the keys.
  bool launches_are_passes = false;
  // The copy ceiling of the baselines: one pass, and its output must equal its input.
  bool is_copy = false;
  // Whether it sorts many arrays at once (--segment); the others sort the whole input only.
  bool sorts_segments = false;
  // A stage's --trace-launches: prints the launches of one sort of n keys (a power of two) in
  // arrays of `segment` keys, one CSV line each (stage_main.cpp).
  std::function<void(unsigned n, unsigned segment)> print_launches;
};

// A device sort of the whole input (a library call: nothing padded, launches not counted).
Algorithm device_algorithm(const std::string &name, void (*sort)(int *, unsigned, bool));

// A device sort of many arrays at once (--segment; without it, one array of all the keys).
Algorithm segmented_device_algorithm(const std::string &name,
                                     void (*sort_segments)(int *, unsigned, unsigned, bool));

// A stage (stage.h): a padded device sort of the whole input whose launches are counted.
Algorithm stage_algorithm(const std::string &name, void (*sort)(int *, unsigned, bool));

// A stage that also sorts many arrays at once (bitonic_sort_segments in stage.h).
Algorithm segmented_stage_algorithm(const std::string &name,
                                    void (*sort_segments)(int *, unsigned, unsigned, bool));

// Runs the program; returns its exit code (errors.h). When there is more than one algorithm,
// --algo picks one and by default all of them run, one report each (with --segment, all of
// those that sort segments).
int run_program(int argc, char **argv, const std::string &program_name,
                const std::vector<Algorithm> &algorithms);
