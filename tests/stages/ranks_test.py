#!/usr/bin/env python3
"""gpu suite: the sort across GPUs as one process per GPU (common/ranks.cpp), under mpirun.

Usage: ranks_test.py STAGE_PROGRAM GPU_PRESENT_PROGRAM

On one rank (any machine with MPI and a GPU) and, where there are two GPUs, on two: sorts that
pass their check and report as the one-process form does (the same launches, passes, padded
length and bytes exchanged); ranks that hold none of the keys; the check seen to fail on a key
out of order, a key lost and a boundary between ranks (COURSE_BREAK_SORT); mistakes on the
command line, two ranks on one GPU and more ranks than GPUs, each said in one line by a rank
refused, with the documented exit code; a rank that fails on its own (COURSE_FAIL_RANK), before
it joins the others and in the middle of their sort, stops every rank, with its exit code,
within 60 s. Exits 77 (SKIP) without a GPU or without mpirun; the two-rank cases are left out,
and said so, with one GPU. mpirun is Open MPI's (--oversubscribe, OMPI_ALLOW_RUN_AS_ROOT).
"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import time

program, gpu_present = sys.argv[1:3]
if subprocess.run([gpu_present], capture_output=True).returncode != 0:
    print("SKIP: no usable CUDA device")
    sys.exit(77)
mpirun = shutil.which("mpirun")
if mpirun is None:
    print("SKIP: mpirun not found (OpenMPI: README, 'Prerequisites')")
    sys.exit(77)

# mpirun refuses to start as root unless told it may (the GPU machines' tests run as root); NCCL's
# multicast stays off (the device notes of the course's GPU machines).
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           NCCL_NVLS_ENABLE="0")
listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
gpus = sum(1 for line in listed.splitlines() if line.startswith("GPU "))
# The GPUs this test may use: those CUDA_VISIBLE_DEVICES names, where it is set.
visible = [name for name in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if name]
if visible:
    gpus = min(gpus, len(visible))
ids = visible or [str(device) for device in range(gpus)]
failures = []


def run(ranks, arguments, env=None, timeout=120):
    """(exit code, stdout, stderr, seconds) of the program as `ranks` ranks."""
    start = time.time()
    done = subprocess.run([mpirun, "-np", str(ranks), "--oversubscribe", program] + arguments,
                          capture_output=True, text=True, env=dict(ENV, **(env or {})),
                          timeout=timeout)
    return done.returncode, done.stdout, done.stderr, time.time() - start


def expect(condition, what, output=""):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)
        print(output[-2000:])


def record(stdout):
    rows = list(csv.DictReader(io.StringIO(stdout)))
    return rows[0] if len(rows) == 1 else None


def one_process(arguments):
    """The one-process form's stdout (no mpirun)."""
    return subprocess.run([program] + arguments, capture_output=True, text=True,
                          env=ENV).stdout


def exchanged(report):
    """The bytes each GPU sends in an exchange, from the text report (None: no exchange line)."""
    found = re.search(r"\((\d+) bytes each way per GPU", report)
    return int(found.group(1)) if found else None


def sorts(ranks, arguments):
    code, out, err, _ = run(ranks, arguments + ["--csv"])
    row = record(out)
    what = f"{ranks} rank(s), {' '.join(arguments)}: sorted and checked"
    expect(code == 0 and row is not None and row["validation"] == "pass", what, out + err)
    return row


def as_one_process(ranks, arguments):
    """The rank form's report against the one-process form's on as many GPUs."""
    row = sorts(ranks, arguments)
    alone = record(one_process(arguments + ["--gpus", str(ranks), "--csv"]))
    fields = ["n", "padded_n", "launches", "passes", "validation"]
    same = row is not None and alone is not None and all(row[f] == alone[f] for f in fields)
    expect(same, f"{ranks} rank(s), {' '.join(arguments)}: the one-process form's {fields}",
           f"{row}\n{alone}")
    # The bytes a GPU sends in an exchange are in the text report alone.
    mine = exchanged(run(ranks, arguments)[1])
    theirs = exchanged(one_process(arguments + ["--gpus", str(ranks)]))
    expect(mine == theirs and (mine is not None) == (ranks > 1),
           f"{ranks} rank(s), {' '.join(arguments)}: {mine} bytes each way per GPU, as the "
           f"one-process form's {theirs}")
    if ranks > 1:
        expect(row is not None and row["exchange_ms"] not in ("", None),
               f"{ranks} ranks, {' '.join(arguments)}: an exchange time", str(row))


