// cli.cpp: parsing the shared command line. Every mistake becomes one FatalError whose message
// names the argument, says what was expected and what was given.
#include "cli.h"

#include <charconv>
#include <set>

#include "errors.h"
#include "padding.h"

namespace {

[[noreturn]] void bad_argument(const std::string &message) {
  throw FatalError(kExitBadInput, message + " (see --help)");
}

// A whole number written with digits only: no sign, no spaces, no suffix, no overflow.
std::uint64_t parse_whole_number(const std::string &option, const std::string &text,
                                 std::uint64_t lowest, std::uint64_t highest) {
  const std::string expected = option + " expects a whole number from " + std::to_string(lowest) +
      " to " + std::to_string(highest);
  if (text.empty()) {
    bad_argument(expected + ", got an empty value");
  }
  std::uint64_t value = 0;
  const char *first = text.data();
  const char *last = text.data() + text.size();
  const auto [end, error] = std::from_chars(first, last, value);
  // from_chars accepts a leading '-' for unsigned types on some libraries; rule it out here.
  if (text[0] < '0' || text[0] > '9' || error == std::errc::invalid_argument || end != last) {
    bad_argument(expected + ", got '" + text + "'");
  }
  if (error == std::errc::result_out_of_range || value < lowest || value > highest) {
    bad_argument(expected + ", got " + text);
  }
  return value;
}

std::string join(const std::vector<std::string> &words) {
  std::string joined;
  for (const std::string &word : words) {
    joined += (joined.empty() ? "" : ", ") + word;
  }
  return joined;
}

std::string distribution_list() {
  std::vector<std::string> names;
  for (Distribution distribution : all_distributions()) {
    names.push_back(distribution_name(distribution));
  }
  return join(names);
}

// Which programs take an option: every program, or only those of a ProgramSpec's kind.
enum class TakenBy {
  kAll,
  kSegments,
  kAlgorithms,
  kTraces,
  kValues,
  kTops,
  kFloats,
  kGpus,
  // Every program but those that sort across GPUs (--device picks one GPU).
  kOneGpu,
};

bool takes(const ProgramSpec &program, TakenBy taken_by) {
  switch (taken_by) {
    case TakenBy::kSegments:
      return program.segments;
    case TakenBy::kAlgorithms:
      return !program.algorithms.empty();
    case TakenBy::kTraces:
      return program.traces;
    case TakenBy::kValues:
      return program.values;
    case TakenBy::kTops:
      return program.tops;
    case TakenBy::kFloats:
      return program.floats;
    case TakenBy::kGpus:
      return program.gpus;
    case TakenBy::kOneGpu:
      return !program.gpus;
    case TakenBy::kAll:
      break;
  }
  return true;
}

// An option as given on the command line: its name, its value ("" for a flag), and the program.
struct Given {
  const std::string &name;
  const std::string &value;
  const ProgramSpec &program;
};

// The most keys the program sorts: kMaxKeys on one GPU, kMaxGpus times that across GPUs.
std::uint64_t max_keys(const ProgramSpec &program) {
  return program.gpus ? kMaxGpus * kMaxKeys : kMaxKeys;
}

// A whole number that is a power of two, from `lowest` to `highest` (--segment, --top, --gpus).
std::uint64_t parse_power_of_two(const Given &given, std::uint64_t lowest,
                                 std::uint64_t highest = kMaxKeys) {
  const std::uint64_t value = parse_whole_number(given.name, given.value, lowest, highest);
  if ((value & (value - 1)) != 0) {
    bad_argument(given.name + " expects a power of two (" + std::to_string(lowest) + ", " +
                 std::to_string(2 * lowest) + ", " + std::to_string(4 * lowest) + ", ...), got " +
                 given.value);
  }
  return value;
}

// One option: its name, its value in --help (nullptr for a flag, which takes none), what it does
// to the options, and its --help text after a section heading when one starts there. The table
// below is both the parser and --help.
struct OptionSpec {
  const char *heading;
  const char *name;
  const char *value;
  TakenBy taken_by;
  const char *help;
  void (*apply)(Options &options, const Given &given);
};

std::string text(const std::string &name, const std::string &value, const char *what) {
  if (value.empty()) {
    bad_argument(name + " needs " + what);
  }
  return value;
}

const OptionSpec kOptionSpecs[] = {
    {"size (give at most one; default --log2 20)", "--log2", "Q", TakenBy::kAll,
     "sort n = 2^Q keys, Q from 0 to 30",
     [](Options &options, const Given &given) {
       // 2^30 is the most keys a run sorts on one GPU (padding.h).
       const std::uint64_t most = given.program.gpus ? 34 : 30;
       options.n = std::uint64_t{1} << parse_whole_number(given.name, given.value, 0, most);
     }},
    {nullptr, "-n", "N", TakenBy::kAll,
     "sort N keys, N from 1 to 1073741824 (any N: padded to 2^k)",
     [](Options &options, const Given &given) {
       options.n = parse_whole_number(given.name, given.value, 1, max_keys(given.program));
     }},
    {"keys", "--dist", "NAME", TakenBy::kAll, nullptr,
     [](Options &options, const Given &given) {
       if (!parse_distribution(given.value, &options.distribution)) {
         bad_argument("--dist expects one of " + distribution_list() + ", got '" + given.value +
                      "'");
       }
     }},
    {nullptr, "--seed", "S", TakenBy::kAll, "seed of the generator (default 1)",
     [](Options &options, const Given &given) {
       options.seed = parse_whole_number(given.name, given.value, 0, UINT64_MAX);
     }},
    {nullptr, "--type", "int|float", TakenBy::kFloats,
     "the keys: 32-bit ints (default), or 32-bit IEEE 754 floats sorted in\n"
     "                  totalOrder: -NaN, -inf, .., -0.0, +0.0, .., +inf, +NaN (files: float32)",
     [](Options &options, const Given &given) {
       if (given.value != "int" && given.value != "float") {
         bad_argument("--type expects int or float, got '" + given.value + "'");
       }
       options.floats = given.value == "float";
     }},
    {nullptr, "--input", "FILE", TakenBy::kAll,
     "sort the keys of a raw little-endian int32 file instead",
     [](Options &options, const Given &given) {
       options.input_path = text(given.name, given.value, "a file name");
     }},
    {nullptr, "--output", "FILE", TakenBy::kAll,
     "write the sorted keys (with --values, the indices) to FILE (raw\n"
     "                  little-endian int32); written completely or not at all",
     [](Options &options, const Given &given) {
       options.output_path = text(given.name, given.value, "a file name");
     }},
    {"run", "--order", "asc|desc", TakenBy::kAll, "sort ascending (default) or descending",
     [](Options &options, const Given &given) {
       if (given.value != "asc" && given.value != "desc") {
         bad_argument("--order expects asc or desc, got '" + given.value + "'");
       }
       options.ascending = given.value == "asc";
     }},
    {nullptr, "--reps", "R", TakenBy::kAll,
     "timed repetitions after one warm-up (default 10); the median counts",
     [](Options &options, const Given &given) {
       options.reps = static_cast<int>(parse_whole_number(given.name, given.value, 1, 100000));
     }},
    {nullptr, "--device", "ID", TakenBy::kOneGpu, "CUDA device to use (default 0)",
     [](Options &options, const Given &given) {
       options.device = static_cast<int>(parse_whole_number(given.name, given.value, 0, 1023));
     }},
    {nullptr, "--no-validate", nullptr, TakenBy::kAll, "skip the comparison with std::sort",
     [](Options &options, const Given &) { options.validate = false; }},
    {nullptr, "--segment", "L", TakenBy::kSegments,
     "sort n / L separate arrays of L keys each, every one in the\n"
     "                  requested order (L a power of two, n a multiple of L)",
     [](Options &options, const Given &given) { options.segment = parse_power_of_two(given, 2); }},
    {nullptr, "--values", nullptr, TakenBy::kValues,
     "argsort: every key carries its index in its array, and the run\n"
     "                  returns each array's permutation, checked (--output writes it)",
     [](Options &options, const Given &) { options.values = true; }},
    {nullptr, "--top", "K", TakenBy::kTops,
     "keep only the first K keys of each array, its K smallest (largest\n"
     "                  with --order desc) in order; K a power of two up to L",
     [](Options &options, const Given &given) { options.top = parse_power_of_two(given, 1); }},
    {nullptr, "--gpus", "P", TakenBy::kGpus,
     "sort across GPUs 0 .. P - 1, P a power of two up to 16, at most 2^30\n"
     "                  keys each (default: the most GPUs, a power of two, there are)",
     [](Options &options, const Given &given) {
       options.gpus = static_cast<unsigned>(parse_power_of_two(given, 1, kMaxGpus));
     }},
    {nullptr, "--algo", "NAME", TakenBy::kAlgorithms, nullptr,
     [](Options &options, const Given &given) {
       for (const std::string &name : given.program.algorithms) {
         if (name == given.value) {
           options.algorithm = given.value;
           return;
         }
       }
       bad_argument("--algo expects one of " + join(given.program.algorithms) + ", got '" +
                    given.value + "'");
     }},
    {nullptr, "--trace-launches", nullptr, TakenBy::kTraces,
     "print the kernel launches of one sort of n keys (padded to 2^k),\n"
     "                  one CSV line each, and exit; needs no GPU",
     [](Options &options, const Given &) { options.trace_launches = true; }},
    {"report", "--csv", nullptr, TakenBy::kAll,
     "one CSV record (with a header line) instead of the text report",
     [](Options &options, const Given &) { options.format = OutputFormat::kCsv; }},
    {nullptr, "--no-header", nullptr, TakenBy::kAll, "with --csv, leave out the header line",
     [](Options &options, const Given &) { options.header = false; }},
    {nullptr, "--help", nullptr, TakenBy::kAll, "print this text",
     [](Options &options, const Given &) { options.help = true; }},
};

// The option called `name` that `program` takes, or nullptr. "-h" is "--help".
const OptionSpec *find_option(const std::string &name, const ProgramSpec &program) {
  for (const OptionSpec &spec : kOptionSpecs) {
    if ((name == spec.name || (name == "-h" && std::string(spec.name) == "--help")) &&
        takes(program, spec.taken_by)) {
      return &spec;
    }
  }
  return nullptr;
}

// The --help text of one option; --dist and --algo list their names, which the program knows.
std::string option_help(const OptionSpec &spec, const ProgramSpec &program) {
  const std::string name = std::string(std::string(spec.name) == "--help" ? "-h, " : "") +
      spec.name + (spec.value ? std::string(" ") + spec.value : "");
  std::string help = spec.help ? spec.help : "";
  if (std::string(spec.name) == "--dist") {
    help = distribution_list() + " (default uniform)";
  } else if (program.gpus && std::string(spec.name) == "--log2") {
    help = "sort n = 2^Q keys, Q from 0 to 34 (at most 2^30 per GPU)";
  } else if (program.gpus && std::string(spec.name) == "-n") {
    help = "sort N keys, N from 1 to 2^34 (any N: padded to 2^k)";
  } else if (std::string(spec.name) == "--algo") {
    help = "run one of " + join(program.algorithms) + " (default: all)";
  } else if (std::string(spec.name) == "--output" && !takes(program, TakenBy::kValues)) {
    // A program without --values writes keys alone.
    help =
        "write the sorted keys to FILE (raw little-endian int32); written\n"
        "                  completely or not at all";
  }
  std::string line = "  " + name;
  // Help texts start in column 18, or two spaces after a longer name.
  line += line.size() < 16 ? std::string(18 - line.size(), ' ') : "  ";
  return line + help + "\n";
}

// Refuses options that contradict each other; `given` holds every option on the line.
void check_combinations(const Options &options, const std::set<std::string> &given) {
  if (given.count("--log2") && given.count("-n")) {
    bad_argument("--log2 and -n both set the number of keys: give one of them");
  }
  if (!options.input_path.empty() && options.size_given) {
    bad_argument("--input takes the number of keys from the file: drop --log2 and -n");
  }
  if (!options.input_path.empty() && (given.count("--dist") || given.count("--seed"))) {
    bad_argument(
        "--input reads the keys from the file, and --dist and --seed choose generated "
        "keys: drop them");
  }
  if (options.trace_launches && !options.input_path.empty()) {
    bad_argument("--trace-launches takes the number of keys from --log2 or -n: drop --input");
  }
  if (options.trace_launches && (given.count("--csv") || given.count("--no-header"))) {
    bad_argument(
        "--trace-launches prints CSV lines of its own, header first: drop --csv and "
        "--no-header");
  }
  if (given.count("--no-header") && !given.count("--csv")) {
    bad_argument("--no-header leaves out the header line of --csv: give --csv too, or drop it");
  }
  if (options.segment != 0 && options.input_path.empty()) {
    check_segment(options.segment, options.n, "");
  }
  if (options.top != 0 && options.input_path.empty()) {
    check_top(options.top, options.segment == 0 ? options.n : options.segment,
              options.segment == 0 ? "n" : "--segment");
  }
}

}  // namespace

