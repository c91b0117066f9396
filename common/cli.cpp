// cli.cpp: parsing the shared command line. Every mistake becomes one FatalError whose message
// names the argument, says what was expected and what was given.
#include "cli.h"

#include <charconv>
#include <set>
#include <sstream>

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

std::string distribution_list() {
  std::string names;
  for (Distribution distribution : all_distributions()) {
    names += (names.empty() ? "" : ", ") + std::string(distribution_name(distribution));
  }
  return names;
}

std::string join(const std::vector<std::string> &words) {
  std::string joined;
  for (const std::string &word : words) {
    joined += (joined.empty() ? "" : ", ") + word;
  }
  return joined;
}

}  // namespace

Options parse_command_line(const std::vector<std::string> &arguments, const ProgramSpec &program) {
  Options options;
  bool log2_given = false;
  bool n_given = false;
  bool csv = false;
  bool json = false;
  // Every option that was given: one given twice is refused, not silently overridden.
  std::set<std::string> given;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    std::string option = arguments[i];
    std::string value;
    bool has_inline_value = false;
    // "--name=value" is the same as "--name value".
    const std::size_t equals = option.find('=');
    if (option.rfind("-", 0) == 0 && equals != std::string::npos) {
      value = option.substr(equals + 1);
      option = option.substr(0, equals);
      has_inline_value = true;
    }
    auto take_value = [&]() -> std::string {
      if (has_inline_value) {
        return value;
      }
      if (i + 1 >= arguments.size()) {
        bad_argument(option + " needs a value");
      }
      return arguments[++i];
    };
    auto refuse_value = [&]() {
      if (has_inline_value) {
        bad_argument(option + " takes no value, got '" + value + "'");
      }
    };
    if (option.rfind("-", 0) == 0 && !given.insert(option == "-h" ? "--help" : option).second) {
      bad_argument(option + " is given twice: give it once");
    }

    if (option == "-h" || option == "--help") {
      refuse_value();
      options.help = true;
    } else if (option == "--log2") {
      // 2^30 is the most keys a run sorts (padding.h).
      const std::uint64_t log2 = parse_whole_number(option, take_value(), 0, 30);
      options.n = std::uint64_t{1} << log2;
      log2_given = true;
    } else if (option == "-n") {
      options.n = parse_whole_number(option, take_value(), 1, kMaxKeys);
      n_given = true;
    } else if (option == "--order") {
      const std::string order = take_value();
      if (order != "asc" && order != "desc") {
        bad_argument("--order expects asc or desc, got '" + order + "'");
      }
      options.ascending = order == "asc";
    } else if (option == "--dist") {
      const std::string name = take_value();
      if (!parse_distribution(name, &options.distribution)) {
        bad_argument("--dist expects one of " + distribution_list() + ", got '" + name + "'");
      }
    } else if (option == "--seed") {
      options.seed = parse_whole_number(option, take_value(), 0, UINT64_MAX);
    } else if (option == "--reps") {
      options.reps = static_cast<int>(parse_whole_number(option, take_value(), 1, 100000));
    } else if (option == "--no-validate") {
      refuse_value();
      options.validate = false;
    } else if (option == "--csv") {
      refuse_value();
      csv = true;
    } else if (option == "--json") {
      refuse_value();
      json = true;
    } else if (option == "--no-header") {
      refuse_value();
      options.header = false;
    } else if (option == "--device") {
      options.device = static_cast<int>(parse_whole_number(option, take_value(), 0, 1023));
    } else if (option == "--input") {
      options.input_path = take_value();
      if (options.input_path.empty()) {
        bad_argument("--input needs a file name");
      }
    } else if (option == "--output") {
      options.output_path = take_value();
      if (options.output_path.empty()) {
        bad_argument("--output needs a file name");
      }
    } else if (option == "--trace-launches" && program.traces) {
      refuse_value();
      options.trace_launches = true;
    } else if (option == "--segment" && program.segments) {
      options.segment = parse_whole_number(option, take_value(), 2, kMaxKeys);
      if ((options.segment & (options.segment - 1)) != 0) {
        bad_argument("--segment expects a power of two (2, 4, 8, ...), got " +
                     std::to_string(options.segment));
      }
    } else if (option == "--algo" && !program.algorithms.empty()) {
      options.algorithm = take_value();
      bool known = false;
      for (const std::string &name : program.algorithms) {
        known = known || name == options.algorithm;
      }
      if (!known) {
        bad_argument("--algo expects one of " + join(program.algorithms) + ", got '" +
                     options.algorithm + "'");
      }
    } else if (option.rfind("-", 0) == 0) {
      bad_argument("unknown option '" + option + "'");
    } else {
      bad_argument("unexpected argument '" + option + "'");
    }
  }

  if (log2_given && n_given) {
    bad_argument("--log2 and -n both set the number of keys: give one of them");
  }
  options.size_given = log2_given || n_given;
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
  if (csv && json) {
    bad_argument("--csv and --json both choose the output format: give one of them");
  }
  options.format = csv ? OutputFormat::kCsv : json ? OutputFormat::kJson : OutputFormat::kHuman;
  if (!options.output_path.empty() && options.output_path == options.input_path) {
    bad_argument("--output names the --input file; write the result to another file");
  }
  if (options.segment != 0 && options.input_path.empty()) {
    check_segment(options.segment, options.n, "");
  }
  return options;
}

