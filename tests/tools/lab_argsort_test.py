#!/usr/bin/env python3
"""gpu suite: the lab's argsorts of many short arrays that chapter 11 and the lab note
word_argsorts measure: tools/word_argsort (two sorts of 32-bit words), tools/rank_argsort (a sort
of the keys, then a search) and tools/prefix_argsort (one sort of words, then a fix-up).

Usage: lab_argsort_test.py PROGRAM GPU_PRESENT_PROGRAM

Runs the argsort (--values) for every array length 2 .. 4096 in both orders, on several
distributions and on lengths that pad, each with its keys checked against std::sort and its
indices for pointing at them (the driver's own checks); the keys alone (v8_batched's sort); the
indices written by --output on a file with many ties: word_argsort's and prefix_argsort's must
be exactly the stable order, rank_argsort's (which breaks ties in no set order) each array's
permutation that puts its keys in order; for prefix_argsort also files whose arrays share high
digits in short runs, some of them of equal keys (its fix-up, where the file with many ties
makes it sort again): arrays of 4096, 256 (one tile with a run of 9, which sorts again), 8 and
4 keys (neighbouring arrays sharing their digit); and the refusal of arrays longer than a tile,
with exit code 2, one line and no output file. Exits 77 (SKIP) without a GPU.
"""
import csv
import os
import random
import struct
import subprocess
import sys
import tempfile

program, gpu_present = sys.argv[1], sys.argv[2]
name = os.path.basename(program)
STABLE = ("word_argsort", "prefix_argsort")
if name not in STABLE + ("rank_argsort",):
    sys.exit(f"lab_argsort_test.py: {name} is not one of the lab's argsorts")
if subprocess.run([gpu_present], capture_output=True).returncode != 0:
    print("SKIP: no usable CUDA device")
    sys.exit(77)

RUNS = [["--log2", "16", "--segment", str(1 << s), "--order", order, "--values"]
        for s in range(1, 13) for order in ("asc", "desc")]
RUNS += [["--log2", "18", "--segment", "1024", "--dist", dist, "--values"]
         for dist in ("few-unique", "extremes", "sorted", "reversed", "equal")]
# One key; a whole input shorter than a thread's 16 keys; lengths that pad to 2^k.
RUNS += [["-n", "1", "--values"], ["-n", "5", "--values", "--order", "desc"],
         ["-n", "1000", "--values"], ["-n", "3000", "--segment", "8", "--values"]]
RUNS += [["--log2", "20", "--segment", "256"], ["--log2", "20", "--segment", "4096", "--order",
                                                 "desc"]]

