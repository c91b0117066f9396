#!/usr/bin/env python3
"""What each stage's kernels do with their time, by Nsight Compute (ncu).

    python3 tools/profile_kernels.py --build build --out results --sizes 20,27

For every stage (and every variant of tools/variants.txt named by --variants) and size it
profiles the second of two sorts (the first is the program's warm-up) and writes two CSV files:

  OUT/kernel_times.csv    every launch of the sort: its kernel, the merge size and strides it
                          runs (reconstructed from the stage's launch order and checked against
                          the kernel names ncu reports), and its duration (gpu__time_duration);
                          with the copy time of the same keys, measured in the same run with the
                          copy baseline, so that a launch's cost reads as copies of the array
  OUT/kernel_metrics.csv  the first launch (block_sort, or v0's first step) and, of the last
                          merge, each kernel's first and last launch (its largest and smallest
                          stride there), the launches at --strides, or with --whole-merge every
                          launch: the achieved DRAM throughput as a share of peak, the DRAM bytes
                          read and written, achieved occupancy, the SM's busiest pipe, the
                          shared-memory wavefronts, the L2 hit rate and the three largest warp
                          stall reasons (cycles per issued instruction)

ncu replays a launch so profiled once for each group of metrics it collects (the 27 launches of
v0's last merge at 2^27 took 36.6 s in a probe on the H200's machine, 2026-11-29), and the
timeline once. So the metrics are taken where the docs read them, as the chunks of
tools/record.py ask (a launch not profiled reads "not measured" in the docs).

ncu runs with --clock-control none (the GPU's clocks are left as they are) and --cache-control
none (the caches are not flushed between kernels, as in a real sort). The metrics' exact names
are the ncu version's own; they are read from its raw CSV page and kept as they are.
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys

import course

# Sections whose metrics kernel_metrics.csv keeps, and metrics asked for by name.
SECTIONS = ["SpeedOfLight", "Occupancy", "WarpStateStats"]
METRICS = ["gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
           "dram__throughput.avg.pct_of_peak_sustained_elapsed",
           "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "lts__t_sector_hit_rate.pct"]
# Columns of the raw page, by pattern, and the name kernel_metrics.csv gives them.
WANTED = {
    r"^gpu__time_duration\.sum$": "duration_ns",
    r"^(gpu__)?dram__throughput\.avg\.pct_of_peak_sustained_elapsed$": "dram_pct_of_peak",
    r"^dram__bytes_read\.sum$": "dram_read_bytes",
    r"^dram__bytes_write\.sum$": "dram_write_bytes",
    r"^sm__warps_active\.avg\.pct_of_peak_sustained_active$": "achieved_occupancy_pct",
    r"^sm__throughput\.avg\.pct_of_peak_sustained_elapsed$": "sm_pct_of_peak",
    r"^l1tex__data_pipe_lsu_wavefronts_mem_shared\.sum$": "shared_wavefronts",
    r"^lts__t_sector_hit_rate\.pct$": "l2_hit_pct",
}
STALL = re.compile(r"^smsp__average_warp_latency_issue_stalled_(\w+)\.ratio$|"
                   r"^smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio$")


def available_metrics(ncu):
    """The metric names this ncu knows for the GPU here (ncu --query-metrics), so that a name
    another ncu version spells differently is left out instead of failing the run."""
    result = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True, timeout=300)
    return {line.split()[0] for line in result.stdout.splitlines() if line.strip()}


def ncu_rows(ncu, command, skip, count, options):
    """The raw-page rows ncu prints for `count` launches after `skip`, one dict per launch."""
    full = [ncu, "--clock-control", "none", "--cache-control", "none", "--launch-skip",
            str(skip), "--launch-count", str(count), "--csv", "--page", "raw"] + options + command
    result = subprocess.run(full, capture_output=True, text=True, timeout=3000)
    if result.returncode != 0:
        sys.exit(f"{' '.join(full)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    lines = [line for line in result.stdout.splitlines() if line.startswith('"')]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    # The second line of the raw page holds the units.
    return [row for row in rows if row.get("ID", "").strip().isdigit()]


def number(text):
    try:
        return float(str(text).replace(",", ""))
    except ValueError:
        return None


def kernel_name(row):
    """The course's kernel a row is about, whatever form of the name ncu prints."""
    return course.kernel_of(row["Kernel Name"]) or row["Kernel Name"]


def profiled_launches(plan, whole_merge=False, strides=()):
    """The indices of the launches of `plan` ((kernel, size, stride, steps) a launch, in order)
    that get the sections, in order: the first; of the last merge (the launches at the end whose
    size is the last's), each kernel's first and last launch and those at `strides`, or with
    `whole_merge` every one."""
    start = len(plan) - 1
    while start > 0 and plan[start - 1][1] == plan[-1][1]:
        start -= 1
    merge = range(start, len(plan))
    if whole_merge:
        return sorted({0, *merge})
    picked = {0} | {index for index in merge if plan[index][2] in strides}
    for kernel in {plan[index][0] for index in merge}:
        mine = [index for index in merge if plan[index][0] == kernel]
        picked |= {mine[0], mine[-1]}
    return sorted(picked)


def contiguous_runs(indices):
    """[(first, count)] of sorted `indices`: [0, 5, 6, 7] -> [(0, 1), (5, 3)], one ncu call
    each."""
    runs = []
    for index in indices:
        if runs and runs[-1][0] + runs[-1][1] == index:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((index, 1))
    return runs


