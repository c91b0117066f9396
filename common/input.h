// input.h: what a run sorts and what it must get, made before any algorithm runs: the keys
// (generated or read from --input), the device, and std::sort's result to check against; and
// the refusals that need the keys' count.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cli.h"
#include "device.h"
#include "driver.h"

// What every algorithm of a run shares: the keys, what std::sort makes of them, where the keys
// came from, and the device.
struct Input {
  std::vector<int> keys;
  // Empty with --no-validate.
  std::vector<int> expected;
  bool from_file = false;
  DeviceInfo device;
  // The GPUs of a sort across GPUs, 0 for any other.
  unsigned gpus = 0;
};

// The keys, the device (where one of `chosen` runs on one) and the expected result, each
// checked in the order that reports a mistake soonest. `choose_gpus` gives Input::gpus: it is
// asked after a file named by --input is read (a bad file is refused as in any program, exit
// 2, on a machine without a GPU too) and before generated keys are made.
Input load_input(const Options &options, const std::vector<const Algorithm *> &chosen,
                 const std::function<unsigned()> &choose_gpus);

// Refuses (FatalError kExitBadInput) what n keys rule out: a --segment that does not cut them
// into whole arrays, a --top of more keys than an array has or than an algorithm of `chosen`
// keeps, more keys than `gpus` GPUs hold (2^30 each, padding included). `source` says where n
// came from: "n", or the number of keys in a file.
void check_arrays(const Options &options, const std::vector<const Algorithm *> &chosen,
                  unsigned gpus, std::uint64_t n, const std::string &source);
