#!/usr/bin/env python3
"""cpu suite: a stage program's exit codes and error lines, run as a user would run it.

Usage: exit_codes_test.py STAGE_PROGRAM GPU_PRESENT_PROGRAM

Bad command lines and bad input files must exit with code 2 and print exactly one line on
stderr, "<program>: error: ...", naming the problem, with nothing on stdout and no output file
left behind. A valid run must exit 0 and report a passed validation where a GPU is usable, and
exit 3 with "no usable CUDA device" where none is (the test asks gpu_present which case
applies, and checks that one). It runs everywhere, so CI checks the no-GPU path for real.
"""
import csv
import os
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import course  # noqa: E402

program, gpu_present = sys.argv[1], sys.argv[2]
name = os.path.basename(program)
failures = []


def run(*arguments):
    return subprocess.run([program, *arguments], capture_output=True, text=True, timeout=900)


def expect(arguments, code, message):
    """The run exits with `code` and its only output is one error line containing `message`."""
    result = run(*arguments)
    lines = result.stderr.splitlines()
    problems = []
    if result.returncode != code:
        problems.append(f"exit code {result.returncode}, expected {code}")
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines on stderr, expected 1")
    elif not lines[0].startswith(f"{name}: error: ") or message not in lines[0]:
        problems.append(f"stderr {lines[0]!r} lacks {message!r}")
    if result.stdout:
        problems.append(f"unexpected stdout {result.stdout[:200]!r}")
    if problems:
        failures.append(f"{' '.join(arguments)}: {'; '.join(problems)}")


