#!/usr/bin/env python3
"""cpu suite: which launches tools/profile_kernels.py gives Nsight Compute's sections, on made-up
launch plans.

Usage: profile_launches_test.py SOURCE_ROOT

- the first launch, and of the last merge (the launches at the end of the largest size) each
  kernel's first and last: for v2's form, its first global step, its last and block_merge;
- --strides adds the last merge's launches at those strides, --whole-merge all of them;
- a plan of one launch gives that launch;
- contiguous_runs groups the picked launches into one ncu call per run of consecutive launches.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[1]), "tools"))
import profile_kernels  # noqa: E402

failures = 0


def check(ok, what):
    global failures
    print("ok  " if ok else "FAIL", what)
    failures += not ok


# v2's form on 2^13 keys with a 2048-key tile: block_sort, then the merges of 4096 and 8192 keys,
# each global steps down to stride 1024 and a block_merge.
plan = ([("block_sort", 2048, 1024, 11)] +
        [("bitonic_step", 4096, 2048, 1), ("bitonic_step", 4096, 1024, 1),
         ("block_merge", 4096, 512, 10)] +
        [("bitonic_step", 8192, stride, 1) for stride in (4096, 2048, 1024)] +
        [("block_merge", 8192, 512, 10)])
picked = profile_kernels.profiled_launches(plan)
check(picked == [0, 4, 6, 7], f"each kernel's first and last launch of the last merge: {picked}")
picked = profile_kernels.profiled_launches(plan, strides={2048})
check(picked == [0, 4, 5, 6, 7], f"and the launch at stride 2048: {picked}")
picked = profile_kernels.profiled_launches(plan, whole_merge=True)
check(picked == [0, 4, 5, 6, 7], f"the whole last merge: {picked}")
picked = profile_kernels.profiled_launches(plan[:1])
check(picked == [0], f"one launch: {picked}")
# v0's form: one kernel throughout; the last merge is the launches of the last size only.
plan = [("bitonic_step", size, stride, 1) for size in (2, 4, 8)
        for stride in range(size.bit_length() - 2, -1, -1)]
picked = profile_kernels.profiled_launches(plan)
check(picked == [0, 3, 5], f"v0's form, 2^3 keys: {picked}")
runs = profile_kernels.contiguous_runs([0, 4, 5, 6, 9])
check(runs == [(0, 1), (4, 3), (9, 1)], f"runs of consecutive launches: {runs}")
sys.exit(1 if failures else 0)
