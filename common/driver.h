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

// What kind of sort a program runs; the driver treats each kind its own way.
enum class Kind {
  // A stage (stage.h): padded to a power of two, its launches counted, each one pass over keys.
  kStage,
  // A library call on the device: any n, nothing padded, launches not counted.
  kLibrary,
  // A sort on the host (host_sort): no device, no warm-up, no copies.
  kHost,
  // The copy ceiling of the baselines: one pass, and its output must equal its input.
  kCopy,
};

// One thing a program can run.
struct Algorithm {
  std::string name;
  Kind kind = Kind::kStage;
  // The sort, on the device (every kind but kHost) or on the host (kHost).
  DeviceSort device_sort;
  HostSort host_sort;
  // Whether it sorts many arrays at once (--segment); the others sort the whole input only.
  bool sorts_segments = false;
  // A stage's --trace-launches: prints the launches of one sort of n keys (a power of two) in
  // arrays of `segment` keys, one CSV line each (stage_main.cpp).
  std::function<void(unsigned n, unsigned segment)> print_launches;
  // Its argsort (--values), on the device, if it has one: sorts like device_sort and also
  // writes each key's index in its array.
  PairSort pair_sort;
  // Its top-k (--top K), if it has one, and the largest K it keeps of an array longer than K.
  TopSort top_sort = nullptr;
  unsigned max_top = 0;
  // --trace-launches with --top K: prints the launches of one top-k, as print_launches does.
  std::function<void(unsigned n, unsigned segment, unsigned top)> print_top_launches = nullptr;
  // Its sort of floats (--type float), if it has one: a top-k of the bits of 32-bit IEEE 754
  // floats in totalOrder, which keeps every key of an array when `top` is the array's length,
  // and writes no indices when given nullptr.
  TopSort float_sort = nullptr;
  // Its sort of one array across GPUs (--gpus P), if it has one: a stage whose program then
  // runs this alone, on devices 0 .. P - 1.
  GpusSort gpus_sort = nullptr;
};

struct Options;
struct Report;
// Prints a run's report as --format asks (text, or CSV with its header before the first run's).
void print_report(const Options &options, const Report &report, bool first);

// A DeviceSort from a function that sorts all n keys as one array (it takes no `segment`).
DeviceSort whole_array(void (*sort)(int *keys, unsigned n, bool ascending));

// Runs the program; returns its exit code (errors.h). When there is more than one algorithm,
// --algo picks one and by default all of them run, one report each (with --segment, all of
// those that sort segments).
int run_program(int argc, char **argv, const std::string &program_name,
                const std::vector<Algorithm> &algorithms);