failures = 0
for arguments in RUNS:
    command = [program, "--reps", "1", "--csv", *arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    records = list(csv.DictReader(result.stdout.splitlines()))
    ok = (result.returncode == 0 and len(records) == 1 and records[0]["validation"] == "pass" and
          records[0]["program"] == name)
    print("ok  " if ok else "FAIL", " ".join(command[1:]), result.stderr.strip())
    failures += not ok

with tempfile.TemporaryDirectory() as folder:
    # 4096 keys with many ties in arrays of 64: word_argsort's and prefix_argsort's indices must
    # be each array's stable order, rank_argsort's a permutation of each array that puts its
    # keys in order. Arrays of 64 give a word 6 bits of position and 26 of the key's low digit,
    # so the keys differ in both of word_argsort's digits: multiples of 2^26 (the high digit)
    # plus 0 .. 2. For prefix_argsort the keys of an array share 5 high digits, in runs longer
    # than it counts through: its tiles sort again.
    generator = random.Random(5)
    keys = [generator.choice((-3, -2, 0, 1, 2)) * 2**26 + generator.randrange(3)
            for _ in range(4096)]
    keys[7], keys[100] = -2**31, 2**31 - 1
    files = [("many ties", keys, 64)]
    if name == "prefix_argsort":
        # Arrays of 4096 keys: 20-bit high digits (the key's top 20 bits). Each array holds
        # 1500 digits in runs of 1 to 4 keys, in a shuffled order, with low bits drawn from
        # 0 .. 3 so that a run holds equal keys too, and the extremes.
        runs = []
        for start in range(0, 8192, 4096):
            digits = generator.sample(range(-2**19, 2**19), 1500)
            array = [digit * 4096 + generator.randrange(4) for count, digit in enumerate(digits)
                     for _ in range(1 + count % 4)]
            array += [generator.randrange(-2**31, 2**31) for _ in range(4096 - len(array))]
            generator.shuffle(array)
            runs += array
        runs[5], runs[4100] = -2**31, 2**31 - 1
        files.append(("short runs", runs, 4096))
        # Arrays of 8 keys (29-bit high digits), each of three digits taken 3, 3 and 2 times:
        # runs inside a thread's 16 keys.
        eights = []
        for start in range(0, 4096, 8):
            digits = generator.sample(range(-2**28, 2**28), 3)
            array = [digit * 8 + generator.randrange(8)
                     for digit, count in zip(digits, (3, 3, 2)) for _ in range(count)]
            generator.shuffle(array)
            eights += array
        files.append(("runs in arrays of 8", eights, 8))
        # Arrays of 4 keys (30-bit high digits), each one run, with arrays 2j + 1 and 2j + 2
        # sharing their digit: a run that ignored its array's end would hold 8 keys (one
        # crossing from a thread's last key to the next thread's first), short enough for the
        # fix-up, and would mix two arrays.
        fours, digit = [], 0
        for index in range(1024):
            if index == 0 or index % 2 == 1:
                digit = generator.randrange(-2**29, 2**29)
            fours += [digit * 4 + generator.randrange(4) for _ in range(4)]
        files.append(("arrays of 4 next to arrays of their digit", fours, 4))
        # Arrays of 256 keys (24-bit high digits) in runs of 5 to 8 keys; in the second tile one
        # run of 9, which makes that tile sort again.
        longer = []
        for start in range(0, 8192, 256):
            lengths = [5 + count % 4 for count in range(60)]
            if start == 4096:
                lengths[0] = 9
            digits = generator.sample(range(-2**23, 2**23), len(lengths))
            array = [digit * 256 + generator.randrange(4)
                     for digit, length in zip(digits, lengths) for _ in range(length)][:256]
            array += [generator.randrange(-2**31, 2**31) for _ in range(256 - len(array))]
            generator.shuffle(array)
            longer += array
        files.append(("runs of 5 to 9", longer, 256))
    for label, keys, length in files:
        input_path = os.path.join(folder, "keys.bin")
        output_path = os.path.join(folder, "out.bin")
        with open(input_path, "wb") as stream:
            stream.write(struct.pack(f"<{len(keys)}i", *keys))
        for order in ("asc", "desc"):
            command = [program, "--input", input_path, "--segment", str(length), "--values",
                       "--order", order, "--output", output_path, "--reps", "1"]
            result = subprocess.run(command, capture_output=True, text=True, timeout=600)
            with open(output_path, "rb") as stream:
                written = stream.read()
            indices = list(struct.unpack(f"<{len(written) // 4}i", written))
            stable, in_order = [], len(indices) == len(keys)
            for start in range(0, len(keys), length):
                row, placed = keys[start:start + length], indices[start:start + length]
                stable += sorted(range(length),
                                 key=lambda i: (row[i] if order == "asc" else -row[i], i))
                # Any order of the ties: a permutation of the array whose keys come out sorted.
                ordered = [row[i] for i in placed] if sorted(placed) == list(range(length)) else []
                in_order = in_order and ordered == sorted(row, reverse=order == "desc")
            wanted = "the stable order" if name in STABLE else "a permutation into order"
            ok = result.returncode == 0 and (indices == stable if name in STABLE else in_order)
            print("ok  " if ok else "FAIL", " ".join(command[1:]), f"({label}: {wanted} written)",
                  result.stderr.strip())
            failures += not ok

    # Arrays longer than a tile are refused before anything is written.
    refused_path = os.path.join(folder, "refused.bin")
    command = [program, "--log2", "14", "--segment", "8192", "--values", "--output", refused_path]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    lines = result.stderr.strip().splitlines()
    ok = (result.returncode == 2 and len(lines) == 1 and "at most 4096 keys" in lines[0] and
          not os.path.exists(refused_path) and result.stdout == "")
    print("ok  " if ok else "FAIL", " ".join(command[1:]), "(refused)", result.stderr.strip())
    failures += not ok
sys.exit(1 if failures else 0)
