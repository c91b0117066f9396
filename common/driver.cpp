// driver.cpp: the shared main() of the course's programs.
#include "driver.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <new>

#include "cli.h"
#include "device.h"
#include "errors.h"
#include "host_sort.h"
#include "input.h"
#include "key_files.h"
#include "keys.h"
#include "padding.h"
#include "report.h"
#include "validate.h"

namespace {

// The report of one run, everything but the validation result; `gpus` is the number of GPUs of
// a sort across GPUs, 0 for any other.
Report describe_run(const Algorithm &algorithm, const TimedRun &run, const Options &options,
                    const Input &input, unsigned gpus) {
  Report report;
  report.program = algorithm.name;
  report.on_host = algorithm.kind == Kind::kHost;
  report.device = report.on_host ? host_cpu_name()
      : gpus > 1                 ? std::to_string(gpus) + " x " + input.device.name
                                 : input.device.name;
  if (!report.on_host) {
    report.compute_capability = input.device.compute_capability;
    report.cuda_runtime = input.device.runtime_version;
    report.cuda_driver = input.device.driver_version;
  }
  report.n = input.keys.size();
  report.padded_n = run.padded_n;
  report.ascending = options.ascending;
  report.distribution = input.from_file ? "file" : distribution_name(options.distribution);
  report.seed = options.seed;
  report.segment = options.segment;
  report.indices = options.values;
  report.top = options.top;
  report.floats = options.floats;
  if (algorithm.kind == Kind::kStage) {
    report.launches = static_cast<long long>(run.launches);
    // Across GPUs each launch passes over one GPU's part: the GPUs' launches over their number
    // are the passes over the whole array.
    report.passes = report.launches / std::max(1u, gpus);
  } else if (algorithm.kind == Kind::kCopy) {
    report.passes = 1;
  }
  report.reps = options.reps;
  report.sort_ms = run.sort_ms;
  report.total_ms = run.total_ms;
  if (run.exchange_ms >= 0) {
    // Each GPU sends all its keys, padded_n / gpus of them, in an exchange.
    report.exchange_ms = run.exchange_ms;
    report.exchange_bytes = run.padded_n / gpus * sizeof(int);
  }
  return report;
}

// What the command line describes for these algorithms.
ProgramSpec program_spec(const std::string &name, const std::vector<Algorithm> &algorithms) {
  ProgramSpec program{name, {}, false};
  for (const Algorithm &algorithm : algorithms) {
    if (algorithms.size() > 1) {
      program.algorithms.push_back(algorithm.name);
    }
    program.segments = program.segments || algorithm.sorts_segments;
    program.traces = program.traces || static_cast<bool>(algorithm.print_launches);
    program.values = program.values || static_cast<bool>(algorithm.pair_sort);
    program.tops = program.tops || static_cast<bool>(algorithm.top_sort);
    program.floats = program.floats || static_cast<bool>(algorithm.float_sort);
    program.gpus = program.gpus || static_cast<bool>(algorithm.gpus_sort);
  }
  return program;
}

// Why the algorithm cannot run what the options ask, or "" if it can.
std::string refusal(const Algorithm &algorithm, const Options &options) {
  if (options.segment != 0 && !algorithm.sorts_segments) {
    return "--segment: " + algorithm.name + " sorts whole arrays only (see --help)";
  }
  if (options.values && !algorithm.pair_sort) {
    return "--values: " + algorithm.name + " sorts keys only (see --help)";
  }
  if (options.top != 0 && !algorithm.top_sort) {
    return "--top: " + algorithm.name + " keeps every key (see --help)";
  }
  if (options.floats && !algorithm.float_sort) {
    return "--type float: " + algorithm.name + " sorts ints only (see --help)";
  }
  return "";
}

// The algorithms to run: the one --algo names, or all (with --segment, all that sort segments).
std::vector<const Algorithm *> chosen_algorithms(const std::vector<Algorithm> &algorithms,
                                                 const Options &options) {
  std::vector<const Algorithm *> chosen;
  for (const Algorithm &algorithm : algorithms) {
    const bool named = options.algorithm.empty() || options.algorithm == algorithm.name;
    const std::string refused = refusal(algorithm, options);
    if (named && !refused.empty()) {
      if (!options.algorithm.empty()) {
        throw FatalError(kExitBadInput, refused);
      }
    } else if (named) {
      chosen.push_back(&algorithm);
    }
  }
  if (!options.output_path.empty() && chosen.size() > 1) {
    throw FatalError(kExitBadInput, "--output keeps the keys of one sort: add --algo NAME");
  }
  return chosen;
}

// Times the algorithm as the options ask: on the host, across GPUs, of floats, as a top-k, an
// argsort or a sort of keys.
TimedRun time_run(const Algorithm &algorithm, const Options &options, const Input &input,
                  unsigned gpus) {
  const bool pads = algorithm.kind == Kind::kStage;
  if (algorithm.gpus_sort) {
    return time_gpus_sort(algorithm.gpus_sort, gpus, input.keys, options.ascending, 1,
                          options.reps);
  }
  if (algorithm.kind == Kind::kHost) {
    return time_host_sort(algorithm.host_sort, input.keys,
                          options.segment == 0 ? input.keys.size() : options.segment,
                          options.ascending, options.reps);
  }
  if (options.floats || options.top != 0) {
    // A top-k of ints or of floats; the sort of floats without --top keeps every key of an
    // array, a top-k of the array's length.
    const TopSort &top_sort = options.floats ? algorithm.float_sort : algorithm.top_sort;
    const unsigned top = static_cast<unsigned>(options.top);
    const PairSort sort = [&top_sort, top](int *keys, int *indices, unsigned n, unsigned segment,
                                           bool ascending) {
      top_sort(keys, indices, n, segment, top == 0 ? segment : top, ascending);
    };
    return time_device_sort(sort, options.values, pads, input.keys, options.segment,
                            options.ascending, 1, options.reps, options.top, options.floats);
  }
  return options.values ? time_device_sort(algorithm.pair_sort, true, pads, input.keys,
                                           options.segment, options.ascending, 1, options.reps)
                        : time_device_sort(algorithm.device_sort, pads, input.keys, options.segment,
                                           options.ascending, 1, options.reps);
}

// Runs and reports one algorithm; writes its keys (with --values, its indices) to `output` if it
// sorted them correctly.
ExitCode run_algorithm(const Algorithm &algorithm, const Options &options, const Input &input,
                       unsigned gpus, OutputFile *output, bool first,
                       const std::string &program_name) {
  const TimedRun run = time_run(algorithm, options, input, gpus);
  Report report = describe_run(algorithm, run, options, input, gpus);
  report.validation = "skipped";
  ExitCode status = kExitSuccess;
  if (options.validate) {
    const bool copy = algorithm.kind == Kind::kCopy;
    const Validation validation = compare_keys(copy ? input.keys : input.expected, run.output);
    report.validation = validation.passed() ? "pass" : "FAIL";
    if (!validation.passed()) {
      std::cerr << program_name << ": validation failed for " << algorithm.name << ": "
                << describe_mismatches(
                       validation, run.output.size(), copy ? "the input" : "std::sort",
                       options.top != 0 && options.segment != 0 ? options.top : options.segment,
                       options.floats)
                << "\n";
      status = kExitValidationFailed;
    }
    const std::string wrong_indices = options.values && validation.passed()
        ? check_indices(input.keys, run.output, run.indices, options.segment, options.top)
        : "";
    if (!wrong_indices.empty()) {
      report.validation = "FAIL";
      std::cerr << program_name << ": validation failed for " << algorithm.name << ": "
                << wrong_indices << "\n";
      status = kExitValidationFailed;
    }
  }
  print_report(options, report, first);
  if (output != nullptr && status == kExitSuccess) {
    output->commit(options.values ? run.indices : run.output);
  }
  return status;
}

int run(const std::vector<std::string> &arguments, const std::string &program_name,
        const std::vector<Algorithm> &algorithms) {
  const ProgramSpec program = program_spec(program_name, algorithms);
  const Options options = parse_command_line(arguments, program);
  if (options.help) {
    std::cout << usage_text(program);
    return kExitSuccess;
  }
  if (options.trace_launches) {
    if (options.n > kMaxKeys) {
      throw FatalError(kExitBadInput,
                       "--trace-launches prints the launches of one GPU's sort: at most " +
                           std::to_string(kMaxKeys) + " keys");
    }
    check_arrays(options, {&algorithms.front()}, 0, options.n, "n");
    // The plan of one sort, from the stage's own for_each_launch: no keys, no GPU.
    const std::uint64_t padded = next_power_of_two(options.n);
    const unsigned array = static_cast<unsigned>(options.segment == 0 ? padded : options.segment);
    if (options.top != 0) {
      algorithms.front().print_top_launches(static_cast<unsigned>(padded), array,
                                            static_cast<unsigned>(options.top));
    } else {
      algorithms.front().print_launches(static_cast<unsigned>(padded), array);
    }
    return kExitSuccess;
  }
  const std::vector<const Algorithm *> chosen = chosen_algorithms(algorithms, options);
  // Made now, so that an output that cannot be written fails before any work is done.
  std::unique_ptr<OutputFile> output;
  if (!options.output_path.empty()) {
    output = std::make_unique<OutputFile>(options.output_path);
    if (!options.input_path.empty() && output->is_same_file_as(options.input_path)) {
      throw FatalError(kExitBadInput,
                       "--output names the same file as --input; write the result to another file");
    }
  }
  // A sort across GPUs: on how many (the GPUs there are), once a file of keys is read or
  // before keys are made (load_input).
  const bool across_gpus = !chosen.empty() && chosen.front()->gpus_sort;
  const Input input = load_input(options, chosen, [&options, across_gpus] {
    return across_gpus ? choose_gpus(options.gpus) : 0u;
  });
  const unsigned gpus = input.gpus;
  ExitCode status = kExitSuccess;
  for (const Algorithm *algorithm : chosen) {
    const bool first = algorithm == chosen.front();
    if (run_algorithm(*algorithm, options, input, gpus, output.get(), first, program_name) !=
        kExitSuccess) {
      status = kExitValidationFailed;
    }
  }
  return status;
}

}  // namespace

void print_report(const Options &options, const Report &report, bool first) {
  if (options.format == OutputFormat::kCsv) {
    if (first && options.header) {
      print_csv_header(std::cout);
    }
    print_csv(std::cout, report);
  } else {
    std::cout << (first ? "" : "\n");
    print_text(std::cout, report);
  }
  std::cout.flush();
}

DeviceSort whole_array(void (*sort)(int *keys, unsigned n, bool ascending)) {
  return [sort](int *keys, unsigned n, unsigned, bool ascending) { sort(keys, n, ascending); };
}

int run_program(int argc, char **argv, const std::string &program_name,
                const std::vector<Algorithm> &algorithms) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc), program_name, algorithms);
  } catch (const FatalError &error) {
    std::cout.flush();
    std::cerr << program_name << ": error: " << error.what() << "\n";
    return error.exit_code();
  } catch (const std::bad_alloc &) {
    std::cout.flush();
    std::cerr << program_name << ": error: not enough host memory (try fewer keys)\n";
    return kExitOutOfMemory;
  }
}
