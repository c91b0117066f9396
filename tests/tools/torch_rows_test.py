#!/usr/bin/env python3
"""gpu suite: tools/torch_rows.py, the torch.sort rival of chapter 10.

Usage: torch_rows_test.py SOURCE_ROOT

Its check must catch rows out of order, indices that repeat and indices that point at the wrong
key; its runs must exit 0 with validation passed, in both orders, for many rows and for one; a
bad --segment must exit 2 with one line. Exits 77 (SKIP) where PyTorch cannot be imported or
sees no CUDA device.
"""
import csv
import os
import subprocess
import sys

root = sys.argv[1]
sys.path.insert(0, os.path.join(root, "tools"))
try:
    import torch
except ImportError:
    print("SKIP: PyTorch cannot be imported")
    sys.exit(77)
if not torch.cuda.is_available():
    print("SKIP: no usable CUDA device")
    sys.exit(77)
import torch_rows

failures = 0


def expect(ok, what):
    global failures
    print("ok  " if ok else "FAIL", what)
    failures += not ok


rows = torch.tensor([[3, 1, 2, 2], [9, -5, 0, 7]], dtype=torch.int32)
values, indices = torch.sort(rows, dim=-1)
expect(torch_rows.check_rows(torch, rows, values, indices, False) == 0, "a right result passes")
expect(torch_rows.check_rows(torch, rows, values.flip(1), indices.flip(1), False) == 2,
       "rows out of order are counted")
repeated = indices.clone()
repeated[1, 1] = repeated[1, 0]
expect(torch_rows.check_rows(torch, rows, values, repeated, False) == 1,
       "an index named twice is counted")
moved = values.clone()
moved[0, 3] = 4
expect(torch_rows.check_rows(torch, rows, moved, indices, False) == 1,
       "a key that is not the input's is counted")
expect(torch_rows.check_rows(torch, rows, values.flip(1), indices.flip(1), True) == 0,
       "descending order")

program = [sys.executable, os.path.join(root, "tools", "torch_rows.py"), "--reps", "2", "--csv"]
for arguments in (["--log2", "12", "--segment", "8"], ["--log2", "16", "--order", "desc"],
                  ["--log2", "20", "--segment", "1024", "--order", "desc"]):
    result = subprocess.run(program + arguments, capture_output=True, text=True, timeout=600)
    records = list(csv.DictReader(result.stdout.splitlines()))
    expect(result.returncode == 0 and len(records) == 1 and records[0]["validation"] == "pass",
           " ".join(arguments) + " " + result.stderr.strip())
result = subprocess.run(program + ["--log2", "4", "--segment", "32"], capture_output=True,
                        text=True, timeout=600)
expect(result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1,
       "--segment 32 of 16 keys is refused: " + result.stderr.strip())
sys.exit(1 if failures else 0)