Options parse_command_line(const std::vector<std::string> &arguments, const ProgramSpec &program) {
  Options options;
  // Every option that was given: one given twice is refused, not silently overridden.
  std::set<std::string> given;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    // "--name=value" is the same as "--name value".
    std::string name = arguments[i];
    const std::size_t equals = name.find('=');
    const bool inline_value = name.rfind("-", 0) == 0 && equals != std::string::npos;
    if (inline_value) {
      name = name.substr(0, equals);
    }
    const OptionSpec *spec = find_option(name, program);
    if (spec == nullptr) {
      bad_argument(name.rfind("-", 0) == 0 ? "unknown option '" + name + "'"
                                           : "unexpected argument '" + name + "'");
    }
    if (!given.insert(spec->name).second) {
      bad_argument(name + " is given twice: give it once");
    }
    std::string value;
    if (spec->value == nullptr && inline_value) {
      bad_argument(name + " takes no value, got '" + arguments[i].substr(equals + 1) + "'");
    } else if (inline_value) {
      value = arguments[i].substr(equals + 1);
    } else if (spec->value != nullptr) {
      if (i + 1 >= arguments.size()) {
        bad_argument(name + " needs a value");
      }
      value = arguments[++i];
    }
    spec->apply(options, Given{name, value, program});
  }
  options.size_given = given.count("--log2") || given.count("-n");
  check_combinations(options, given);
  return options;
}

