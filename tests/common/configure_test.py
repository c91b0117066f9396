#!/usr/bin/env python3
"""proof suite: the build options a reader types are taken or refused as the README says.

Usage: configure_test.py SOURCE_ROOT

Configures the tree in scratch folders with -Dgpu_arch written with and without the dot (the
compute capability `nvidia-smi` prints, 7.5, and the form nvcc takes, 75), with a list, and
with values that are not compute capabilities, which must stop `meson setup` with one error
line that says what is expected. Without nvcc the option is not read, and the test reports SKIP.
Then, in a copy of the tree, entries of stages.txt that name a test that does not exist, or an
indented line of no known kind (the "main:" line of older versions among them), must each stop
`meson setup` with one error line that names stages.txt and the mistake; so must a stage that
defines a top-k but no sort of many arrays, naming the stage.
"""
import os
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
sys.path.insert(0, os.path.join(os.path.abspath(root), "tools"))
import course  # noqa: E402

if shutil.which("nvcc") is None:
    print("SKIP: no nvcc: the GPU architectures are not configured here")
    sys.exit(77)

CASES = [("7.5", "sm_75 + PTX 75"), ("75", "sm_75 + PTX 75"), ("8.0,90", "sm_80, sm_90 + PTX 90"),
         ("", None), ("7x5", None), ("sm_90", None), ("1234", None)]
failures = []
for value, expected in CASES:
    with tempfile.TemporaryDirectory() as scratch:
        folder = os.path.join(scratch, "build")
        result = subprocess.run(["meson", "setup", folder, f"-Dgpu_arch={value}", "-Dtests=disabled"],
                                cwd=root, capture_output=True, text=True, timeout=600)
    errors = [line for line in result.stdout.splitlines() if "ERROR:" in line]
    if expected is not None:
        ok = result.returncode == 0 and f"GPU architectures: {expected}" in result.stdout
    else:
        ok = (result.returncode != 0 and len(errors) == 1 and
              "expected auto, or compute capabilities such as 75 or 7.5" in errors[0])
    print(("ok   " if ok else "FAIL ") + f"-Dgpu_arch={value!r}" +
          ("" if ok else f": exit {result.returncode}, {errors or result.stdout[-500:]}"))
    if not ok:
        failures.append(value)

# stages.txt: (the text of v8_batched's entry, what replaces it, what the error line must say).
ENTRY_CASES = [
    ("gpu: gpu_sort gpu_segments", "gpu: gpu_sort gpu_segmnts",
     "v8_batched lists the gpu test gpu_segmnts"),
    ("gpu: gpu_sort gpu_segments", "main: stage_segments_main.cpp",
     'expected an indented "cpu: NAME ..." or "gpu: NAME ..."'),
]
for old, new, expected in ENTRY_CASES:
    with tempfile.TemporaryDirectory() as scratch:
        tree = os.path.join(scratch, "course")
        course.copy_course(tree)
        listed = os.path.join(tree, "stages.txt")
        text = open(listed).read()
        with open(listed, "w") as file:
            file.write(text.replace(f"    {old}\n", f"    {new}\n"))
        result = subprocess.run(["meson", "setup", "build"], cwd=tree, capture_output=True,
                                text=True, timeout=600)
    errors = [line for line in result.stdout.splitlines() if "ERROR:" in line]
    ok = (text.count(f"    {old}\n") == 1 and result.returncode != 0 and len(errors) == 1 and
          "stages.txt: " in errors[0] and expected in errors[0])
    print(("ok   " if ok else "FAIL ") + f"stages.txt with {new!r}" +
          ("" if ok else f": exit {result.returncode}, {errors or result.stdout[-500:]}"))
    if not ok:
        failures.append(new)
# A stage whose bitonic_sort.cu defines a top-k (bitonic_top_segments) but no sort of many arrays
# (bitonic_sort_segments, which common/stage_main.cpp's top-k needs) stops `meson setup` with one
# error line that names the stage and the missing function.
with tempfile.TemporaryDirectory() as scratch:
    tree = os.path.join(scratch, "course")
    course.copy_course(tree)
    kernels = os.path.join(tree, "v10_top_k", "bitonic_sort.cu")
    text = open(kernels).read()
    with open(kernels, "w") as file:
        file.write(text.replace("\nvoid bitonic_sort_segments(", "\nvoid sort_segments_renamed("))
    result = subprocess.run(["meson", "setup", "build"], cwd=tree, capture_output=True,
                            text=True, timeout=600)
errors = [line for line in result.stdout.splitlines() if "ERROR:" in line]
ok = (text.count("\nvoid bitonic_sort_segments(") == 1 and result.returncode != 0 and
      len(errors) == 1 and "v10_top_k/bitonic_sort.cu defines bitonic_top_segments" in errors[0])
print(("ok   " if ok else "FAIL ") + "a top-k without a sort of many arrays" +
      ("" if ok else f": exit {result.returncode}, {errors or result.stdout[-500:]}"))
if not ok:
    failures.append("top-k without segments")
sys.exit(1 if failures else 0)
