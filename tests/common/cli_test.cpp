// cpu suite: the command line. Every option, both spellings of a value, and every kind of bad
// input: each must be refused with exit code 2 and a message naming what was wrong.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "errors.h"

namespace {

const ProgramSpec kStage{"v0_naive", {}, false};
const ProgramSpec kBatched{"v8_batched", {}, true};
const ProgramSpec kBaselines{"baselines", {"std_sort", "cub_radix"}, true};

Options parse(const std::vector<std::string> &arguments, const ProgramSpec &program = kStage) {
  return parse_command_line(arguments, program);
}

// The message of the FatalError that parsing throws; fails the test if none is thrown or the
// exit code is not kExitBadInput.
std::string refusal(const std::vector<std::string> &arguments,
                    const ProgramSpec &program = kStage) {
  try {
    parse_command_line(arguments, program);
  } catch (const FatalError &error) {
    CHECK(error.exit_code() == kExitBadInput);
    return error.what();
  }
  FAIL("the command line was accepted");
  return "";
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("defaults") {
  const Options options = parse({});
  CHECK(options.n == (1u << 20));
  CHECK(options.ascending);
  CHECK(options.distribution == Distribution::kUniform);
  CHECK(options.seed == 1);
  CHECK(options.reps == 10);
  CHECK(options.validate);
  CHECK(options.format == OutputFormat::kHuman);
  CHECK(options.header);
  CHECK(options.device == 0);
  CHECK(options.input_path.empty());
  CHECK(options.output_path.empty());
  CHECK_FALSE(options.help);
}

TEST_CASE("every option, with its value as the next argument or after '='") {
  CHECK(parse({"--log2", "24"}).n == (1u << 24));
  CHECK(parse({"--log2=0"}).n == 1);
  CHECK(parse({"--log2", "30"}).n == (1u << 30));
  CHECK(parse({"-n", "1000"}).n == 1000);
  CHECK(parse({"-n1"}).n == 1);
  CHECK(parse({"-n", "1073741824"}).n == (1u << 30));
  CHECK_FALSE(parse({"--order", "desc"}).ascending);
  CHECK(parse({"--order=asc"}).ascending);
  CHECK(parse({"--dist", "organ-pipe"}).distribution == Distribution::kOrganPipe);
  CHECK(parse({"--dist=few-unique"}).distribution == Distribution::kFewUnique);
  CHECK(parse({"--seed", "18446744073709551615"}).seed == UINT64_MAX);
  CHECK(parse({"--reps", "3"}).reps == 3);
  CHECK_FALSE(parse({"--no-validate"}).validate);
  CHECK(parse({"--csv"}).format == OutputFormat::kCsv);
  CHECK_FALSE(parse({"--csv", "--no-header"}).header);
  CHECK(parse({"--device", "1"}).device == 1);
  CHECK(parse({"--input", "keys.bin"}).input_path == "keys.bin");
  CHECK(parse({"--output=sorted.bin"}).output_path == "sorted.bin");
  CHECK(parse({"-h"}).help);
  CHECK(parse({"--help"}).help);
  CHECK(parse({"--algo", "cub_radix"}, kBaselines).algorithm == "cub_radix");
}

TEST_CASE("every distribution name is accepted") {
  for (Distribution distribution : all_distributions()) {
    CHECK(parse({"--dist", distribution_name(distribution)}).distribution == distribution);
  }
}

TEST_CASE("numbers that are not whole numbers in range are refused, naming option and value") {
  CHECK(contains(refusal({"--log2", "abc"}),
                 "--log2: expects a whole number from 0 to 30, got 'abc'"));
  CHECK(contains(refusal({"--log2", "12abc"}), "got '12abc'"));
  CHECK(contains(refusal({"--log2", "1e3"}), "got '1e3'"));
  CHECK(contains(refusal({"--log2", " 5"}), "got ' 5'"));
  CHECK(contains(refusal({"--log2", "+5"}), "got '+5'"));
  CHECK(contains(refusal({"--log2", "2.5"}), "got '2.5'"));
  CHECK(contains(refusal({"--log2="}), "--log2: 1 required Q missing"));
  // Negative numbers.
  CHECK(contains(refusal({"--log2", "-3"}), "got '-3'"));
  CHECK(
      contains(refusal({"-n", "-1"}), "-n: expects a whole number from 1 to 1073741824, got '-1'"));
  CHECK(contains(refusal({"--reps", "-2"}), "--reps: expects a whole number"));
  CHECK(contains(refusal({"--device", "-1"}), "--device: expects a whole number"));
  CHECK(contains(refusal({"--seed", "-1"}), "--seed: expects a whole number"));
  // Zero where it makes no sense.
  CHECK(contains(refusal({"-n", "0"}), "-n: expects a whole number from 1 to 1073741824, got '0'"));
  CHECK(contains(refusal({"--reps", "0"}),
                 "--reps: expects a whole number from 1 to 100000, got '0'"));
  // Too large, and too large for 64 bits.
  CHECK(contains(refusal({"--log2", "31"}), "got '31'"));
  CHECK(contains(refusal({"-n", "1073741825"}), "got '1073741825'"));
  CHECK(contains(refusal({"-n", "99999999999999999999999"}), "got '99999999999999999999999'"));
  CHECK(contains(refusal({"--seed", "18446744073709551616"}), "--seed: expects a whole number"));
  CHECK(contains(refusal({"--reps", "100001"}), "got '100001'"));
  CHECK(contains(refusal({"--device", "4096"}), "got '4096'"));
}

TEST_CASE("unknown options, stray arguments and missing values are refused") {
  CHECK(contains(refusal({"--frobnicate"}), "unexpected arguments: --frobnicate"));
  CHECK(contains(refusal({"-x"}), "unexpected arguments: -x"));
  // No abbreviations: --log is not --log2.
  CHECK(contains(refusal({"--log", "5"}), "unexpected arguments: --log 5"));
  CHECK(contains(refusal({"24"}), "unexpected arguments: 24"));
  CHECK(contains(refusal({"--log2"}), "--log2: 1 required Q missing"));
  CHECK(contains(refusal({"--dist"}), "--dist: 1 required uniform|sorted|"));
  CHECK(contains(refusal({"--input"}), "--input: 1 required FILE missing"));
  CHECK(contains(refusal({"--csv=yes"}), "--csv takes no value, got 'yes'"));
  CHECK(contains(refusal({"--no-validate=false"}), "--no-validate takes no value, got 'false'"));
  CHECK(contains(refusal({"--input="}), "--input: 1 required FILE missing"));
  CHECK(contains(refusal({"--input", ""}), "--input: needs a file name, got ''"));
  CHECK(contains(refusal({"--output", ""}), "--output: needs a file name, got ''"));
  // --help does not hide a mistake.
  CHECK(contains(refusal({"--frobnicate", "--help"}), "unexpected arguments: --frobnicate"));
  // --algo exists only for the baselines.
  CHECK(contains(refusal({"--algo", "cub_radix"}), "unexpected arguments: --algo cub_radix"));
}

TEST_CASE("names that are not among the choices are refused, listing the choices") {
  const std::string distribution = refusal({"--dist", "gauss"});
  CHECK(contains(distribution,
                 "--dist: gauss not in {uniform,sorted,reversed,equal,few-unique,organ-pipe,"
                 "extremes}"));
  CHECK(contains(refusal({"--order", "up"}), "--order: up not in {asc,desc}"));
  CHECK(contains(refusal({"--order", "ASC"}), "ASC not in"));
  CHECK(contains(refusal({"--algo", "bogo"}, kBaselines),
                 "--algo: bogo not in {std_sort,cub_radix}"));
}

TEST_CASE("options that contradict each other are refused") {
  CHECK(contains(refusal({"--log2", "4", "-n", "16"}), "--log2 excludes -n"));
  CHECK(contains(refusal({"--input", "a.bin", "--log2", "4"}), "--log2 excludes --input"));
  CHECK(contains(refusal({"-n", "5", "--input", "a.bin"}), "-n excludes --input"));
  CHECK(contains(refusal({"--input", "a.bin", "--dist", "sorted"}), "--dist excludes --input"));
  CHECK(contains(refusal({"--seed", "7", "--input", "a.bin"}), "--seed excludes --input"));
  CHECK(contains(refusal({"--no-header"}), "--no-header requires --csv"));
}

TEST_CASE("an option given twice is refused, whichever spelling") {
  const char *twice = " is given 2 times: give it once";
  CHECK(contains(refusal({"--log2", "10", "--log2", "12"}), std::string("--log2") + twice));
  CHECK(contains(refusal({"-n", "10", "-n12"}), std::string("-n") + twice));
  CHECK(contains(refusal({"--dist=sorted", "--dist", "equal"}), std::string("--dist") + twice));
  CHECK(contains(refusal({"--csv", "--csv"}), std::string("--csv") + twice));
  CHECK(contains(refusal({"--segment", "4", "--segment", "8"}, kBatched),
                 std::string("--segment") + twice));
}

TEST_CASE("--segment: a power of two that cuts the keys into whole arrays") {
  CHECK(parse({"--segment", "256"}, kBatched).segment == 256);
  CHECK(parse({"--segment=2", "--log2", "1"}, kBatched).segment == 2);
  CHECK(parse({"-n", "3072", "--segment", "1024"}, kBatched).segment == 1024);
  CHECK(parse({"--log2", "20", "--segment", "1048576"}, kBatched).segment == (1u << 20));
  CHECK(parse({}, kBatched).segment == 0);
  CHECK(contains(refusal({"--segment", "1000"}, kBatched),
                 "--segment: expects a power of two from 2 to 1073741824, got '1000'"));
  CHECK(contains(refusal({"--segment", "1"}, kBatched), "got '1'"));
  CHECK(contains(refusal({"--segment", "-4"}, kBatched), "got '-4'"));
  // Whether L cuts the keys into whole arrays is the driver's check (check_arrays, input.h),
  // once the number of keys is known: exit_codes_test runs it.
  CHECK(parse({"--log2", "10", "--segment", "2048"}, kBatched).segment == 2048);
  // Only programs that sort many arrays take it.
  CHECK(contains(refusal({"--segment", "16"}), "unexpected arguments: --segment 16"));
  CHECK(contains(usage_text(kBatched), "--segment L"));
  CHECK_FALSE(contains(usage_text(kStage), "--segment"));
}

TEST_CASE("every refusal points to --help") {
  CHECK(contains(refusal({"--frobnicate"}), "(see --help)"));
  CHECK(contains(refusal({"-n", "0"}), "(see --help)"));
}

TEST_CASE("the help text names every option and the exit codes") {
  const std::string text = usage_text(kBaselines);
  for (const char *option :
       {"--log2", "-n N", "--order", "--dist", "--seed", "--reps", "--no-validate", "--csv",
        "--no-header", "--device", "--input", "--output", "--algo", "--help"}) {
    CHECK_MESSAGE(contains(text, option), option);
  }
  CHECK(contains(text, "exit codes: 0 success, 1 validation failed, 2 bad command line"));
  CHECK_FALSE(contains(usage_text(kStage), "--algo"));
  // Each program's help names only what it takes: --values is the argsorts' alone.
  const ProgramSpec argsort{"v9_argsort", {}, true, true, true};
  CHECK_FALSE(contains(usage_text(kStage), "--values"));
  CHECK(contains(usage_text(argsort), "(with --values, the indices)"));
}

TEST_CASE("the help texts are cut into lines of at most 100 characters, no word lost") {
  const ProgramSpec tops{"v10_top_k", {}, true, true, true, true};
  const std::string text = usage_text(tops);
  std::string joined;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    // A line of help text starts in the column CLI11 gives it; the option's own line may be
    // longer (its name and CLI11's "Excludes: ...").
    if (line.rfind(std::string(24, ' '), 0) == 0) {
      CHECK_MESSAGE(line.size() <= 100, line);
    }
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      joined += word + " ";
    }
    start = end + 1;
  }
  CHECK(contains(joined,
                 "keep only the first K keys of each array, its K smallest (largest "
                 "with --order desc) in order; K a power of two up to L"));
  CHECK(contains(joined,
                 "exit codes: 0 success, 1 validation failed, 2 bad command line or "
                 "input file, 3 no usable CUDA device or a CUDA error, 4 not enough "
                 "device or host memory"));
}

