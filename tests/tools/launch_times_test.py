#!/usr/bin/env python3
"""gpu suite: tools/launch_times.cpp, loaded into a stage's program, records every kernel the
program ran, in order, with a duration.

Usage: launch_times_test.py LIBRARY STAGE_PROGRAM GPU_PRESENT_PROGRAM

At two sizes the program sorts twice (one warm-up, one timed sort); the file must hold the
kernels of both sorts, in the order the stage's own plan (--trace-launches) gives, each with a
duration above zero, and at 2^20 the timed sort's kernels must add up to between a third of
the sort's time as the program's CUDA events measured it and that time (the rest is the gaps
between launches). Without LAUNCH_TIMES_CSV the run still sorts and says that it wrote no file.
Exits 77 (SKIP) without a GPU.
"""
import csv
import os
import subprocess
import sys
import tempfile

library, program, gpu_present = sys.argv[1], sys.argv[2], sys.argv[3]
if subprocess.run([gpu_present], capture_output=True).returncode != 0:
    print("SKIP: no usable CUDA device")
    sys.exit(77)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import course  # noqa: E402  (the course's list of kernel names)

failures = 0
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "launches.csv")
    for q in (10, 20):
        plan = subprocess.run([program, "--trace-launches", "--log2", str(q)],
                              capture_output=True, text=True, check=True).stdout.splitlines()
        planned = [line.split(",")[1] for line in plan if line[:1].isdigit()]
        environment = dict(os.environ, CUDA_INJECTION64_PATH=library, LAUNCH_TIMES_CSV=path)
        if os.path.exists(path):
            os.remove(path)
        run = subprocess.run([program, "--log2", str(q), "--reps", "1", "--csv"],
                             capture_output=True, text=True, env=environment, timeout=600)
        if run.returncode != 0 or not os.path.exists(path):
            print("FAIL", f"2^{q}: exit {run.returncode}, no timeline: {run.stderr.strip()}")
            failures += 1
            continue
        with open(path, newline="") as file:
            rows = list(csv.DictReader(file))
        seen = [course.kernel_of(row["kernel"]) for row in rows]
        sort_ms = float(list(csv.DictReader(run.stdout.splitlines()))[-1]["sort_ms"])
        kernels_ms = sum(int(row["duration_ns"]) for row in rows[len(planned):]) / 1e6
        ok = (seen == planned + planned and all(int(row["duration_ns"]) > 0 for row in rows) and
              (q < 20 or sort_ms / 3 <= kernels_ms <= sort_ms))
        print("ok  " if ok else "FAIL", f"2^{q}: {len(rows)} kernels recorded, the plan has "
              f"{len(planned)} a sort; first {seen[:3]}, planned {planned[:3]}; the timed "
              f"sort's kernels {kernels_ms:.4f} ms of its {sort_ms:.4f} ms")
        failures += not ok
    environment = dict(os.environ, CUDA_INJECTION64_PATH=library)
    environment.pop("LAUNCH_TIMES_CSV", None)
    run = subprocess.run([program, "--log2", "10", "--reps", "1"], capture_output=True, text=True,
                         env=environment, timeout=600)
    ok = run.returncode == 0 and "no timeline written" in run.stderr
    print("ok  " if ok else "FAIL", "without LAUNCH_TIMES_CSV:", run.returncode, run.stderr.strip())
    failures += not ok
sys.exit(1 if failures else 0)
