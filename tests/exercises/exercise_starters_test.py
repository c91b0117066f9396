#!/usr/bin/env python3
"""proof suite: the stubs of docs/29_exercises.md compile, with the checks their exercises list.

Usage: exercise_starters_test.py SOURCE_ROOT

For each exercise whose section holds a stub (a ```cpp exercise-N-stub block), in a copy of the
course: copies the starting stage the section names ("**Start from** `STAGE`"), appends the stub
to its bitonic_sort.cu, lists the stage in stages.txt with the check the section names ("**Add**
`NAME` to the `gpu:` line") among its gpu tests, and builds its program and its gpu tests. A
student who follows the section gets a stage that builds; the stub is not an answer, so its
tests would fail. Reports SKIP (77) without nvcc.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[1]), "tools"))
import course  # noqa: E402

root = os.path.abspath(sys.argv[1])
if shutil.which("nvcc") is None:
    print("SKIP: no nvcc: the stages are not built here")
    sys.exit(77)
chapter = open(os.path.join(root, "docs", "29_exercises.md")).read()
sections = re.split(r"\n## ", chapter)
starters = []
for section in sections:
    stub = re.search(r"```cpp exercise-(\d+)-stub\n(.*?)```", section, re.S)
    if not stub:
        continue
    start = re.search(r"\*\*Start from\*\* `(\w+)`", section).group(1)
    check = re.search(r"\*\*Add\*\* `(\w+)` to the `gpu:` line", section).group(1)
    starters.append((int(stub.group(1)), start, stub.group(2), check))
if not starters:
    sys.exit("the chapter holds no exercise stubs")

with tempfile.TemporaryDirectory() as temporary:
    tree = os.path.join(temporary, "course")
    course.copy_course(tree)
    targets = []
    for number, start, stub, check in starters:
        stage = f"exercise{number}_start"
        folder = course.add_stage(tree, stage, start, ["gpu_sort", check],
                                  f"exercise {number}'s stub")
        with open(os.path.join(folder, "bitonic_sort.cu"), "a") as file:
            file.write("\n" + stub)
        targets += [stage, f"test_gpu_{stage}"]
        print(f"exercise {number}: {start} + stub + {check}", flush=True)
    setup = subprocess.run(["meson", "setup", "build"], cwd=tree, capture_output=True, text=True)
    if setup.returncode != 0:
        sys.exit(f"meson setup failed:\n{setup.stdout[-3000:]}")
    built = subprocess.run(["meson", "compile", "-C", "build"] + targets, cwd=tree,
                           capture_output=True, text=True)
    print(built.stdout[-3000:], built.stderr[-2000:])
    if built.returncode != 0:
        sys.exit("a stub with its check does not build")
print(f"{len(starters)} stubs build with their checks")