void check_segment(std::uint64_t segment, std::uint64_t n, const std::string &what) {
  if (segment > n || n % segment != 0) {
    bad_argument("--segment " + std::to_string(segment) + " must divide the number of keys into " +
                 "whole arrays, but " + (what.empty() ? "n" : what) + " is " + std::to_string(n));
  }
}

std::string usage_text(const ProgramSpec &program) {
  std::ostringstream text;
  text << "usage: " << program.name << " [options]\n"
       << "\n"
       << "Sorts 32-bit signed integers on the GPU, checks the result against std::sort and\n"
       << "reports the median time of several runs.\n"
       << "\n"
       << "size (give at most one; default --log2 20):\n"
       << "  --log2 Q        sort n = 2^Q keys, Q from 0 to 30\n"
       << "  -n N            sort N keys, N from 1 to 1073741824 (any N: padded to 2^k)\n"
       << "keys:\n"
       << "  --dist NAME     " << distribution_list() << " (default uniform)\n"
       << "  --seed S        seed of the generator (default 1)\n"
       << "  --input FILE    sort the keys of a raw little-endian int32 file instead\n"
       << "  --output FILE   write the sorted keys to FILE (raw little-endian int32); the file\n"
       << "                  is written completely or not at all\n"
       << "run:\n"
       << "  --order asc|desc  sort ascending (default) or descending\n"
       << "  --reps R        timed repetitions after one warm-up (default 10); the median counts\n"
       << "  --device ID     CUDA device to use (default 0)\n"
       << "  --no-validate   skip the comparison with std::sort\n";
  if (program.segments) {
    text << "  --segment L     sort n / L separate arrays of L keys each, every one in the\n"
         << "                  requested order (L a power of two, n a multiple of L)\n";
  }
  if (!program.algorithms.empty()) {
    text << "  --algo NAME     run one of " << join(program.algorithms) << " (default: all)\n";
  }
  if (program.traces) {
    text << "  --trace-launches  print the kernel launches of one sort of n keys (padded to 2^k),\n"
         << "                  one CSV line each, and exit; needs no GPU\n";
  }
  text << "report:\n"
       << "  --csv           one CSV record (with a header line) instead of the text report\n"
       << "  --json          one JSON object instead of the text report\n"
       << "  --no-header     with --csv, leave out the header line\n"
       << "  -h, --help      print this text\n"
       << "\n"
       << "exit codes: 0 success, 1 validation failed, 2 bad command line or input file,\n"
       << "            3 no usable CUDA device or a CUDA error, 4 not enough device or host "
          "memory\n";
  return text.str();
}