void check_segment(std::uint64_t segment, std::uint64_t n, const std::string &what) {
  if (segment > n || n % segment != 0) {
    bad_argument("--segment " + std::to_string(segment) + " must divide the number of keys into " +
                 "whole arrays, but " + (what.empty() ? "n" : what) + " is " + std::to_string(n));
  }
}

void check_top(std::uint64_t top, std::uint64_t array, const std::string &what) {
  if (top > array) {
    bad_argument("--top " + std::to_string(top) + " keeps more keys than an array has: " + what +
                 " is " + std::to_string(array));
  }
}

std::string usage_text(const ProgramSpec &program) {
  const char *what = program.floats
      ? "Sorts 32-bit signed integers or floats (--type float) on the GPU, checks the result\n"
        "against std::sort and reports the median time of several runs.\n\n"
      : "Sorts 32-bit signed integers on the GPU, checks the result against std::sort and\n"
        "reports the median time of several runs.\n\n";
  std::string text = "usage: " + program.name + " [options]\n\n" + what;
  for (const OptionSpec &spec : kOptionSpecs) {
    if (takes(program, spec.taken_by)) {
      text += (spec.heading ? std::string(spec.heading) + ":\n" : "") + option_help(spec, program);
    }
  }
  return text +
      "\n"
      "exit codes: 0 success, 1 validation failed, 2 bad command line or input file,\n"
      "            3 no usable CUDA device or a CUDA error, 4 not enough device or host memory\n";
}
