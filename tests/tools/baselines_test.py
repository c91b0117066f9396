#!/usr/bin/env python3
"""gpu suite: the baselines sort correctly and report like the stages.

Usage: baselines_test.py BASELINES_PROGRAM GPU_PRESENT_PROGRAM

Each algorithm runs at a few sizes, orders and distributions with --csv, and each one that sorts
many arrays at once also with --segment; each run must exit 0 with its validation passed (the
copy must equal its input). Exits 77 (SKIP) without a GPU.
"""
import csv
import subprocess
import sys

program, gpu_present = sys.argv[1], sys.argv[2]
if subprocess.run([gpu_present], capture_output=True).returncode != 0:
    print("SKIP: no usable CUDA device")
    sys.exit(77)

WHOLE = (["-n", "1"], ["-n", "1000", "--order", "desc", "--dist", "extremes"],
         ["--log2", "20", "--dist", "few-unique"], ["-n", "3000017"])
# Many arrays at once: the shortest arrays, a length that is not the whole, and a number of
# arrays that is not a power of two.
SEGMENTS = (["--log2", "12", "--segment", "2"],
            ["--log2", "20", "--segment", "256", "--order", "desc", "--dist", "extremes"],
            ["-n", "3000", "--segment", "8", "--dist", "few-unique"],
            ["--log2", "16", "--segment", "65536"])
RUNS = [(algorithm, arguments) for algorithm in ["std_sort", "cub_radix", "cub_merge", "thrust",
                                                 "copy", "cub_segmented", "cub_segmented_radix",
                                                 "cub_packed_radix"] for arguments in WHOLE]
RUNS += [(algorithm, arguments) for algorithm in ["std_sort", "cub_segmented",
                                                  "cub_segmented_radix", "cub_packed_radix"]
         for arguments in SEGMENTS]

failures = 0
for algorithm, arguments in RUNS:
    command = [program, "--algo", algorithm, "--reps", "2", "--csv", *arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    records = list(csv.DictReader(result.stdout.splitlines()))
    ok = (result.returncode == 0 and len(records) == 1 and
          records[0]["validation"] == "pass" and records[0]["program"] == algorithm)
    print("ok  " if ok else "FAIL", " ".join(command[1:]), result.stderr.strip())
    failures += not ok
sys.exit(1 if failures else 0)
