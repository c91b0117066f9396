#!/usr/bin/env python3
"""Grades a student's stage: runs exactly the checks of an exercise and says how many passed.

    python3 tools/grade.py --build build my_stage        the stage's own checks
    python3 tools/grade.py --build build my_stage 2      and exercise 2's
    python3 tools/grade.py --build build my_stage 1 2 3  several exercises, one run

Every exercise of docs/29_exercises.md is graded on the stage's own suites: its index tests
(index_STAGE), its program's exit codes (exit_codes_STAGE), its gpu tests (gpu_STAGE) and the
three compute-sanitizer tools (sanitize_*_STAGE). An exercise adds what its section names:
exercises 1 to 3 require the exercise's check among the stage's gpu tests (and exercise 1 runs
that check's small lengths under memcheck too, since the program itself always pads), exercise
4 the multistep index tests, exercise 5 a timed race with v6_multistep on keys that never move
(all equal, 2^26: the stage must take at most 0.9 of v6's time; three runs of each, taking
turns, medians), exercise 8 the tests of many arrays at once, exercise 9 those and a timed race
with v8_batched on 2^27 keys in arrays of 1024 (at most 0.95 of its time, timed as exercise 5's).
What only a person can judge (a report, a prediction) is printed as such, not counted.

A check that is skipped counts as failed: grading needs a GPU and compute-sanitizer, and on a
machine without them the script says so in one line and exits 3 before running anything. It
prints one line per check and, last, one line per exercise to collect:

    GRADE stage=my_stage exercise=2 passed=9 failed=0

and exits 0 when every check of every exercise passed, 1 when one failed, 2 on a bad command
line.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

import course

# The programs' exit code for "no usable CUDA device" (README).
NO_DEVICE = 3
SUITES = ["index_{}", "exit_codes_{}", "gpu_{}", "sanitize_memcheck_{}", "sanitize_racecheck_{}",
          "sanitize_synccheck_{}"]
# The test programs of a stage, and the kind of test list in stages.txt that each one runs.
LISTED_AS = {"index": "cpu", "gpu": "gpu"}
UNPADDED_SMALL = "every n from 1 to 100 without padding"
# exercise -> (test program, test case it must hold, the test that holds it: a name of stages.txt),
# and what is graded by hand.
EXERCISES = {
    1: {"cases": [("gpu", UNPADDED_SMALL, "exercise_unpadded"),
                  ("gpu", "larger n without padding: 1000, 2^20 + 1, 3 x 2^19",
                   "exercise_unpadded"),
                  ("gpu", "the unpadded sort only queues its work on the GPU",
                   "exercise_unpadded"),
                  ("gpu", "the GPU runs the unpadded sort's kernels, and no key crosses to the "
                          "host", "exercise_unpadded")],
        "sanitize": UNPADDED_SMALL},
    2: {"cases": [("gpu", "keys sorted, each value still with its key",
                   "exercise_pairs"),
                  ("gpu", "the sort of pairs only queues its work on the GPU", "exercise_pairs"),
                  ("gpu", "the GPU runs the sort of pairs, and no key or value crosses to the "
                          "host", "exercise_pairs")]},
    3: {"cases": [("gpu", "floats in IEEE 754 totalOrder, bit for bit", "exercise_floats"),
                  ("gpu", "the sort of floats only queues its work on the GPU",
                   "exercise_floats"),
                  ("gpu", "the GPU runs the sort of floats, and no key crosses to the host",
                   "exercise_floats")]},
    4: {"cases": [("index", "launches_per_sort follows the split into multistep passes, for "
                            "every n up to 2^30", "launches_multistep"),
                  ("index", "the multistep passes compare every pair of every global step "
                            "exactly once, up to 2^16", "index_multistep")],
        "by_hand": "the time over floor against v5's and v6's, from the tour"},
    5: {"timed": {"against": "v6_multistep", "arguments": ["--log2", "26", "--dist", "equal"],
                  "at_most": 0.9},
        "by_hand": "the prediction, and the profile's dram_write_bytes against v6's"},
    6: {"by_hand": "the report: a prediction before each measurement, the metrics by name and "
                   "value, the explanation"},
    7: {"by_hand": "the student's own cpu test of the stride-32 pair, and the in-block times"},
    8: {"cases": [("gpu", "every array length from 2 to 2^12, at n = 2^12, 2^16 and 2^20",
                   "gpu_segments")],
        "by_hand": "the v8_mapping experiment against chapter 10's three mappings"},
    9: {"cases": [("gpu", "every array length from 2 to 2^12, at n = 2^12, 2^16 and 2^20",
                   "gpu_segments")],
        "timed": {"against": "v8_batched", "arguments": ["--log2", "27", "--segment", "1024"],
                  "at_most": 0.95},
        "by_hand": "block_sort's instructions and ALU pipe at L = 1024 against v8's (Nsight "
                   "Compute), as the lab note notes/flips.md reads them"},
}


def say(line):
    print(line, flush=True)


def fail_at_once(message, code):
    print(f"grade.py: {message}", file=sys.stderr)
    sys.exit(code)


def test_cases(program):
    """The doctest test cases a test program holds."""
    result = subprocess.run([program, "--list-test-cases", "--no-colors"], capture_output=True,
                            text=True, timeout=300)
    return {line.strip() for line in result.stdout.splitlines()}


def test_name(logged):
    """A test's own name from the name a Meson JSON test log gives it: "project:suite / name"
    (Meson 1.0) or "project:name" (newer Meson)."""
    return logged.split(" / ")[-1].split(":")[-1]


def read_test_log(path):
    """{test name: result} from a Meson JSON test log."""
    results = {}
    if os.path.exists(path):
        for line in open(path):
            record = json.loads(line)
            results[test_name(record["name"])] = record["result"]
    return results


def run_tests(build, names):
    """{test name: result} from one `meson test` run of the named tests. The build is compiled
    already; the run keeps a log of its own (meson-logs/grade.json, or grade-quick.json where
    Meson names it after the default test setup), so the build's own test log is left as it
    was."""
    logs = os.path.join(build, "meson-logs")
    for old in glob.glob(os.path.join(logs, "grade*.json")):
        os.remove(old)
    subprocess.run(["meson", "test", "-C", build, "--no-rebuild", "--logbase", "grade",
                    "--print-errorlogs"] + names, capture_output=True, text=True, timeout=7200)
    found = glob.glob(os.path.join(logs, "grade*.json"))
    return read_test_log(found[0]) if len(found) == 1 else {}


def build_failure(output, build):
    """The one line that says why `meson compile` failed, from its output: the targets ninja
    names as failed (any stage's failure stops the build, this one's or another's) and the
    compiler's first error."""
    lines = output.splitlines()
    failed = [line[len("FAILED: "):].strip() for line in lines if line.startswith("FAILED: ")]
    first = next((line.strip() for line in lines if "error" in line.lower()), "")
    return (f"the build fails at {', '.join(failed) or 'a step ninja did not name'}"
            f"{': ' + first if first else ''} (meson compile -C {build} shows it all)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(course.ROOT, "build"),
                        help="the Meson build folder (default: build)")
    parser.add_argument("stage", help="the stage folder, listed in stages.txt")
    parser.add_argument("exercises", nargs="*", type=int, metavar="EXERCISE",
                        help="exercises 1 .. 9; without one, the stage's own checks only")
    arguments = parser.parse_args()
    if course.arguments_only():
        return
    build, stage = arguments.build, arguments.stage
    unknown = [number for number in arguments.exercises if number not in EXERCISES]
    if unknown:
        fail_at_once(f"no exercise {unknown[0]}: the exercises are 1 to {len(EXERCISES)}", 2)
    if stage not in course.stage_names():
        fail_at_once(f"{stage} is not in stages.txt: add its line first (docs/29_exercises.md)", 2)
    tests = os.path.join(build, "tests")
    gpu_present = os.path.join(tests, "gpu_present")
    if not os.path.exists(gpu_present):
        fail_at_once(f"{build} has no GPU tests: build it with nvcc and doctest (meson setup "
                     f"{build} && meson compile -C {build})", 2)
    if subprocess.run([gpu_present], capture_output=True).returncode != 0:
        fail_at_once("no usable CUDA device here: grading needs a GPU (the gpu and sanitize "
                     "checks would only be skipped)", NO_DEVICE)
    if shutil.which("compute-sanitizer") is None and not os.path.exists(
            "/usr/local/cuda/bin/compute-sanitizer"):
        fail_at_once("compute-sanitizer not found: grading runs the sanitize checks", NO_DEVICE)
    compiled = subprocess.run(["meson", "compile", "-C", build], capture_output=True, text=True)
    if compiled.returncode != 0:
        fail_at_once(build_failure(compiled.stdout, build), 1)

    # The stage's own suites, once for all the exercises.
    names = [suite.format(stage) for suite in SUITES]
    results = run_tests(build, names)
    common = [(results.get(name) == "OK", f"{name}: {results.get(name, 'not run')}")
              for name in names]
    everything_passed = True
    for exercise in arguments.exercises or [None]:
        outcome = list(common) + exercise_checks(tests, stage, gpu_present, exercise,
                                                 EXERCISES.get(exercise, {}))
        passed = sum(1 for ok, _ in outcome if ok)
        label = f"exercise {exercise}" if exercise else "the stage's own checks"
        say(f"{stage}, {label}:")
        for ok, line in outcome:
            say(("  PASS  " if ok else "  FAIL  ") + line)
        if "by_hand" in EXERCISES.get(exercise, {}):
            say(f"  BY HAND  {EXERCISES[exercise]['by_hand']}")
        say(f"GRADE stage={stage} exercise={exercise or '-'} passed={passed} "
            f"failed={len(outcome) - passed}")
        everything_passed = everything_passed and passed == len(outcome)
    sys.exit(0 if everything_passed else 1)


def exercise_checks(tests, stage, gpu_present, exercise, spec):
    """[(passed, line)] of what an exercise adds to the stage's own suites: each of its test
    cases, run on its own (so that one exercise's verdict does not hang on another's check),
    and, for exercise 1, memcheck of the small lengths."""
    outcome = []
    for program, case, source in spec.get("cases", []):
        path = os.path.join(tests, "stages", f"test_{program}_{stage}")
        if not os.path.exists(path) or case not in test_cases(path):
            outcome.append((False, f"exercise {exercise}: {program}_{stage} does not run "
                                   f"'{case}': add {source} to the '{LISTED_AS[program]}:' "
                                   f"line of {stage}'s entry in stages.txt"))
            continue
        # doctest splits a filter at commas: a wildcard stands in for them.
        result = subprocess.run([path, "--test-case=" + case.replace(",", "*"), "--no-colors"],
                                capture_output=True, text=True, timeout=7200)
        ran = re.search(r"test cases:\s*(\d+)", result.stdout)
        passed = result.returncode == 0 and ran is not None and int(ran.group(1)) == 1
        outcome.append((passed, f"exercise {exercise}: '{case}' ({source}): exit "
                                f"{result.returncode}, {ran.group(1) if ran else 'no'} test case"))
    if "sanitize" in spec:
        checked = subprocess.run(
            [sys.executable, os.path.join(course.ROOT, "tests", "sanitize.py"), "memcheck",
             os.path.join(tests, "stages", f"test_gpu_{stage}"), gpu_present, "--doctest-case",
             spec["sanitize"]], capture_output=True, text=True, timeout=7200)
        outcome.append((checked.returncode == 0,
                        f"exercise {exercise}: memcheck of '{spec['sanitize']}': exit "
                        f"{checked.returncode}"))
    if "timed" in spec:
        outcome.append(timed_check(os.path.dirname(tests), stage, exercise, spec["timed"]))
    return outcome


def timed_check(build, stage, exercise, spec):
    """(passed, line): the stage against another on the same keys, three runs each taking turns;
    the median of each program's run medians."""
    times = {stage: [], spec["against"]: []}
    for _ in range(3):
        for program in times:
            command = course.program_command(build, program) + spec["arguments"] + ["--reps", "5"]
            code, record, errors = course.run_record(command)
            if code != 0 or record is None:
                return (False, f"exercise {exercise}: {' '.join(command)} failed with exit code "
                               f"{code}: {errors.strip()[-300:]}")
            times[program].append(float(record["sort_ms"]))
    ours, theirs = (sorted(times[name])[1] for name in times)
    ratio = ours / theirs
    return (ratio <= spec["at_most"],
            f"exercise {exercise}: {' '.join(spec['arguments'])}: {ours:.3f} ms against "
            f"{spec['against']}'s {theirs:.3f} ms, {ratio:.2f} of its time (at most "
            f"{spec['at_most']})")


if __name__ == "__main__":
    main()
