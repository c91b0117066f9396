#!/usr/bin/env python3
"""gpu suite: the barriers program (tools/barriers.cu) sorts with each of its three
barriers and reports what it ran.

Usage: barriers_test.py BARRIERS_PROGRAM GPU_PRESENT_PROGRAM

At a few sizes, orders and distributions every method must sort (validation pass), the launches
and graph methods must count one kernel launch per step of the network and grid_sync exactly
one; n that is not a power of two is refused with exit code 2 and one line. Exits 77 (SKIP)
without a GPU.
"""
import csv
import subprocess
import sys

program, gpu_present = sys.argv[1], sys.argv[2]
if subprocess.run([gpu_present], capture_output=True).returncode != 0:
    print("SKIP: no usable CUDA device")
    sys.exit(77)

failures = 0
for arguments in (["--log2", "1"], ["--log2", "10", "--order", "desc", "--dist", "extremes"],
                  ["--log2", "18", "--dist", "few-unique"]):
    command = [program, "--reps", "2", "--csv", *arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    rows = {row["method"]: row for row in csv.DictReader(result.stdout.splitlines())}
    q = int(arguments[1])
    steps = q * (q + 1) // 2
    expected = {"launches": steps, "graph": steps, "grid_sync": 1}
    ok = (result.returncode == 0 and set(rows) == set(expected) and
          all(row["validation"] == "pass" for row in rows.values()) and
          all(int(rows[method]["kernel_launches"]) == count
              for method, count in expected.items()))
    print("ok  " if ok else "FAIL", " ".join(command[1:]), result.stdout, result.stderr.strip())
    failures += not ok

refused = subprocess.run([program, "-n", "1000"], capture_output=True, text=True, timeout=600)
ok = refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
print("ok  " if ok else "FAIL", "-n 1000:", refused.returncode, refused.stderr.strip())
failures += not ok
sys.exit(1 if failures else 0)
