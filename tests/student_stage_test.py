#!/usr/bin/env python3
"""docs suite: the steps of docs/09_exercises.md for adding a stage really work.

Usage: student_stage_test.py SOURCE_ROOT

In a temporary copy of the source tree it does exactly what the chapter tells a student:
copy v5_bank_free to v6_student and add one line, 'v6_student', to the stages list of
meson.build. Then it configures, builds that stage's targets, and runs that stage's tests. They
must exist (index and, with CUDA, exit codes, gpu and sanitize) and none may fail. Where there
is no GPU the gpu and sanitize tests report SKIP, as they do for every stage.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = os.path.abspath(sys.argv[1])
stage = "v6_student"


def run(command, folder):
    print("$", " ".join(command), flush=True)
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    print(result.stdout[-3000:], result.stderr[-3000:], flush=True)
    return result


with tempfile.TemporaryDirectory() as temporary:
    tree = os.path.join(temporary, "course")
    shutil.copytree(root, tree, ignore=shutil.ignore_patterns(
        "build*", ".git", "__pycache__", ".deps"))

    # The chapter's steps: copy a stage, add one line to the stages list.
    shutil.copytree(os.path.join(tree, "v5_bank_free"), os.path.join(tree, stage))
    meson_build = os.path.join(tree, "meson.build")
    with open(meson_build) as file:
        text = file.read()
    edited = text.replace("  'v5_bank_free',\n", f"  'v5_bank_free',\n  '{stage}',\n", 1)
    if edited == text:
        sys.exit("meson.build has no line \"  'v5_bank_free',\" to add the new stage after")
    with open(meson_build, "w") as file:
        file.write(edited)

    build = os.path.join(tree, "build")
    if run(["meson", "setup", build], tree).returncode != 0:
        sys.exit("meson setup failed")
    listed = run(["meson", "test", "-C", build, "--list"], tree).stdout
    expected = [f"index_{stage}"]
    if f"gpu_{stage}" in listed:
        expected += [f"exit_codes_{stage}", f"gpu_{stage}"] + [
            f"sanitize_{tool}_{stage}" for tool in ("memcheck", "racecheck", "synccheck")]
    missing = [name for name in expected if not re.search(rf"\b{name}\b", listed)]
    if missing:
        sys.exit(f"tests missing for the new stage: {missing}")
    # Build only what these tests need, then run them.
    targets = [f"tests/test_index_{stage}"]
    if len(expected) > 1:
        targets += [f"{stage}/{stage}", f"tests/test_gpu_{stage}", "common/gpu_present"]
    if run(["ninja", "-C", build] + targets, tree).returncode != 0:
        sys.exit("building the new stage failed")
    result = run(["meson", "test", "-C", build, "--no-rebuild", "--print-errorlogs"] + expected,
                 tree)
    if result.returncode != 0:
        sys.exit("the new stage's tests failed")
    report = result.stdout
    if not re.search(rf"index_{stage}\s+OK", report):
        sys.exit("the new stage's index test did not pass")
    print(f"{stage}: {len(expected)} tests ran for the new stage; none failed")