TEST_CASE("--trace-launches: the stages only, with the size from --log2 or -n") {
  const ProgramSpec tracing{"v6_multistep", {}, false, true};
  CHECK(parse({"--trace-launches", "--log2", "24"}, tracing).trace_launches);
  CHECK_FALSE(parse({"--log2", "24"}, tracing).trace_launches);
  CHECK(contains(refusal({"--trace-launches", "--input", "keys.bin"}, tracing),
                 "--input excludes --trace-launches"));
  CHECK(contains(refusal({"--trace-launches=yes"}, tracing), "trace-launches"));
  CHECK(
      contains(refusal({"--trace-launches", "--csv"}, tracing), "--trace-launches excludes --csv"));
  CHECK(contains(refusal({"--trace-launches"}, kBaselines),
                 "unexpected arguments: --trace-launches"));
}

TEST_CASE("--top: a power of two, at most an array's keys, for the programs with a top-k") {
  const ProgramSpec tops{"v10_top_k", {}, true, true, true, true};
  CHECK(parse({"--top", "16", "--segment", "64"}, tops).top == 16);
  CHECK(parse({"--top=1"}, tops).top == 1);
  CHECK(parse({"--segment", "64"}, tops).top == 0);
  CHECK(contains(usage_text(tops), "\n  --top K "));
  CHECK(contains(refusal({"--top", "12"}, tops), "--top: expects a power of two"));
  CHECK(contains(refusal({"--top", "0"}, tops), "--top: expects a power of two from 1"));
  CHECK(contains(refusal({"--top"}, tops), "--top: 1 required K missing"));
  CHECK(contains(refusal({"--top", "4", "--top", "8"}, tops), "--top is given 2 times"));
  CHECK(contains(refusal({"--top", "4"}, kBatched), "unexpected arguments: --top 4"));
  CHECK_FALSE(contains(usage_text(kBatched), "\n  --top "));
}

