#!/usr/bin/env python3
"""cpu suite (needs the programs, not a GPU): every stage's program prints with --trace-launches
the launch plan of one sort, from the stage's own for_each_launch, and the tools take their plan
from it (tools/course.py, launch_plan). For every stage and every n = 2^0 .. 2^30 the printed
plan must have launches_per_sort(n) launches (the count the comment line states, and that the
gpu suite holds the real launches to), numbered in order, and run the network's steps in order:
each launch starts at the step after the last one of the launch before, and the steps add up to
q(q + 1) / 2. For a stage that takes --top, the plan of a top-k must have the launches that
launches_per_top states: a top-k that fits register_top (a stage whose bitonic_index.h has
uses_register_top, v16: K <= 16, K below the array's length, arrays of 16 to 4096 keys) one
launch of it, any other a sort of the runs of K keys and block_top launches, no register_top.

Usage: trace_launches_test.py SOURCE_ROOT BUILD_DIR
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[1]), "tools"))
import course  # noqa: E402

build = os.path.abspath(sys.argv[2])


def next_step(size, stride):
    return (size, stride // 2) if stride > 1 else (size * 2, size)


failures = []
for entry in course.stages():
    stage = entry.name
    if course.sorts_across_gpus(stage) and not os.path.exists(os.path.join(build, stage, stage)):
        # A sort across GPUs is built only where NCCL is (meson.build).
        print(f"{stage}: not built here (no NCCL), skipped")
        continue
    for q in range(0, 31):
        n = 1 << q
        plan, expected = course.launch_plan(build, stage, n)
        where = f"{stage} --trace-launches --log2 {q}"
        if len(plan) != expected:
            failures.append(f"{where}: {len(plan)} launches printed, launches_per_sort says "
                            f"{expected}")
            continue
        step = (2, 1)
        total = 0
        for index, launch in enumerate(plan):
            if launch["launch"] != index or (launch["size"], launch["stride"]) != step or \
                    launch["steps"] < 1:
                failures.append(f"{where}: launch {index} is {launch}, expected the step "
                                f"{step} next")
                break
            for _ in range(launch["steps"]):
                step = next_step(*step)
            total += launch["steps"]
        if total != q * (q + 1) // 2:
            failures.append(f"{where}: the launches run {total} steps, the network has "
                            f"{q * (q + 1) // 2}")
    print(f"{stage}: plans of 2^0 .. 2^30 checked", flush=True)
    if "--top" not in subprocess.run(course.program_command(build, stage) + ["--help"],
                                     capture_output=True, text=True).stdout:
        continue
    with open(os.path.join(os.path.abspath(sys.argv[1]), stage, "bitonic_index.h")) as file:
        registers = "uses_register_top" in file.read()
    for segment, top in ((1024, 16), (1024, 64), (16, 8), (8192, 16), (2, 1)):
        plan, expected = course.launch_plan(build, stage, 1 << 16, segment, top)
        where = f"{stage} --trace-launches -n 65536 --segment {segment} --top {top}"
        kernels = [launch["kernel"] for launch in plan]
        fits = registers and 16 <= segment <= 4096 and top <= 16 and top < segment
        shape_right = kernels == ["register_top"] if fits else (
            bool(kernels) and kernels[-1] == "block_top" and
            set(kernels) <= {"block_sort", "group_steps", "block_top"})
        if len(plan) != expected or not shape_right:
            failures.append(f"{where}: {kernels}, launches_per_top says {expected}")
    print(f"{stage}: plans of five top-ks checked", flush=True)
for failure in failures[:20]:
    print("FAIL", failure)
sys.exit(1 if failures else 0)