def broken(ranks, how, words):
    code, out, err, _ = run(ranks, ["--log2", "20"], env={"COURSE_BREAK_SORT": how})
    expect(code == 1 and words in err,
           f"{ranks} rank(s), COURSE_BREAK_SORT={how}: exit 1, '{words}'", out + err)


# One rank: the same sort as the one-process form on one GPU.
for arguments in (["--log2", "20"], ["-n", "1000003", "--order", "desc"],
                  ["--log2", "16", "--dist", "few-unique"]):
    as_one_process(1, arguments)

# The check can fail: a key out of order, and a key lost.
broken(1, "order", "out of order")
broken(1, "keys", "checksums differ")

# Mistakes on the command line: said once, exit 2, before any rank takes a GPU.
for ranks, arguments, words in ((2, ["--log2", "abc"], "--log2"),
                                (2, ["--gpus", "2"], "--gpus: under mpirun"),
                                (2, ["--output", "x.bin"], "--output: the ranks make"),
                                (3, ["--log2", "10"], "mpirun -np 3")):
    code, out, err, _ = run(ranks, arguments)
    said = sum(1 for line in err.splitlines() if line.startswith(os.path.basename(program)))
    expect(code == 2 and words in err and said == 1,
           f"{ranks} ranks, {' '.join(arguments)}: exit 2, said once", out + err)

# Two ranks that see one GPU, the same one: refused before NCCL is, said once, exit 3.
code, out, err, seconds = run(2, ["--log2", "20"], env={"CUDA_VISIBLE_DEVICES": ids[0]},
                               timeout=90)
said = sum(1 for line in err.splitlines() if line.startswith(os.path.basename(program)))
expect(code == 3 and "it sees the same GPU as rank 0: start at most one rank a GPU" in err and
       said == 1 and seconds < 60,
       f"2 ranks on one GPU: exit 3, said once, in {seconds:.1f} s (at most 60)", out + err)

if gpus < 2:
    print(f"the two-rank cases are left out: {gpus} GPU(s) here")
else:
    for arguments in (["--log2", "24"], ["--log2", "22", "--order", "desc"],
                      ["-n", "3000017", "--dist", "organ-pipe"],
                      ["--log2", "20", "--dist", "equal"], ["--log2", "1"],
                      # Rank 1 holds none of the keys: padding alone.
                      ["-n", "1"], ["-n", "3", "--order", "desc"]):
        as_one_process(2, arguments)
    # Four ranks on two GPUs: ranks 2 and 3 find no GPU of their own; each that speaks before
    # mpirun stops the others says so in one line.
    code, out, err, seconds = run(4, ["--log2", "20"],
                                  env={"CUDA_VISIBLE_DEVICES": ",".join(ids[:2])}, timeout=90)
    said = [line for line in err.splitlines() if line.startswith(os.path.basename(program))]
    too_many = "sees 2 usable CUDA devices for the 4 ranks of its machine: start at most one rank"
    expect(code == 3 and 1 <= len(said) <= 2 and seconds < 60 and
           all(too_many in line and re.search(r"rank [23]: error", line) for line in said),
           f"4 ranks on 2 GPUs: exit 3, said by rank 2 or 3 alone, in {seconds:.1f} s (at most 60)",
           out + err)
    broken(2, "order", "rank 1's keys are out of order")
    broken(2, "keys", "checksums differ")
    broken(2, "boundary", "rank 0's last key is out of order against rank 1's first")
    # A rank that fails alone, while the other waits for it: to join the clique, or inside the
    # sort's exchange. Both stop, soon, with the failing rank's code.
    for when in ("1", "1:sort"):
        code, out, err, seconds = run(2, ["--log2", "20"], env={"COURSE_FAIL_RANK": when},
                                      timeout=90)
        expect(code == 3 and "rank 1: error: COURSE_FAIL_RANK" in err and seconds < 60,
               f"2 ranks, COURSE_FAIL_RANK={when}: exit 3 in {seconds:.1f} s (at most 60)",
               out + err)

print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
