#!/usr/bin/env python3
"""Shared-memory bank conflicts of the in-block kernels, counted by Nsight Compute (ncu).

    python3 common/measure_banks.py --build build --csv bank_conflicts.csv

Profiles the first block_sort and the first block_merge launch of v2_shared .. v5_bank_free at
n = 2^20 (one sort, no validation) and records, per kernel, the shared-memory load and store
instructions the warps executed, the wavefronts (passes through the banks) they took, and the
bank conflicts ncu counts, with the GPU, driver and date. tests/bank_model.h predicts which
accesses conflict; docs/07_v5_bank_free.md sets the two side by side. ncu runs with
--clock-control none, so the GPU's clocks are left as they are.
"""
import argparse
import csv
import datetime
import io
import os
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


def find_ncu():
    found = shutil.which("ncu")
    if found:
        return found
    for folder in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"):
        candidate = os.path.join(folder, "bin", "ncu")
        if folder and os.access(candidate, os.X_OK):
            return candidate
    sys.exit("ncu (Nsight Compute) not found")


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
    arguments = parser.parse_args()
    ncu = find_ncu()
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


if __name__ == "__main__":
    main()
