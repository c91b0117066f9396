#!/usr/bin/env python3
"""gpu suite: the baselines sort correctly and report like the stages.

Usage: baselines_test.py BASELINES_PROGRAM GPU_PRESENT_PROGRAM

Each algorithm runs at a few sizes, orders and distributions with --csv; each run must exit 0
with its validation passed (the copy must equal its input). Exits 77 (SKIP) without a GPU.
"""
import csv
import subprocess
import sys

program, gpu_present = sys.argv[1], sys.argv[2]
if subprocess.run([gpu_present], capture_output=True).returncode != 0:
    print("SKIP: no usable CUDA device")
    sys.exit(77)

failures = 0
for algorithm in ["std_sort", "cub_radix", "cub_merge", "thrust", "copy"]:
    for arguments in (["-n", "1"], ["-n", "1000", "--order", "desc", "--dist", "extremes"],
                      ["--log2", "20", "--dist", "few-unique"], ["-n", "3000017"]):
        command = [program, "--algo", algorithm, "--reps", "2", "--csv", *arguments]
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
        records = list(csv.DictReader(result.stdout.splitlines()))
        ok = (result.returncode == 0 and len(records) == 1 and
              records[0]["validation"] == "pass" and records[0]["program"] == algorithm)
        print("ok  " if ok else "FAIL", " ".join(command[1:]), result.stderr.strip())
        failures += not ok
sys.exit(1 if failures else 0)
