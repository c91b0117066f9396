#!/usr/bin/env python3
"""cpu suite: without a usable GPU, tools/tour.py says so in one line and exits 3, the
programs' own code for "no usable CUDA device"; the demonstration says that everything is built
and exits 0. The GPU is hidden (CUDA_VISIBLE_DEVICES=""), so this runs the same everywhere.

Usage: tour_no_gpu_test.py SOURCE_ROOT BUILD_FOLDER
"""
import os
import subprocess
import sys

root, build = sys.argv[1], sys.argv[2]
tour = os.path.join(root, "tools", "tour.py")
hidden = dict(os.environ, CUDA_VISIBLE_DEVICES="")
failures = []

result = subprocess.run([sys.executable, tour, "--build", build, "--sizes", "10"],
                        capture_output=True, text=True, env=hidden, timeout=300)
lines = result.stderr.strip().splitlines()
if result.returncode != 3 or len(lines) != 1 or "no usable CUDA device" not in lines[0]:
    failures.append(f"tour.py without a GPU: exit {result.returncode}, stderr {result.stderr!r}")
result = subprocess.run([sys.executable, tour, "--build", build, "--demo"], capture_output=True,
                        text=True, env=hidden, timeout=300)
if result.returncode != 0 or "Everything is built" not in result.stdout:
    failures.append(f"tour.py --demo without a GPU: exit {result.returncode}, {result.stdout!r}")
for failure in failures:
    print("FAIL", failure)
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
