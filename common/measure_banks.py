#!/usr/bin/env python3
"""Shared-memory bank conflicts of the in-block kernels, counted by Nsight Compute (ncu).

    python3 common/measure_banks.py --build build --csv bank_conflicts.csv

Profiles the first block_sort and the first block_merge launch of v2_shared .. v5_bank_free at
n = 2^20 (one sort, no validation) and records, per kernel, the shared-memory load and store
instructions the warps executed, the wavefronts (passes through the banks) they took, and the
bank conflicts ncu counts, with the GPU, driver and date. tests/bank_model.h predicts which
accesses conflict; docs/07_v5_bank_free.md sets the two side by side. ncu runs with
--clock-control none, so the GPU's clocks are left as they are.

With --sass-csv it also counts, per kernel, the shared- and global-memory instructions in the
machine code (cuobjdump -sass): whether the compiler kept two 4-byte accesses or merged them
into one 8-byte access (LDS.64, STS.64) decides what the banks see.
"""
import argparse
import collections
import csv
import datetime
import io
import os
import re
import shutil
import subprocess
import sys

STAGES = ["v2_shared", "v3_warp", "v4_half_threads", "v5_bank_free"]
METRICS = {
    "smsp__sass_inst_executed_op_shared_ld.sum": "shared_load_instructions",
    "smsp__sass_inst_executed_op_shared_st.sum": "shared_store_instructions",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "shared_load_wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "shared_store_wavefronts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "load_bank_conflicts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "store_bank_conflicts",
}


def find_tool(name):
    found = shutil.which(name)
    if found:
        return found
    for folder in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"):
        candidate = os.path.join(folder, "bin", name)
        if folder and os.access(candidate, os.X_OK):
            return candidate
    sys.exit(f"{name} not found (it comes with the CUDA toolkit)")


def sass_memory_instructions(cuobjdump, program):
    """{kernel: Counter(opcode)} for the memory, shuffle and barrier instructions of the
    stage's kernels, from its machine code."""
    sass = subprocess.run([cuobjdump, "-sass", program], capture_output=True, text=True,
                          check=True).stdout
    counts = collections.defaultdict(collections.Counter)
    kernel = None
    for line in sass.splitlines():
        function = re.search(r"Function : (\S+)", line)
        if function:
            name = function.group(1)
            kernel = next((k for k in ("block_sort", "block_merge", "bitonic_step") if k in name),
                          None)
            continue
        opcode = re.search(r"\b(LDS|STS|LDG|STG|SHFL|BAR)(\.[A-Z0-9]+)*", line)
        if kernel and opcode:
            counts[kernel][opcode.group(0)] += 1
    return counts


def gpu_and_driver():
    result = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                             "--format=csv,noheader"], capture_output=True, text=True)
    name, driver = (result.stdout.splitlines()[0].split(", ") + ["unknown", "unknown"])[:2]
    return name, driver


def profile(ncu, program, q):
    command = [ncu, "--clock-control", "none", "--metrics", ",".join(METRICS),
               "--kernel-name", "regex:block_(sort|merge)", "--launch-count", "2", "--csv",
               program, "--log2", str(q), "--reps", "1", "--no-validate"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    # ncu's CSV lines are the quoted ones; the program's own report is interleaved with them.
    lines = [line for line in result.stdout.splitlines() if line.startswith('"')]
    kernels = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        name = row["Kernel Name"].split("(")[0].split("::")[-1]
        key = (row["ID"], name)
        kernels.setdefault(key, {})[METRICS[row["Metric Name"]]] = \
            int(float(row["Metric Value"].replace(",", "")))
    return kernels


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--log2", type=int, default=20)
    parser.add_argument("--csv", required=True)
    parser.add_argument("--sass-csv", help="also write the kernels' memory instructions here")
    arguments = parser.parse_args()
    ncu = find_tool("ncu")
    gpu, driver = gpu_and_driver()
    date = datetime.date.today().isoformat()
    records = []
    for stage in STAGES:
        program = os.path.join(arguments.build, stage, stage)
        for (launch, kernel), values in sorted(profile(ncu, program, arguments.log2).items()):
            record = {"stage": stage, "kernel": kernel, "n": 1 << arguments.log2}
            record.update({name: values.get(name, "") for name in METRICS.values()})
            record.update(gpu=gpu, nvidia_driver=driver, date=date)
            records.append(record)
            print(", ".join(f"{key} {value}" for key, value in record.items()))
    with open(arguments.csv, "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(records[0]))
        writer.writeheader()
        writer.writerows(records)
    if arguments.sass_csv:
        cuobjdump = find_tool("cuobjdump")
        with open(arguments.sass_csv, "w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(["stage", "kernel", "instruction", "count", "gpu", "nvidia_driver",
                             "date"])
            for stage in STAGES:
                program = os.path.join(arguments.build, stage, stage)
                counts = sass_memory_instructions(cuobjdump, program)
                for kernel in sorted(counts):
                    for opcode, count in sorted(counts[kernel].items()):
                        writer.writerow([stage, kernel, opcode, count, gpu, driver, date])
                        print(stage, kernel, opcode, count)


if __name__ == "__main__":
    main()
