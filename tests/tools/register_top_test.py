#!/usr/bin/env python3
"""gpu suite: the lab's top-k in registers (tools/register_top.cu) that the lab note top_keys
measures.

Usage: register_top_test.py PROGRAM GPU_PRESENT_PROGRAM

Runs --top K for every array length 16 .. 4096 in both orders, K = 1 and 16 (and 2, 4, 8 at
1024), on several distributions, whole inputs that pad, with --values (positions) on keys with
ties, and the program without --top (v15's sort and argsort); each run's first K keys of every
array are checked against std::sort by the driver, and with --values their positions; on
equal keys the positions kept must be each array's first K, in order (a stable top-k).
Longer arrays and K above 16 are refused with exit code 2 and one line. Exits 77 (SKIP) without
a GPU.
"""
import csv
import os
import struct
import subprocess
import sys
import tempfile

program, gpu_present = sys.argv[1], sys.argv[2]
if subprocess.run([gpu_present], capture_output=True).returncode != 0:
    print("SKIP: no usable CUDA device")
    sys.exit(77)

RUNS = [["--log2", "16", "--segment", str(1 << s), "--top", str(top), "--order", order]
        for s in range(4, 13) for top in (1, 16) for order in ("asc", "desc")]
RUNS += [["--log2", "18", "--segment", "1024", "--top", str(top)] for top in (2, 4, 8)]
# With positions: a stable top-k, each index checked against its key by the driver; ties from
# few-unique keys and from equal ones.
RUNS += [["--log2", "16", "--segment", str(1 << s), "--top", str(top), "--order", order,
          "--values", "--dist", "few-unique"]
         for s in (4, 7, 10, 12) for top in (1, 16) for order in ("asc", "desc")]
RUNS += [["--log2", "16", "--segment", "1024", "--top", "16", "--values", "--dist", "equal"],
         ["--log2", "16", "--segment", "256", "--values"]]
RUNS += [["--log2", "18", "--segment", "1024", "--top", "16", "--dist", dist]
         for dist in ("few-unique", "extremes", "sorted", "reversed", "equal")]
# Whole inputs: one array of 2^12 keys, and lengths that pad to 128 and 4096 keys.
RUNS += [["--log2", "12", "--top", "16"], ["-n", "100", "--top", "4", "--order", "desc"],
         ["-n", "3000", "--top", "16"], ["--log2", "20", "--segment", "1024"]]

failures = 0
for arguments in RUNS:
    command = [program, "--reps", "1", "--csv", *arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    rows = list(csv.DictReader(result.stdout.splitlines()))
    ok = result.returncode == 0 and len(rows) == 1 and rows[0]["validation"] == "pass"
    print("ok  " if ok else "FAIL", " ".join(arguments), "" if ok else
          result.stdout + result.stderr.strip())
    failures += not ok

# Stable: of equal keys, the first K positions of each array, in order, in both orders (the
# driver checks only that each index points at its key and that none repeats).
with tempfile.TemporaryDirectory() as folder:
    for order in ("asc", "desc"):
        path = os.path.join(folder, "indices")
        arguments = ["--log2", "14", "--segment", "1024", "--top", "16", "--values", "--dist",
                     "equal", "--order", order, "--output", path]
        result = subprocess.run([program, "--reps", "1", *arguments], capture_output=True,
                                text=True, timeout=600)
        data = b""
        if result.returncode == 0 and os.path.exists(path):
            with open(path, "rb") as file:
                data = file.read()
        indices = list(struct.unpack(f"<{len(data) // 4}i", data))
        ok = indices == list(range(16)) * (2 ** 14 // 1024)
        print("ok  " if ok else "FAIL", "stable on equal keys:", " ".join(arguments[:-1]),
              "" if ok else result.stderr.strip() + f" {indices[:20]}")
        failures += not ok

for arguments in (["--log2", "16", "--segment", "8192", "--top", "16"],
                  ["--log2", "16", "--segment", "1024", "--top", "32"],
                  ["-n", "5000", "--top", "16"]):
    refused = subprocess.run([program, *arguments], capture_output=True, text=True, timeout=600)
    ok = refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    print("ok  " if ok else "FAIL", " ".join(arguments), "refused:", refused.returncode,
          refused.stderr.strip())
    failures += not ok
sys.exit(1 if failures else 0)