def listed(text):
    """The names of a comma-separated option ('' gives none)."""
    return [name for name in (text or "").split(",") if name]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(course.ROOT, "build"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--sizes", default="20,27", help="log2 sizes (default 20,27)")
    parser.add_argument("--stages", help="comma-separated stages (default: all)")
    parser.add_argument("--variants", default="",
                        help="comma-separated variants of tools/variants.txt to profile after "
                        "the stages, built through Meson first (chapter 15: v13_group13,"
                        "v13_group15,v13_group15_keys64)")
    parser.add_argument("--timeline-only", action="store_true",
                        help="only kernel_times.csv (durations, one ncu pass per launch)")
    parser.add_argument("--whole-merge", default="",
                        help="comma-separated programs whose every launch of the last merge gets "
                        "the metrics (chapters 2 and 3 tabulate v0's and v1's)")
    parser.add_argument("--strides", default="",
                        help="comma-separated strides whose launch in the last merge gets the "
                        "metrics too (2048: chapters 4 to 6 compare v2 .. v4 there)")
    parser.add_argument("--durations-only", default="",
                        help="comma-separated programs timed launch by launch but given no "
                        "metrics")
    arguments = parser.parse_args()
    if course.arguments_only():
        return
    ncu = course.find_tool("ncu")
    known = available_metrics(ncu)
    if "gpu__time_duration" in known:
        metrics_asked = [name for name in METRICS if name.split(".")[0] in known]
    else:
        # The query said nothing useful: ask for the names seen working with ncu 2025.3.
        metrics_asked = [name for name in METRICS if not name.startswith("dram__throughput")]
    driver, date = course.nvidia_driver(), course.today()
    names = arguments.stages.split(",") if arguments.stages else course.stage_names()
    variants = [name for name in arguments.variants.split(",") if name]
    for name in variants:
        course.variant_program(arguments.build, name)
    names += variants
    times, metrics = [], []
    for q in [int(q) for q in arguments.sizes.split(",")]:
        copy_code, copy, errors = course.run_record(
            course.program_command(arguments.build, "copy") + ["--log2", str(q), "--reps", "20"])
        if copy_code != 0:
            sys.exit(f"the copy baseline failed: {errors}")
        copy_ms = float(copy["sort_ms"])
        for stage in names:
            command = course.program_command(arguments.build, stage) + [
                "--log2", str(q), "--reps", "1", "--no-validate"]
            code, record, errors = course.run_record(command)
            if code != 0:
                sys.exit(f"{' '.join(command)} failed: {errors}")
            launches = int(record["launches"])
            common = {"stage": stage, "n": 1 << q, "gpu": record["device"],
                      "nvidia_driver": driver, "cuda_runtime": record["cuda_runtime"],
                      "date": date}
            # The whole second sort, durations only: one pass per launch.
            timeline = ncu_rows(ncu, command, launches, launches,
                                ["--metrics", "gpu__time_duration.sum"])
            # The launches as the stage makes them: its program's --trace-launches.
            plan = [(launch["kernel"], launch["size"], launch["stride"], launch["steps"])
                    for launch in course.launch_plan(arguments.build, stage, 1 << q)[0]]
            if len(plan) != len(timeline):
                sys.exit(f"{stage} at 2^{q}: ncu saw {len(timeline)} launches, the plan has "
                         f"{len(plan)}")
            for index, (row, (kernel, size, stride, steps)) in enumerate(zip(timeline, plan)):
                if kernel_name(row) != kernel:
                    sys.exit(f"{stage} at 2^{q}, launch {index}: ncu saw {kernel_name(row)}, "
                             f"the plan says {kernel}")
                times.append({**common, "launch": index, "kernel": kernel, "size": size,
                              "stride": stride, "steps": steps,
                              "duration_ns": number(row["gpu__time_duration.sum"]),
                              "copy_ms": copy_ms})
            print(f"2^{q} {stage}: {launches} launches timed", file=sys.stderr, flush=True)
            course.write_csv(os.path.join(arguments.out, "kernel_times.csv"), times)
            if arguments.timeline_only or stage in listed(arguments.durations_only):
                continue
            # The first launch and the last merge's that the docs read, with the sections'
            # metrics: one ncu call for each run of consecutive launches.
            options = [item for section in SECTIONS for item in ("--section", section)]
            options += ["--metrics", ",".join(metrics_asked)]
            wanted = profiled_launches(plan, stage in listed(arguments.whole_merge),
                                       {int(stride) for stride in listed(arguments.strides)})
            picked = []
            for first, count in contiguous_runs(wanted):
                picked += [(first + offset, row) for offset, row in enumerate(
                    ncu_rows(ncu, command, launches + first, count, options))]
            for index, row in picked:
                kernel, size, stride, steps = plan[index]
                entry = {**common, "launch": index, "kernel": kernel, "size": size,
                         "stride": stride, "steps": steps, "copy_ms": copy_ms}
                for pattern, name in WANTED.items():
                    column = next((c for c in row if re.match(pattern, c)), None)
                    entry[name] = number(row[column]) if column else None
                stalls = []
                for column, value in row.items():
                    match = STALL.match(column)
                    if match and number(value) is not None:
                        stalls.append((number(value), match.group(1) or match.group(2)))
                stalls.sort(reverse=True)
                for rank in range(3):
                    reason, cycles = (stalls[rank][1], stalls[rank][0]) if rank < len(stalls) \
                        else ("", None)
                    entry[f"stall_{rank + 1}"] = reason
                    entry[f"stall_{rank + 1}_cycles"] = cycles
                metrics.append(entry)
            print(f"2^{q} {stage}: {len(picked)} launches profiled", file=sys.stderr, flush=True)
            course.write_csv(os.path.join(arguments.out, "kernel_metrics.csv"), metrics)


if __name__ == "__main__":
    main()
