#!/usr/bin/env python3
"""cpu suite: tools/grade.py refuses what it cannot grade, in one line, before it runs
anything: a machine without a usable GPU (exit 3, so that a grading script on a CPU node cannot
pass a submission), a stage that stages.txt does not list, and an exercise that does not exist
(exit 2). The GPU is hidden (CUDA_VISIBLE_DEVICES=""), so this runs the same everywhere;
instructor/grade_answers_test.py grades real answers where a GPU is. It also runs the grader's
parts that need no GPU: running one test and reading Meson's test log (in the format of the
Meson at hand and of both Meson versions the course supports), and exercise 4's own test
cases, one by one,
on a stage that holds them and on one that does not. Every test case that the grader and
instructor/checks_reject.py name must be one the tests' sources define.

Usage: grade_test.py SOURCE_ROOT BUILD_FOLDER
"""
import ast
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

root, build = sys.argv[1], sys.argv[2]
grade_script = os.path.join(root, "tools", "grade.py")
hidden = dict(os.environ, CUDA_VISIBLE_DEVICES="")
failures = []


def expect(arguments, code, message):
    result = subprocess.run([sys.executable, grade_script, "--build", build] + arguments,
                            capture_output=True, text=True, env=hidden, timeout=300)
    lines = result.stderr.strip().splitlines()
    ok = result.returncode == code and len(lines) == 1 and message in lines[0] and \
        "GRADE" not in result.stdout
    print(("ok   " if ok else "FAIL ") + " ".join(arguments) +
          ("" if ok else f": exit {result.returncode}, stderr {result.stderr!r}"))
    if not ok:
        failures.append(arguments)


# The parts that need no GPU, on the course's own stages: reading Meson's test log, and an
# exercise's own test cases run one by one (exercise 4's are cpu tests).
sys.path.insert(0, os.path.join(root, "tools"))
import grade  # noqa: E402

with tempfile.TemporaryDirectory() as folder:
    log = os.path.join(folder, "grade.json")
    with open(log, "w") as file:
        # Meson 1.0 names a test "project:suite / name", newer Meson "project:name".
        for name, result in (("cpu / index_v0_naive", "OK"), ("gpu_v0_naive", "SKIP"),
                             ("sanitize / sanitize_memcheck_v0_naive", "FAIL")):
            file.write(json.dumps({"name": f"bitonic-sort-course:{name}", "result": result}) +
                       "\n")
    results = grade.read_test_log(log)
if results != {"index_v0_naive": "OK", "gpu_v0_naive": "SKIP", "sanitize_memcheck_v0_naive": "FAIL"}:
    failures.append(f"read_test_log read {results} from a Meson log")
# A build that fails names the target ninja gave up on and the compiler's first error.
ninja_output = ("[1/3] Compiling my_stage/bitonic_sort.cu\n"
                "FAILED: my_stage/my_stage.p/bitonic_sort.cu.o\nnvcc -c ...\n"
                "../my_stage/bitonic_sort.cu(12): error: identifier \"kTile\" is undefined\n"
                "ninja: build stopped: subcommand failed.\n")
said = grade.build_failure(ninja_output, "build")
if not (said.startswith("the build fails at my_stage/my_stage.p/bitonic_sort.cu.o: ") and
        'identifier "kTile" is undefined' in said):
    failures.append(f"build_failure said {said!r}")
# The Meson that runs this test, on a real test of the build: its log must be found and read.
ran = grade.run_tests(build, ["index_v0_naive"])
if ran != {"index_v0_naive": "OK"}:
    failures.append(f"run_tests read {ran} from meson test index_v0_naive")
tests = os.path.join(build, "tests")
gpu_present = os.path.join(tests, "gpu_present")
held = grade.exercise_checks(tests, "v6_multistep", gpu_present, 4, grade.EXERCISES[4])
if len(held) != 2 or not all(ok for ok, _ in held):
    failures.append(f"exercise 4 on v6_multistep, which holds its checks: {held}")
missing = grade.exercise_checks(tests, "v5_bank_free", gpu_present, 4, grade.EXERCISES[4])
if len(missing) != 2 or any(ok for ok, _ in missing) or \
        "add launches_multistep to the 'cpu:' line" not in missing[0][1]:
    failures.append(f"exercise 4 on v5_bank_free, which lacks its checks: {missing}")
print("grading helpers:", "ok" if not failures else f"FAIL {failures}")

# Every test case that the grader, and instructor/checks_reject.py where instructor/ is, run by
# name is one the tests' sources define: a renamed TEST_CASE would otherwise show only on a GPU.
defined = {}
for path in glob.glob(os.path.join(root, "tests", "*", "*_test.c*")):
    defined[os.path.basename(path).split("_test.")[0]] = set(
        re.findall(r'TEST_CASE\("([^"]*)"\)', open(path).read()))
named = [(source, case) for spec in grade.EXERCISES.values()
         for _, case, source in spec.get("cases", [])]
rejecting = os.path.join(root, "instructor", "checks_reject.py")
if os.path.exists(rejecting):
    tree = ast.parse(open(rejecting).read())
    values = {node.targets[0].id: node.value for node in tree.body
              if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
    # EXPECTED: {mode: {test case: assertions}}, the names its inner dicts' keys, and
    # ACTIVITY_CASES, the names of the cases several modes share.
    names = [key.value for cases in values["EXPECTED"].values if isinstance(cases, ast.Dict)
             for key in cases.keys if key is not None]
    names += [element.value for element in values["ACTIVITY_CASES"].elts]
    checks = ("exercise_unpadded", "exercise_pairs", "exercise_floats")
    named += [(next((name for name in checks if case in defined.get(name, ())), checks[0]), case)
              for case in names]
unknown = [f"{source}: '{case}'" for source, case in named if case not in defined.get(source, ())]
print(f"test cases named by the grader: {len(named)}, unknown: {unknown or 'none'}")
if unknown or len(named) < 10:
    failures.append(f"test cases no source defines: {unknown}")

expect(["v5_bank_free"], 3, "no usable CUDA device here: grading needs a GPU")
expect(["v5_bank_free", "1", "2"], 3, "no usable CUDA device here")
expect(["no_such_stage"], 2, "no_such_stage is not in stages.txt")
expect(["v5_bank_free", "10"], 2, "no exercise 10: the exercises are 1 to 9")
sys.exit(1 if failures else 0)
