#!/usr/bin/env python3
"""gpu suite: the baselines sort correctly and report like the stages.

Usage: baselines_test.py BASELINES_PROGRAM GPU_PRESENT_PROGRAM

Each algorithm runs at a few sizes, orders and distributions with --csv, and each one that sorts
many arrays at once also with --segment, and each one that has an argsort also with --values;
each run must exit 0 with its validation passed (the copy must equal its input). An argsort's
--output must hold each array's permutation, and --values must be refused, with exit code 2, for
an algorithm that sorts keys only. Exits 77 (SKIP) without a GPU.
"""
import csv
import os
import random
import struct
import subprocess
import sys
import tempfile

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
RUNS += [(algorithm, arguments + ["--values"]) for algorithm in ["cub_segmented",
                                                                  "cub_packed_radix"]
         for arguments in WHOLE + SEGMENTS]
RUNS += [("cub_radix", arguments + ["--values"]) for arguments in WHOLE]

failures = 0
for algorithm, arguments in RUNS:
    command = [program, "--algo", algorithm, "--reps", "2", "--csv", *arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    records = list(csv.DictReader(result.stdout.splitlines()))
    ok = (result.returncode == 0 and len(records) == 1 and
          records[0]["validation"] == "pass" and records[0]["program"] == algorithm)
    print("ok  " if ok else "FAIL", " ".join(command[1:]), result.stderr.strip())
    failures += not ok

# The indices an argsort writes: run on a file of 64 keys with many ties, in arrays of 8 (one
# array of 64 for cub_radix, which sorts whole arrays only).
with tempfile.TemporaryDirectory() as folder:
    keys = [random.Random(3).randrange(-4, 4) for _ in range(64)]
    input_path, output_path = os.path.join(folder, "keys.bin"), os.path.join(folder, "out.bin")
    with open(input_path, "wb") as stream:
        stream.write(struct.pack("<64i", *keys))
    for algorithm, segment in [("cub_segmented", 8), ("cub_packed_radix", 8), ("cub_radix", 64)]:
        for order in ["asc", "desc"]:
            command = [program, "--algo", algorithm, "--input", input_path, "--values", "--order",
                       order, "--output", output_path]
            command += ["--segment", str(segment)] if segment < 64 else []
            if os.path.exists(output_path):
                os.remove(output_path)
            result = subprocess.run(command, capture_output=True, text=True, timeout=600)
            written = b""
            if os.path.exists(output_path):
                with open(output_path, "rb") as stream:
                    written = stream.read()
            indices = list(struct.unpack(f"<{len(written) // 4}i", written))
            rows = [(keys[row:row + segment], indices[row:row + segment])
                    for row in range(0, 64, segment)]
            ok = result.returncode == 0 and len(indices) == 64 and all(
                sorted(index) == list(range(segment)) and
                [row[i] for i in index] == sorted(row, reverse=order == "desc")
                for row, index in rows)
            print("ok  " if ok else "FAIL", " ".join(command[1:]), "(the indices written)",
                  result.stderr.strip())
            failures += not ok

command = [program, "--algo", "std_sort", "--values", "--log2", "4"]
result = subprocess.run(command, capture_output=True, text=True, timeout=600)
ok = result.returncode == 2 and "--values: std_sort sorts keys only" in result.stderr
print("ok  " if ok else "FAIL", " ".join(command[1:]), "(refused)", result.stderr.strip())
failures += not ok
sys.exit(1 if failures else 0)
