#!/usr/bin/env python3
"""cpu suite: common/tools/grade.py refuses what it cannot grade, in one line, before it runs
anything: a machine without a usable GPU (exit 3, so that a grading script on a CPU node cannot
pass a submission), a stage that stages.txt does not list, and an exercise that does not exist
(exit 2). The GPU is hidden (CUDA_VISIBLE_DEVICES=""), so this runs the same everywhere;
instructor/grade_answers_test.py grades real answers where a GPU is.

Usage: grade_test.py SOURCE_ROOT BUILD_FOLDER
"""
import os
import subprocess
import sys

root, build = sys.argv[1], sys.argv[2]
grade = os.path.join(root, "common", "tools", "grade.py")
hidden = dict(os.environ, CUDA_VISIBLE_DEVICES="")
failures = []


def expect(arguments, code, message):
    result = subprocess.run([sys.executable, grade, "--build", build] + arguments,
                            capture_output=True, text=True, env=hidden, timeout=300)
    lines = result.stderr.strip().splitlines()
    ok = result.returncode == code and len(lines) == 1 and message in lines[0] and \
        "GRADE" not in result.stdout
    print(("ok   " if ok else "FAIL ") + " ".join(arguments) +
          ("" if ok else f": exit {result.returncode}, stderr {result.stderr!r}"))
    if not ok:
        failures.append(arguments)


expect(["v5_bank_free"], 3, "no usable CUDA device here: grading needs a GPU")
expect(["v5_bank_free", "1", "2"], 3, "no usable CUDA device here")
expect(["no_such_stage"], 2, "no_such_stage is not in stages.txt")
expect(["v5_bank_free", "9"], 2, "no exercise 9")
sys.exit(1 if failures else 0)
