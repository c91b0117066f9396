// cli.cpp: the shared command line, declared to CLI11, which parses it and writes --help. Each
// program declares only the options its ProgramSpec says it takes; every mistake becomes one
// FatalError(kExitBadInput) whose message names the option and what was wrong: CLI11's, or ours
// where CLI11 lets a mistake through or words it obscurely.
#include "cli.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <sstream>

#include "errors.h"
#include "padding.h"

namespace {

[[noreturn]] void bad_argument(const std::string &message) {
  throw FatalError(kExitBadInput, message + " (see --help)");
}

// A whole number from `lowest` to `highest` written with digits only, a power of two if asked.
// The check is ours, not CLI11's Range: CLI11 2.1 (Debian 12's) reads "-1" for an unsigned
// option as its largest value, and a number too large for 64 bits as the largest one.
CLI::Validator whole_number(std::uint64_t lowest, std::uint64_t highest,
                            bool power_of_two = false) {
  const std::string expected = std::string(power_of_two ? "a power of two" : "a whole number") +
      " from " + std::to_string(lowest) + " to " + std::to_string(highest);
  const auto check = [=](const std::string &text) -> std::string {
    std::uint64_t value = 0;
    const char *last = text.data() + text.size();
    const auto [end, error] = std::from_chars(text.data(), last, value);
    const bool digits = !text.empty() && text[0] >= '0' && text[0] <= '9' && end == last;
    if (!digits || error != std::errc() || value < lowest || value > highest ||
        (power_of_two && (value & (value - 1)) != 0)) {
      return "expects " + expected + ", got '" + text + "'";
    }
    return "";
  };
  // The empty description keeps the range out of --help's value names: the help text says it.
  return CLI::Validator(check, "");
}

std::vector<std::string> distribution_names() {
  std::vector<std::string> names;
  for (Distribution distribution : all_distributions()) {
    names.push_back(distribution_name(distribution));
  }
  return names;
}

// A whole number option (whole_number), `value_name` in --help.
template <typename Number>
CLI::Option *add_number(CLI::App &app, const std::string &name, Number &value,
                        const std::string &value_name, const std::string &help,
                        std::uint64_t lowest, std::uint64_t highest, bool power_of_two = false) {
  return app.add_option(name, value, help)
      ->type_name(value_name)
      ->check(whole_number(lowest, highest, power_of_two));
}

// A choice among `names` (--dist, --order, --type, --algo), which --help lists as the value:
// "--order asc|desc".
CLI::Option *add_choice(CLI::App &app, const std::string &name,
                        const std::vector<std::string> &names, const std::string &help,
                        std::function<void(const std::string &)> apply) {
  return app.add_option_function<std::string>(name, apply, help)
      ->type_name(CLI::detail::join(names, "|"))
      ->check(CLI::IsMember(names).description(""));
}

// A flag, which takes no value (parse_command_line refuses "--csv=yes").
CLI::Option *add_switch(CLI::App &app, const std::string &name, const std::string &help,
                        std::function<void()> apply) {
  return app.add_flag_function(
      name, [apply](std::int64_t) { apply(); }, help);
}

// A file name, which must not be empty: --input "" would otherwise sort generated keys.
CLI::Option *add_file(CLI::App &app, const std::string &name, std::string &path,
                      const std::string &help) {
  const auto named = [](const std::string &text) -> std::string {
    return text.empty() ? "needs a file name, got ''" : "";
  };
  return app.add_option(name, path, help)->type_name("FILE")->check(CLI::Validator(named, ""));
}

// The column where --help's texts start, and a text cut into lines that end by column 100
// (CLI11 starts each line after the first in that column too).
constexpr std::size_t kHelpColumn = 24;

std::string wrapped(const std::string &text, std::size_t column = kHelpColumn) {
  std::istringstream words(text);
  std::string result, line, word;
  while (words >> word) {
    if (!line.empty() && column + line.size() + 1 + word.size() > 100) {
      result += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return result + line;
}

// The --help footer: the exit codes of errors.h, each with what it means.
std::string exit_codes_text() {
  const std::pair<ExitCode, const char *> meanings[] = {
      {kExitSuccess, "success"},
      {kExitValidationFailed, "validation failed"},
      {kExitBadInput, "bad command line or input file"},
      {kExitCudaError, "no usable CUDA device or a CUDA error"},
      {kExitOutOfMemory, "not enough device or host memory"},
  };
  std::string text;
  for (const auto &[code, meaning] : meanings) {
    text += (text.empty() ? "" : ", ") + std::to_string(code) + " " + meaning;
  }
  return wrapped("exit codes: " + text, 0) + "\n";
}

// The options `program` takes, declared to `app`, each writing its value into `options`.
void declare_options(CLI::App &app, const ProgramSpec &program, Options &options) {
  // Exact: the powers of two up to 2^34 are doubles.
  const auto log2_of = [](std::uint64_t power) { return unsigned(std::log2(double(power))); };
  const std::uint64_t most_keys = program.gpus ? kMaxGpus * kMaxKeys : kMaxKeys;
  const unsigned most_log2 = log2_of(most_keys);
  const std::string per_gpu =
      program.gpus ? ", at most 2^" + std::to_string(log2_of(kMaxKeys)) + " on each GPU" : "";
  app.footer(exit_codes_text());
  app.get_formatter()->column_width(kHelpColumn);
  // What is not an option is kept, for one message that names it (parse_command_line), as is
  // an option given twice: CLI11 would keep the last.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.allow_extras();

  // --help lists the options in groups, each declared after its group is set.
  app.option_defaults()->group("size");
  app.add_option_function<unsigned>(
         "--log2", [&options](unsigned q) { options.n = std::uint64_t{1} << q; },
         "sort n = 2^Q keys, Q from 0 to " + std::to_string(most_log2) + per_gpu + " (default " +
             std::to_string(log2_of(options.n)) + ")")
      ->type_name("Q")
      ->check(whole_number(0, most_log2));
  add_number(
      app, "-n", options.n, "N",
      "sort N keys, N from 1 to " + std::to_string(most_keys) + per_gpu + "; any N, padded to 2^k",
      1, most_keys)
      ->excludes("--log2");

  app.option_defaults()->group("keys");
  add_choice(
      app, "--dist", distribution_names(), "the keys (default uniform)",
      [&options](const std::string &name) { parse_distribution(name, &options.distribution); });
  add_number(app, "--seed", options.seed, "S", "seed of the generator (default 1)", 0, UINT64_MAX);
  if (program.floats) {
    add_choice(app, "--type", {"int", "float"},
               "32-bit ints (default) or IEEE 754 floats in totalOrder: -NaN, -inf, .., -0.0, "
               "+0.0, .., +inf, +NaN (files: float32)",
               [&options](const std::string &type) { options.floats = type == "float"; });
  }
  add_file(app, "--input", options.input_path,
           "sort the keys of a raw little-endian int32 file instead")
      ->excludes("--log2", "-n", "--dist", "--seed");
  add_file(app, "--output", options.output_path,
           std::string("write the sorted keys") +
               (program.values ? " (with --values, the indices)" : "") +
               " to FILE, raw little-endian int32, written completely or not at all");

  app.option_defaults()->group("run");
  add_choice(app, "--order", {"asc", "desc"}, "ascending (default) or descending",
             [&options](const std::string &order) { options.ascending = order == "asc"; });
  add_number(app, "--reps", options.reps, "R",
             "timed repetitions after one warm-up (default 10); the median counts", 1, 100000);
  if (!program.gpus) {
    add_number(app, "--device", options.device, "ID", "CUDA device to use (default 0)", 0, 1023);
  }
  add_switch(app, "--no-validate", "skip the comparison with std::sort",
             [&options] { options.validate = false; });
  if (program.segments) {
    add_number(app, "--segment", options.segment, "L",
               "sort n / L separate arrays of L keys each, every one in the requested order "
               "(L a power of two, n a multiple of L)",
               2, kMaxKeys, true);
  }
  if (program.values) {
    add_switch(app, "--values",
               "argsort: every key carries its index in its array, and the run returns each "
               "array's permutation, checked (--output writes it)",
               [&options] { options.values = true; });
  }
  if (program.tops) {
    add_number(app, "--top", options.top, "K",
               "keep only the first K keys of each array, its K smallest (largest with "
               "--order desc) in order; K a power of two up to L",
               1, kMaxKeys, true);
  }
  if (program.gpus) {
    add_number(app, "--gpus", options.gpus, "P",
               "sort across GPUs 0 .. P - 1, P a power of two up to " + std::to_string(kMaxGpus) +
                   " (default: the most GPUs there are that make a power of two)",
               1, kMaxGpus, true);
  }
  if (!program.algorithms.empty()) {
    add_choice(app, "--algo", program.algorithms, "run one (default: all)",
               [&options](const std::string &name) { options.algorithm = name; });
  }
  if (program.traces) {
    add_switch(app, "--trace-launches",
               "print the kernel launches of one sort of n keys (padded to 2^k), one CSV line "
               "each, and exit; needs no GPU",
               [&options] { options.trace_launches = true; })
        ->excludes("--input");
  }

  app.option_defaults()->group("report");
  CLI::Option *csv =
      add_switch(app, "--csv", "one CSV record (with a header line) instead of the text report",
                 [&options] { options.format = OutputFormat::kCsv; });
  add_switch(app, "--no-header", "with --csv, leave out the header line", [&options] {
    options.header = false;
  })->needs(csv);
  if (program.traces) {
    // --trace-launches prints CSV lines of its own, header first.
    app.get_option("--trace-launches")->excludes(csv)->excludes("--no-header");
  }
  for (CLI::Option *option : app.get_options()) {
    option->description(wrapped(option->get_description()));
  }
}

// Refuses a value given to a flag ("--csv=yes"), which CLI11 would read as true or false.
void refuse_flag_values(const CLI::App &app, const std::vector<std::string> &arguments) {
  for (const std::string &argument : arguments) {
    const std::size_t equals = argument.find('=');
    const CLI::Option *option = argument.rfind("--", 0) == 0 && equals != std::string::npos
        ? app.get_option_no_throw(argument.substr(0, equals))
        : nullptr;
    if (option != nullptr && option->get_expected_max() == 0) {
      bad_argument(argument.substr(0, equals) + " takes no value, got '" +
                   argument.substr(equals + 1) + "'");
    }
  }
}

// Refuses what CLI11 lets through: arguments that are no option (kept by allow_extras) and an
// option given more than once.
void refuse_leftovers(const CLI::App &app) {
  if (!app.remaining().empty()) {
    bad_argument("unexpected arguments: " + CLI::detail::join(app.remaining(), " "));
  }
  for (const CLI::Option *option : app.get_options()) {
    if (option->count() > 1) {
      bad_argument(option->get_name() + " is given " + std::to_string(option->count()) +
                   " times: give it once");
    }
  }
}

// What --help says first.
std::string description(const ProgramSpec &program) {
  return wrapped(std::string("Sorts 32-bit signed integers") +
                     (program.floats ? " or floats (--type float)" : "") +
                     " on the GPU, checks the result against std::sort and reports the median "
                     "time of several runs.",
                 0);
}

}  // namespace

Options parse_command_line(const std::vector<std::string> &arguments, const ProgramSpec &program) {
  Options options;
  CLI::App app(description(program), program.name);
  declare_options(app, program, options);
  // App::parse takes a vector of arguments from its back: the last argument first.
  std::vector<std::string> reversed(arguments.rbegin(), arguments.rend());
  refuse_flag_values(app, arguments);
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp &) {
    refuse_leftovers(app);
    options.help = true;
    return options;
  } catch (const CLI::ParseError &error) {
    bad_argument(error.what());
  }
  refuse_leftovers(app);
  return options;
}

std::string usage_text(const ProgramSpec &program) {
  Options unused;
  CLI::App app(description(program), program.name);
  declare_options(app, program, unused);
  return app.help();
}
