// input.h: what a run sorts and what it must get, made before any algorithm runs: the keys
// (generated or read from --input), the device, and std::sort's result to check against; and
// the refusals that need the keys' count.
#pragma once

#include <cstdint>
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
};

// The keys, the device (where `uses_device`) and the expected result, each checked in the order
// that reports a mistake soonest.
Input load_input(const Options &options, bool uses_device);

// Refuses a --top that the algorithm cannot keep: more than its max_top keys of a longer array,
// for n keys.
void check_top_limit(const Algorithm &algorithm, const Options &options, std::uint64_t n);

// Refuses more keys than `gpus` GPUs of a sort across GPUs hold: 2^30 each, padding included.
void check_gpus_fit(std::uint64_t n, unsigned gpus);
