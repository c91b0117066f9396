// cli.h: the command line shared by every stage and by the baselines (README, "Running a stage"),
// parsed by CLI11 (cli.cpp), which also writes --help.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "keys.h"

enum class OutputFormat { kHuman, kCsv };

struct Options {
  // Number of keys; from --log2 Q (n = 2^Q) or -n N. With --input, the file decides.
  std::uint64_t n = std::uint64_t{1} << 20;
  bool ascending = true;
  Distribution distribution = Distribution::kUniform;
  std::uint64_t seed = 1;
  int reps = 10;
  bool validate = true;
  OutputFormat format = OutputFormat::kHuman;
  bool header = true;
  int device = 0;
  std::string input_path;
  std::string output_path;
  // Baselines only: which algorithm to run ("" runs them all).
  std::string algorithm;
  // --segment L: sort n / L separate arrays of L keys each; 0 sorts the whole input as one.
  std::uint64_t segment = 0;
  // --values: sort (key, index) pairs, an argsort: each key carries its index in its array.
  bool values = false;
  // --top K: keep only the first K keys of each array (0: all of them).
  std::uint64_t top = 0;
  // --type float: the keys are the bits of 32-bit IEEE 754 floats, sorted in totalOrder.
  bool floats = false;
  // --gpus P: sort across GPUs 0 .. P - 1 (0: the most GPUs, a power of two, this machine has).
  unsigned gpus = 0;
  // Stages only: print the launches of one sort instead of sorting.
  bool trace_launches = false;
  bool help = false;
};

// What a program accepts beyond the common options: the baselines take --algo NAME, the
// programs that sort many arrays at once (v8_batched, the baselines) take --segment L, those
// that can return each key's index take --values, those that can keep the first keys of each
// array alone take --top, those that can sort floats take --type, those that sort across GPUs
// take --gpus, and the stages take --trace-launches.
struct ProgramSpec {
  std::string name;
  std::vector<std::string> algorithms;
  bool segments = false;
  bool traces = false;
  bool values = false;
  bool tops = false;
  bool floats = false;
  bool gpus = false;
};

// Parses the arguments after the program name: the options `program` takes, each at most once.
// Throws FatalError(kExitBadInput) with CLI11's message, which names the offending argument.
Options parse_command_line(const std::vector<std::string> &arguments, const ProgramSpec &program);

// The --help text.
std::string usage_text(const ProgramSpec &program);
