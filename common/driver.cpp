// driver.cpp: the shared main() of the course's programs.
#include "driver.h"

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>

#include "cli.h"
#include "data.h"
#include "device.h"
#include "errors.h"
#include "host_memory.h"
#include "padding.h"
#include "reference.h"
#include "report.h"
#include "validate.h"

namespace {

TimedRun time_host_sort(const HostSort &sort, const std::vector<int> &input, std::size_t segment,
                        bool ascending, int reps) {
  // No warm-up: a host sort has no module to load, and at the sizes that matter its data does
  // not stay in the caches between runs anyway.
  TimedRun run;
  run.padded_n = input.size();
  std::vector<double> times;
  for (int rep = 0; rep < reps; ++rep) {
    run.output = input;
    const auto start = std::chrono::steady_clock::now();
    sort(run.output, segment, ascending);
    const auto stop = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  run.sort_ms = median(times);
  run.total_ms = run.sort_ms;
  return run;
}

std::string host_cpu_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      return "CPU " + line.substr(line.find(':') + 2);
    }
  }
  return "CPU";
}

// The report of one run, everything but the validation result.
Report describe_run(const Algorithm &algorithm, const TimedRun &run, const Options &options,
                    const DeviceInfo &device, std::uint64_t n, bool from_file) {
  Report report;
  report.program = algorithm.name;
  if (algorithm.device_sort) {
    report.device = device.name;
    report.compute_capability = device.compute_capability;
    report.cuda_runtime = device.runtime_version;
    report.cuda_driver = device.driver_version;
  } else {
    report.device = host_cpu_name();
    report.on_host = true;
  }
  report.n = n;
  report.padded_n = run.padded_n;
  report.ascending = options.ascending;
  report.distribution = from_file ? "file" : distribution_name(options.distribution);
  report.seed = options.seed;
  report.segment = options.segment;
  if (algorithm.launches_are_passes) {
    report.launches = static_cast<long long>(run.launches);
    report.passes = report.launches;
  } else if (algorithm.is_copy) {
    report.passes = 1;
  }
  report.reps = options.reps;
  report.sort_ms = run.sort_ms;
  report.total_ms = run.total_ms;
  return report;
}

void print_report(const Options &options, const Report &report, bool first) {
  switch (options.format) {
    case OutputFormat::kHuman:
      if (!first) {
        std::cout << "\n";
      }
      print_text(std::cout, report);
      break;
    case OutputFormat::kCsv:
      if (first && options.header) {
        print_csv_header(std::cout);
      }
      print_csv(std::cout, report);
      break;
    case OutputFormat::kJson:
      print_json(std::cout, report);
      break;
  }
  std::cout.flush();
}

}  // namespace

Algorithm device_algorithm(const std::string &name, void (*sort)(int *, unsigned, bool)) {
  Algorithm algorithm;
  algorithm.name = name;
  algorithm.device_sort = [sort](int *keys, unsigned n, unsigned, bool ascending) {
    sort(keys, n, ascending);
  };
  return algorithm;
}

Algorithm segmented_device_algorithm(const std::string &name,
                                     void (*sort_segments)(int *, unsigned, unsigned, bool)) {
  Algorithm algorithm;
  algorithm.name = name;
  algorithm.device_sort = sort_segments;
  algorithm.sorts_segments = true;
  return algorithm;
}

Algorithm stage_algorithm(const std::string &name, void (*sort)(int *, unsigned, bool)) {
  Algorithm algorithm = device_algorithm(name, sort);
  algorithm.pads_to_power_of_two = true;
  algorithm.launches_are_passes = true;
  return algorithm;
}

Algorithm segmented_stage_algorithm(const std::string &name,
                                    void (*sort_segments)(int *, unsigned, unsigned, bool)) {
  Algorithm algorithm = segmented_device_algorithm(name, sort_segments);
  algorithm.pads_to_power_of_two = true;
  algorithm.launches_are_passes = true;
  return algorithm;
}

