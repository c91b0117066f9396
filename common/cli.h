// cli.h: the command line shared by every stage and by the baselines (README, "Command line").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data.h"

enum class OutputFormat { kHuman, kCsv, kJson };

struct Options {
  // Number of keys; from --log2 Q (n = 2^Q) or -n N. With --input, the file decides.
  std::uint64_t n = std::uint64_t{1} << 20;
  bool size_given = false;
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
  bool help = false;
};

// What a program accepts beyond the common options: the baselines take --algo NAME.
struct ProgramSpec {
  std::string name;
  std::vector<std::string> algorithms;
};

// Parses the arguments after the program name. Throws FatalError(kExitBadInput) with a message
// that names the offending argument and says what was expected.
Options parse_command_line(const std::vector<std::string> &arguments, const ProgramSpec &program);

// The --help text.
std::string usage_text(const ProgramSpec &program);
