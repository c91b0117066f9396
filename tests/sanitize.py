#!/usr/bin/env python3
"""sanitize suite: one stage program under one compute-sanitizer tool, at a few sizes.

Usage: sanitize.py memcheck|racecheck|synccheck STAGE_PROGRAM GPU_PRESENT_PROGRAM
       sanitize.py TOOL TEST_PROGRAM GPU_PRESENT_PROGRAM --doctest-case NAME
       sanitize.py TOOL LAB_ARGSORT GPU_PRESENT_PROGRAM --tile-argsorts

The second form runs one test case of a doctest program instead (the grader runs exercise 1's
check this way, on a stage's gpu tests, since the stage's program always pads). The third is
for the lab's argsorts (tools/word_argsort, rank_argsort, prefix_argsort), which sort arrays of
at most one tile with --values: their argsort of one long array becomes one of arrays of a tile.

memcheck finds out-of-bounds and misaligned accesses, racecheck shared-memory data races (a
missing barrier), synccheck barriers that not every thread of a block reaches. The sizes cover a
block smaller than a warp, exactly one tile, several tiles with inter-block steps (for every
stage's tile, up to v7_register_tile's 8192 keys), and padding; for a program that takes
--segment, arrays shorter than a warp, than a tile and longer than a tile, for one that takes
--values, its argsort of short arrays, of arrays of a tile, of 8 keys and of one long array,
for one that takes --top, its top-k of short and long arrays, and for one that takes --type,
floats sorted, argsorted and top-k'd.
Exits 77 (SKIP) where there is no usable GPU or no compute-sanitizer.
"""
import os
import re
import shutil
import subprocess
import sys

tool, program, gpu_present = sys.argv[1:4]
doctest_case = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--doctest-case" else None
tile_argsorts = sys.argv[4:] == ["--tile-argsorts"]

if subprocess.run([gpu_present], capture_output=True).returncode != 0:
    print("SKIP: no usable CUDA device")
    sys.exit(77)
sanitizer = shutil.which("compute-sanitizer")
if sanitizer is None:
    for folder in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"):
        candidate = os.path.join(folder, "bin", "compute-sanitizer")
        if folder and os.access(candidate, os.X_OK):
            sanitizer = candidate
            break
if sanitizer is None:
    print("SKIP: compute-sanitizer not found (it ships with the CUDA toolkit)")
    sys.exit(77)

runs = [
    ["-n", "8"],
    ["--log2", "10", "--order", "desc"],
    ["--log2", "11"],
    ["-n", "3000", "--dist", "few-unique"],
    ["--log2", "13", "--order", "desc", "--dist", "extremes"],
    # Four of v7_register_tile's 8192-key tiles: its multistep passes and block_merge run too.
    ["--log2", "15", "--dist", "few-unique"],
]
options = []
if doctest_case is None:
    # The options the program lists (a line of --help that starts with the option).
    help_text = subprocess.run([program, "--help"], capture_output=True, text=True).stdout
    options = re.findall(r"^\s+(--[a-z-]+)", help_text, re.MULTILINE)
    if "--segment" in options:
        # Arrays shorter than a warp, than a tile, and longer than a tile (v8's is 2048 keys).
        runs += [["-n", "3000", "--segment", "8", "--order", "desc"],
                 ["--log2", "15", "--segment", "256", "--dist", "few-unique"],
                 ["--log2", "15", "--segment", "4096", "--order", "desc"]]
    if "--values" in options:
        # Narrow-range keys in short arrays, arrays of a tile and of 1024 keys (uniform keys,
        # whose words share high digits now and then: v17_prefix_argsort's fix-up), one input
        # of 8 keys (one thread), and one long array, or for a lab argsort (at most a tile an
        # array) arrays of a tile in the other order.
        longest = ["--segment", "4096"] if tile_argsorts else []
        runs += [["-n", "3008", "--segment", "64", "--values", "--dist", "few-unique"],
                 ["--log2", "15", "--segment", "4096", "--values"],
                 ["--log2", "15", "--segment", "1024", "--values", "--order", "desc"],
                 ["-n", "8", "--values"],
                 ["--log2", "15", *longest, "--values", "--order", "desc"]]
    if "--top" in options:
        runs += [["--log2", "15", "--segment", "1024", "--top", "16", "--values"],
                 ["--log2", "15", "--segment", "128", "--top", "4", "--order", "desc"],
                 ["-n", "3000", "--top", "8", "--values", "--order", "desc"],
                 ["--log2", "16", "--top", "1", "--dist", "few-unique"]]
    if "--gpus" in options:
        # One GPU, and (the default) every GPU there is: its exchanges, keep_half and merges.
        runs += [["--log2", "16", "--gpus", "1"], ["-n", "70000", "--order", "desc"]]
    if "--type" in options:
        runs += [["-n", "3000", "--type", "float", "--dist", "extremes", "--order", "desc"],
                 ["--log2", "15", "--segment", "1024", "--top", "16", "--values", "--type",
                  "float"]]
else:
    runs = [[f"--test-case={doctest_case}"]]
# A sort across GPUs (--gpus, v25_multi_gpu) calls NCCL, which asks the runtime for peer access
# that an earlier call enabled and takes the error it expects (cudaErrorPeerAccessAlreadyEnabled).
# The sanitizer would count each one; its checks of the kernels' memory stay on, and every
# runtime call of the course's own code is checked by CUDA_CHECK, which fails the run (exit 3).
api_errors = ["--report-api-errors", "no"] if "--gpus" in options else []
failed = 0
for arguments in runs:
    command = [sanitizer, "--tool", tool, "--error-exitcode", "86", *api_errors, program,
               *arguments]
    if doctest_case is None:
        command.append("--reps")
        command.append("1")
    result = subprocess.run(command, capture_output=True, text=True, timeout=3000)
    summary = [line for line in result.stdout.splitlines() if "SUMMARY" in line]
    print(" ".join(arguments), "->", result.returncode, summary[-1] if summary else "")
    ran = re.search(r"test cases:\s*(\d+)", result.stdout)
    if doctest_case is not None and (ran is None or int(ran.group(1)) == 0):
        # doctest exits 0 when no test case matches: that is not a clean run.
        print(f"no test case named '{doctest_case}' ran")
        failed += 1
    if result.returncode != 0:
        failed += 1
        print(result.stdout[-4000:])
        print(result.stderr[-2000:])
sys.exit(1 if failed else 0)