TEST_CASE("--type: int or float, for the programs that sort floats") {
  ProgramSpec floats{"v11_float_keys", {}, true, true, true, true};
  floats.floats = true;
  CHECK(parse({"--type", "float"}, floats).floats);
  CHECK_FALSE(parse({"--type=int"}, floats).floats);
  CHECK_FALSE(parse({}, floats).floats);
  CHECK(contains(usage_text(floats), "\n  --type int|float "));
  CHECK(contains(refusal({"--type", "double"}, floats), "--type: double not in {int,float}"));
  CHECK(contains(refusal({"--type"}, floats), "--type: 1 required int|float missing"));
  CHECK(contains(refusal({"--type", "int", "--type", "float"}, floats), "--type is given 2 times"));
  const ProgramSpec tops{"v10_top_k", {}, true, true, true, true};
  CHECK(contains(refusal({"--type", "float"}, tops), "unexpected arguments: --type float"));
  CHECK_FALSE(contains(usage_text(tops), "\n  --type "));
}

TEST_CASE("--values: only the programs that have an argsort take it") {
  const ProgramSpec pairs{"baselines", {"cub_segmented"}, true, false, true};
  CHECK(parse({"--values", "--segment", "8"}, pairs).values);
  CHECK_FALSE(parse({"--segment", "8"}, pairs).values);
  CHECK(contains(usage_text(pairs), "\n  --values "));
  CHECK(contains(refusal({"--values=yes"}, pairs), "--values takes no value, got 'yes'"));
  CHECK(contains(refusal({"--values", "--values"}, pairs), "--values is given 2 times"));
  CHECK(contains(refusal({"--values"}, kBaselines), "unexpected arguments: --values"));
  CHECK(contains(refusal({"--values"}, kBatched), "unexpected arguments: --values"));
  CHECK_FALSE(contains(usage_text(kStage), "\n  --values "));
}
