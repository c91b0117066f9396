// input.cpp: the keys a run sorts, its device and the result it must get (input.h).
#include "input.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "errors.h"
#include "float_order.h"
#include "host_memory.h"
#include "key_files.h"
#include "padding.h"
#include "reference_cache.h"
#include "validate.h"

// The keys (generated or read), the device, and the expected result, each checked in the order
// that reports a mistake soonest: generated keys come after the device, so that a machine
// without one says so at once instead of after making 2^30 keys; a file's keys come first,
// since a bad file is the first thing to report.
Input load_input(const Options &options, const std::vector<const Algorithm *> &chosen,
                 const std::function<unsigned()> &choose_gpus) {
  Input input;
  input.from_file = !options.input_path.empty();
  const bool uses_device = std::any_of(chosen.begin(), chosen.end(), [](const Algorithm *each) {
    return each->kind != Kind::kHost;
  });
  if (!input.from_file) {
    input.gpus = choose_gpus();
    check_arrays(options, chosen, input.gpus, options.n, "n");
    if (uses_device) {
      input.device = select_device(options.device);
    }
  }
  // The input, the expected result, the output, and the pinned input and output buffers; with
  // --values, the indices and their pinned buffer too; with --type float, the keys' ranks.
  const std::uint64_t host_bytes_per_key =
      ((options.values ? 7 : 5) + (options.floats ? 1 : 0)) * sizeof(int);
  const std::uint64_t known = input.from_file ? known_key_count(options.input_path) : options.n;
  if (known != 0) {
    require_host_memory(known * host_bytes_per_key, std::to_string(known) + " keys on the host");
  }
  // The lab's record keeps one run's keys and their reference for the next program that sorts
  // the same keys (reference_cache.h); a student's run has no such folder and makes its own.
  const char *cache_folder = std::getenv("COURSE_REFERENCE_CACHE");
  const std::string cache = cache_folder ? cache_folder : "";
  input.keys = input.from_file
      ? read_keys_file(options.input_path)
      : cached_keys(options.distribution, options.n, options.seed, options.floats, cache);
  const std::uint64_t n = input.keys.size();
  if (known == 0) {
    require_host_memory(n * host_bytes_per_key, std::to_string(n) + " keys on the host");
  }
  if (input.from_file) {
    input.gpus = choose_gpus();
    check_arrays(options, chosen, input.gpus, n,
                 "the number of keys in '" + options.input_path + "'");
    if (uses_device) {
      input.device = select_device(options.device);
    }
  }
  if (options.validate) {
    // Floats sort as the ints of their float_rank, which gives their bits back.
    std::vector<int> ranks;
    if (options.floats) {
      ranks.resize(input.keys.size());
      std::transform(input.keys.begin(), input.keys.end(), ranks.begin(), float_rank);
    }
    const std::vector<int> &sorted = options.floats ? ranks : input.keys;
    // One array (no --segment, or --segment n) is a flat sort, which the record can keep. Many
    // arrays are sorted again each run: their kept file took longer to read back than they take
    // to sort (a probe on the H200's machine, 2026-11-29: 1.2 s against 0.7 for 2^27 keys in
    // arrays of 1024).
    const bool one_array = options.segment == 0 || options.segment == sorted.size();
    input.expected = one_array
        ? cached_sorted_copy(sorted, options.ascending, cache)
        : std_sorted_segments_copy(sorted, options.segment, options.ascending);
    if (options.floats) {
      std::transform(input.expected.begin(), input.expected.end(), input.expected.begin(),
                     float_rank);
    }
    if (options.top != 0) {
      input.expected = first_of_arrays(input.expected, options.segment, options.top);
    }
  }
  return input;
}

void check_arrays(const Options &options, const std::vector<const Algorithm *> &chosen,
                  unsigned gpus, std::uint64_t n, const std::string &source) {
  const std::uint64_t segment = options.segment, top = options.top;
  const auto refuse = [](const std::string &message) { throw FatalError(kExitBadInput, message); };
  if (segment != 0 && (segment > n || n % segment != 0)) {
    refuse("--segment " + std::to_string(segment) + " must divide the number of keys into " +
           "whole arrays, but " + source + " is " + std::to_string(n) + " (see --help)");
  }
  if (top > (segment != 0 ? segment : n)) {
    refuse("--top " + std::to_string(top) + " keeps more keys than an array has: " +
           (segment != 0 ? "--segment is " + std::to_string(segment)
                         : source + " is " + std::to_string(n)) +
           " (see --help)");
  }
  // A stage's top-k takes K up to its max_top, or the whole (padded) array.
  const std::uint64_t array = segment != 0 ? segment : next_power_of_two(n);
  for (const Algorithm *algorithm : chosen) {
    if (top != 0 && top < array && top > algorithm->max_top) {
      refuse("--top " + std::to_string(top) + ": " + algorithm->name + " keeps at most " +
             std::to_string(algorithm->max_top) +
             " keys of a longer array, or all of it (see --help)");
    }
  }
  if (gpus != 0 && next_power_of_two(std::max<std::uint64_t>(n, gpus)) / gpus > kMaxKeys) {
    refuse(std::to_string(n) + " keys: " + std::to_string(gpus) + " GPU(s) sort at most " +
           std::to_string(gpus * kMaxKeys) + " (" + std::to_string(kMaxKeys) +
           " each; see --gpus)");
  }
}
