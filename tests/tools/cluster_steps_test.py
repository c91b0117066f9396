#!/usr/bin/env python3
"""gpu suite: the cluster_steps program (tools/cluster_steps.cu) runs every method, each output
as the host's steps give it, and reports what it ran.

Usage: cluster_steps_test.py CLUSTER_STEPS_PROGRAM GPU_PRESENT_PROGRAM

At two sizes and two distributions every method must pass its check against the host (a
program that skipped a step, or kept the larger key in the lower slot, fails it) and report
its row: the copy, the pass, 1 .. 4 steps within a block, clusters of 2 .. 16 blocks with
1 .. 4 steps across them, at least one cluster running at a time. A size below one cluster of
16 blocks is refused with exit code 2 and one line. Exits 77 (SKIP) without a GPU, or on a GPU
that cannot launch clusters (compute capability below 9.0).
"""
import csv
import subprocess
import sys

program, gpu_present = sys.argv[1], sys.argv[2]
if subprocess.run([gpu_present], capture_output=True).returncode != 0:
    print("SKIP: no usable CUDA device")
    sys.exit(77)

EXPECTED = {("copy", 1, 0), ("pass", 1, 0)} | {("block", 1, s) for s in range(1, 5)} | {
    ("cluster", 2 ** s, s) for s in range(1, 5)}
failures = 0
for arguments in (["--log2", "18"], ["--log2", "21", "--dist", "few-unique"]):
    command = [program, "--reps", "2", "--csv", *arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if result.returncode == 3 and "cannot launch thread block clusters" in result.stderr:
        print("SKIP:", result.stderr.strip())
        sys.exit(77)
    rows = list(csv.DictReader(result.stdout.splitlines()))
    methods = {(row["method"], int(row["cluster_blocks"]), int(row["steps"])) for row in rows}
    ok = (result.returncode == 0 and len(rows) == len(EXPECTED) and methods == EXPECTED and
          all(row["validation"] == "pass" and float(row["kernel_ms"]) > 0 for row in rows) and
          all(int(row["active_clusters"]) >= 1 for row in rows if row["method"] != "copy"))
    print("ok  " if ok else "FAIL", " ".join(command[1:]), result.stdout, result.stderr.strip())
    failures += not ok

refused = subprocess.run([program, "--log2", "17"], capture_output=True, text=True, timeout=600)
ok = refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
print("ok  " if ok else "FAIL", "--log2 17:", refused.returncode, refused.stderr.strip())
failures += not ok
sys.exit(1 if failures else 0)