with tempfile.TemporaryDirectory() as folder:
    missing = os.path.join(folder, "missing.bin")
    odd = os.path.join(folder, "odd.bin")
    empty = os.path.join(folder, "empty.bin")
    with open(odd, "wb") as file:
        file.write(b"123456")
    open(empty, "wb").close()
    output = os.path.join(folder, "sorted.bin")

    help_run = run("--help")
    if help_run.returncode != 0 or "Usage: " + name not in help_run.stdout:
        failures.append("--help: expected exit 0 and the usage text")
    # The experiments read the distributions from --help (course.listed_names): the same names
    # as the refusal of a distribution that is not one of them.
    listed = course.listed_names(os.path.dirname(os.path.dirname(program)), name, "--dist")
    refused_run = run("--dist", "gauss")
    if f"not in {{{','.join(listed)}}}" not in refused_run.stderr or "uniform" not in listed:
        failures.append(f"--help lists the distributions {listed}, the refusal of 'gauss' says "
                        f"{refused_run.stderr.strip()!r}")
    # Programs that sort across GPUs (--gpus P, v25_multi_gpu) take 2^30 keys per GPU, up to 16.
    gpus = "--gpus P" in help_run.stdout
    most_log2 = 34 if gpus else 30
    expect(["--log2", "abc"], 2, f"--log2: expects a whole number from 0 to {most_log2}, got 'abc'")
    expect(["--log2", "-3"], 2, "got '-3'")
    expect(["--log2", str(most_log2 + 1)], 2, f"got '{most_log2 + 1}'")
    expect(["-n", "0"], 2, f"-n: expects a whole number from 1 to {1 << most_log2}, got '0'")
    expect(["-n", "99999999999999999999999"], 2, "got '99999999999999999999999'")
    expect(["--reps", "0"], 2, "--reps: expects a whole number")
    expect(["--frobnicate"], 2, "unexpected arguments: --frobnicate")
    expect(["--dist", "gauss"], 2, "--dist: gauss not in {uniform,")
    expect(["--order", "up"], 2, "--order: up not in {asc,desc}")
    expect(["--log2"], 2, "--log2: 1 required Q missing")
    expect(["--log2", "4", "-n", "16"], 2, "--log2 excludes -n")
    expect(["--input", missing], 2, "cannot open input file")
    expect(["--input", folder], 2, "is a directory")
    expect(["--input", odd], 2, "has 6 bytes, not a multiple of 4")
    expect(["--input", empty], 2, "is empty")
    expect(["--log2", "4", "--output", os.path.join(folder, "no", "out.bin")], 2,
           "cannot write output file")
    expect(["--log2", "10", "--log2", "12"], 2, "--log2 is given 2 times: give it once")

    # Programs that sort many arrays at once (--segment L, v8_batched).
    segments = "--segment L" in help_run.stdout
    seven = os.path.join(folder, "seven.bin")
    with open(seven, "wb") as file:
        file.write(struct.pack("<7i", *range(7)))
    if segments:
        expect(["--segment", "1000"], 2, "--segment: expects a power of two from 2")
        expect(["--segment", "1"], 2, "--segment: expects a power of two from 2")
        expect(["--log2", "10", "--segment", "2048"], 2,
               "--segment 2048 must divide the number of keys into whole arrays, but n is 1024")
        expect(["-n", "1000", "--segment", "16"], 2, "but n is 1000")
        expect(["--input", seven, "--segment", "4"], 2, "the number of keys in")
    else:
        expect(["--segment", "16"], 2, "unexpected arguments: --segment 16")
    # Programs with a top-k (--top K, v10_top_k): bad values exit 2, before anything is written.
    tops = "--top K" in help_run.stdout
    if tops:
        expect(["--top", "3"], 2, "--top: expects a power of two")
        expect(["--segment", "16", "--top", "32"], 2,
               "--top 32 keeps more keys than an array has: --segment is 16 (see --help)")
        expect(["--log2", "10", "--top", "2048"], 2, "keeps more keys than an array has: n is 1024")
        expect(["--log2", "16", "--top", "8192", "--output", output], 2, "keeps at most")
        # The bound the refusal names is the program's own: its launch plan (no GPU needed) takes
        # that K of a longer array, and refuses twice it.
        refusal = run("--log2", "16", "--top", "8192").stderr
        most = refusal.split("keeps at most ")[-1].split()[0]
        if not most.isdigit() or run("--log2", "16", "--top", most,
                                     "--trace-launches").returncode != 0:
            failures.append(f"--top: the refusal's bound {most!r} is not one the program takes")
        else:
            expect(["--log2", "16", "--top", str(2 * int(most)), "--trace-launches"], 2,
                   f"keeps at most {most} keys")
        expect(["--input", seven, "--top", "8", "--output", output], 2, "the number of keys in")
    else:
        expect(["--top", "4"], 2, "unexpected arguments: --top 4")
    # Programs that sort floats (--type, v11_float_keys).
    floats = "--type int|float" in help_run.stdout
    if floats:
        expect(["--type", "double", "--output", output], 2, "--type: double not in {int,float}")
    else:
        expect(["--type", "float"], 2, "unexpected arguments: --type float")
    if gpus:
        expect(["--gpus", "3"], 2, "--gpus: expects a power of two from 1 to 16")
        expect(["--gpus", "32"], 2, "--gpus: expects a power of two from 1 to 16")
        expect(["--device", "1"], 2, "unexpected arguments: --device 1")
        expect(["--trace-launches", "--log2", "31"], 2,
               "prints the launches of one GPU's sort: at most 1073741824 keys")
    else:
        expect(["--gpus", "2"], 2, "unexpected arguments: --gpus 2")

    keys = [5, -1, 2147483647, -2147483648, 0, 5, 3]
    source = os.path.join(folder, "keys.bin")
    with open(source, "wb") as file:
        file.write(struct.pack(f"<{len(keys)}i", *keys))
    expect(["--input", source, "--dist", "sorted"], 2, "--dist excludes --input")

    if subprocess.run([gpu_present], capture_output=True).returncode == 0:
        result = run("--log2", "10", "--reps", "2")
        if result.returncode != 0 or "validation    pass" not in result.stdout:
            failures.append(f"--log2 10 on a GPU: exit {result.returncode}, {result.stdout!r}")
        result = run("--input", source, "--output", output, "--order", "desc", "--reps", "1")
        with open(output, "rb") as file:
            written = list(struct.unpack(f"<{len(keys)}i", file.read()))
        if result.returncode != 0 or written != sorted(keys, reverse=True):
            failures.append(f"--input/--output: exit {result.returncode}, wrote {written}")
        result = run("--log2", "8", "--csv", "--reps", "1")
        records = list(csv.DictReader(result.stdout.splitlines()))
        if len(records) != 1 or records[0]["validation"] != "pass" or records[0]["n"] != "256":
            failures.append(f"--csv: {result.stdout!r}")
        if gpus:
            # More GPUs than there are, and more keys than one GPU holds: refused before any
            # key is made or written.
            expect(["--gpus", "16", "--log2", "4", "--output", output], 3, "usable CUDA device(s)")
            expect(["--gpus", "1", "--log2", "31", "--output", output], 2,
                   "1 GPU(s) sort at most 1073741824")
        else:
            expect(["--device", "1023", "--log2", "4"], 3, "does not exist")
        if segments:
            result = run("--log2", "12", "--segment", "256", "--order", "desc", "--reps", "1")
            if result.returncode != 0 or "validation    pass" not in result.stdout:
                failures.append(f"--segment 256: exit {result.returncode}, {result.stdout!r}")
            arrays = [7, 3, -2, 9, 2147483647, -2147483648, 0, 1]
            with open(source, "wb") as file:
                file.write(struct.pack(f"<{len(arrays)}i", *arrays))
            result = run("--input", source, "--output", output, "--segment", "4", "--reps", "1")
            with open(output, "rb") as file:
                written = list(struct.unpack(f"<{len(arrays)}i", file.read()))
            if result.returncode != 0 or written != sorted(arrays[:4]) + sorted(arrays[4:]):
                failures.append(f"--input/--output --segment 4: exit {result.returncode}, "
                                f"wrote {written}")
        if tops:
            result = run("--input", source, "--output", output, "--segment", "4", "--top", "2",
                         "--order", "desc", "--reps", "1")
            with open(output, "rb") as file:
                written = list(struct.unpack(f"<{os.path.getsize(output) // 4}i", file.read()))
            expected = (sorted(arrays[:4], reverse=True)[:2] + sorted(arrays[4:], reverse=True)[:2])
            if result.returncode != 0 or written != expected:
                failures.append(f"--input/--output --segment 4 --top 2: exit {result.returncode}, "
                                f"wrote {written}")
        if floats:
            # The bits of -NaN, +inf, -0.0, 1.5, +NaN, -inf, +0.0, -1.5: each array's totalOrder.
            patterns = [0xffc00000, 0x7f800000, 0x80000000, 0x3fc00000,
                        0x7fc00000, 0xff800000, 0x00000000, 0xbfc00000]
            with open(source, "wb") as file:
                file.write(struct.pack(f"<{len(patterns)}I", *patterns))
            for order, arguments, expected in (
                    ("asc", [], [0xffc00000, 0x80000000, 0x3fc00000, 0x7f800000,
                                 0xff800000, 0xbfc00000, 0x00000000, 0x7fc00000]),
                    ("desc", ["--top", "2"], [0x7f800000, 0x3fc00000, 0x7fc00000, 0x00000000]),
                    ("asc", ["--values"], [0, 2, 3, 1, 1, 3, 2, 0])):
                result = run("--input", source, "--output", output, "--segment", "4", "--type",
                             "float", "--order", order, "--reps", "1", *arguments)
                with open(output, "rb") as file:
                    written = list(struct.unpack(f"<{os.path.getsize(output) // 4}I", file.read()))
                if result.returncode != 0 or written != expected:
                    failures.append(f"--type float --input/--output --order {order} {arguments}: "
                                    f"exit {result.returncode}, wrote {[hex(w) for w in written]}")
    else:
        expect(["--log2", "10", "--output", output], 3, "no usable CUDA device")
        # The device is looked for before 2^30 keys are made, not after.
        started = time.monotonic()
        expect(["--log2", "30", "--reps", "1"], 3, "no usable CUDA device")
        if time.monotonic() - started > 10:
            failures.append(f"--log2 30 without a GPU took {time.monotonic() - started:.0f} s "
                            "to say so")
        left = [entry for entry in os.listdir(folder) if entry.startswith(("sorted.bin", "."))]
        if left:
            failures.append(f"a failed run left files behind: {left}")

for failure in failures:
    print("FAIL", failure)
print(f"{name}: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