int run_program(int argc, char **argv, const std::string &program_name,
                const std::vector<Algorithm> &algorithms) {
  ProgramSpec program{program_name, {}, false};
  for (const Algorithm &algorithm : algorithms) {
    if (algorithms.size() > 1) {
      program.algorithms.push_back(algorithm.name);
    }
    program.segments = program.segments || algorithm.sorts_segments;
    program.traces = program.traces || static_cast<bool>(algorithm.print_launches);
  }
  try {
    const Options options =
        parse_command_line(std::vector<std::string>(argv + 1, argv + argc), program);
    if (options.help) {
      std::cout << usage_text(program);
      return kExitSuccess;
    }
    if (options.trace_launches) {
      // The plan of one sort, from the stage's own for_each_launch: no keys, no GPU.
      const std::uint64_t padded = next_power_of_two(options.n);
      algorithms.front().print_launches(
          static_cast<unsigned>(padded),
          static_cast<unsigned>(options.segment == 0 ? padded : options.segment));
      return kExitSuccess;
    }
    std::vector<const Algorithm *> chosen;
    for (const Algorithm &algorithm : algorithms) {
      const bool named = options.algorithm.empty() || options.algorithm == algorithm.name;
      if (named && options.segment != 0 && !algorithm.sorts_segments) {
        if (!options.algorithm.empty()) {
          throw FatalError(
              kExitBadInput,
              "--segment: " + algorithm.name + " sorts whole arrays only (see --help)");
        }
      } else if (named) {
        chosen.push_back(&algorithm);
      }
    }
    if (!options.output_path.empty() && chosen.size() > 1) {
      throw FatalError(kExitBadInput, "--output keeps the keys of one sort: add --algo NAME");
    }
    // Made now, so that an output that cannot be written fails before any work is done.
    std::unique_ptr<OutputFile> output;
    if (!options.output_path.empty()) {
      output = std::make_unique<OutputFile>(options.output_path);
    }

    const bool from_file = !options.input_path.empty();
    if (from_file && output && output->is_same_file_as(options.input_path)) {
      throw FatalError(kExitBadInput,
                       "--output names the same file as --input; write the result to another file");
    }
    // The input, the expected result, the output, and the pinned input and output buffers.
    const std::uint64_t host_bytes_per_key = 5 * sizeof(int);
    DeviceInfo device;
    bool uses_device = false;
    for (const Algorithm *algorithm : chosen) {
      uses_device = uses_device || static_cast<bool>(algorithm->device_sort);
    }
    // Generated keys come after the device: a machine without one says so at once, instead of
    // after making 2^30 keys. A file's keys come first: a bad file is the first thing to report.
    if (uses_device && !from_file) {
      device = select_device(options.device);
    }
    const std::uint64_t known = from_file ? known_key_count(options.input_path) : options.n;
    if (known != 0) {
      require_host_memory(known * host_bytes_per_key, std::to_string(known) + " keys on the host");
    }
    const std::vector<int> input = from_file
        ? read_keys_file(options.input_path)
        : generate_keys(options.distribution, options.n, options.seed);
    const std::uint64_t n = input.size();
    if (known == 0) {
      require_host_memory(n * host_bytes_per_key, std::to_string(n) + " keys on the host");
    }
    if (from_file && options.segment != 0) {
      check_segment(options.segment, n, "the number of keys in '" + options.input_path + "'");
    }
    if (uses_device && from_file) {
      device = select_device(options.device);
    }
    std::vector<int> expected;
    if (options.validate) {
      expected = options.segment == 0
          ? std_sorted_copy(input, options.ascending)
          : std_sorted_segments_copy(input, options.segment, options.ascending);
    }

    ExitCode status = kExitSuccess;
    bool first = true;
    for (const Algorithm *algorithm : chosen) {
      const TimedRun run = algorithm->device_sort
          ? time_device_sort(algorithm->device_sort, algorithm->pads_to_power_of_two, input,
                             options.segment, options.ascending, 1, options.reps)
          : time_host_sort(algorithm->host_sort, input, options.segment == 0 ? n : options.segment,
                           options.ascending, options.reps);
      Report report = describe_run(*algorithm, run, options, device, n, from_file);
      report.validation = "skipped";
      bool passed = true;
      if (options.validate) {
        const Validation validation =
            compare_keys(algorithm->is_copy ? input : expected, run.output);
        passed = validation.passed();
        report.validation = passed ? "pass" : "FAIL";
        if (!passed) {
          std::cerr << program_name << ": validation failed for " << algorithm->name << ": "
                    << describe_mismatches(validation, n,
                                           algorithm->is_copy ? "the input" : "std::sort",
                                           options.segment)
                    << "\n";
          status = kExitValidationFailed;
        }
      }
      print_report(options, report, first);
      first = false;
      if (output && passed) {
        output->commit(run.output);
      }
    }
    return status;
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
