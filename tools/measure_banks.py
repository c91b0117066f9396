#!/usr/bin/env python3
"""Shared-memory bank conflicts of the in-block kernels, counted by Nsight Compute (ncu).

    python3 tools/measure_banks.py --build build --csv bank_conflicts.csv

Profiles the first block_sort and the first block_merge launch of every stage that keeps a tile
in shared memory (v2_shared on), and of the variants of tools/variants.txt named by --variants
(built through Meson first, such as v7_unpadded: v7_register_tile without padding), at
n = 2^20 (one sort, no validation), and records, per kernel, the shared-memory load and store
instructions the warps executed, the wavefronts (passes through the banks) they took, and the
bank conflicts ncu counts, with the GPU, driver and date. tests/stages/bank_model.h predicts which accesses conflict;
docs/07_v5_bank_free.md and docs/09_v7_register_tile.md set the two side by side. ncu runs with
--clock-control none, so the GPU's clocks are left as they are.

With --sass-csv it also counts, per kernel, the shared- and global-memory instructions in the
machine code (cuobjdump -sass): whether the compiler kept two 4-byte accesses or merged them
into one 8-byte access (LDS.64, STS.64) decides what the banks see. It counts the shuffles,
barriers, min/max, selects and compares too, which show how v9's 64-bit compares are built
(chapter 28) and what its variants of chapter 11 build instead (double compares, DSETP).
"""
import argparse
import collections
import csv
import io
import os
import re
import subprocess
import sys

import course
import registers

METRICS = {
    "smsp__sass_inst_executed_op_shared_ld.sum": "shared_load_instructions",
    "smsp__sass_inst_executed_op_shared_st.sum": "shared_store_instructions",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "shared_load_wavefronts",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "shared_store_wavefronts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "load_bank_conflicts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "store_bank_conflicts",
}


def sass_memory_instructions(cuobjdump, program):
    """count_instructions of the program's machine code (cuobjdump -sass)."""
    return count_instructions(subprocess.run([cuobjdump, "-sass", program], capture_output=True,
                                             text=True, check=True).stdout)


def count_instructions(sass):
    """{kernel: Counter(opcode)} for the memory, shuffle, barrier, min/max, select (of integers
    and of floats), compare (of integers and of doubles) and three-input logic (LOP3: a flip
    ~x is one) instructions of the course's kernels in the text of cuobjdump -sass."""
    counts = collections.defaultdict(collections.Counter)
    kernel = None
    for line in sass.splitlines():
        function = re.search(r"Function : (\S+)", line)
        if function:
            name = function.group(1)
            kernel = course.kernel_of(name)
            continue
        opcode = re.search(r"\b(LDS|STS|LDG|STG|SHFL|BAR|IMNMX|VIMNMX|SEL|FSEL|ISETP|DSETP|LOP3)"
                           r"(\.[A-Z0-9]+)*", line)
        if kernel and opcode:
            name = opcode.group(0)
            if name.startswith("ISETP"):
                # Integer compares, by whether they extend a compare to a second word (.EX: the
                # upper half of a 64-bit compare), not by their many condition suffixes.
                name = "ISETP.EX" if ".EX" in name else "ISETP"
            elif name.startswith("DSETP"):
                # Double compares by what they compare for: a DSETP.MIN or DSETP.MAX picks the
                # result of a min or max of two doubles, which two selects then take.
                name = ".".join(name.split(".")[:2])
            counts[kernel][name] += 1
    return counts


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
        name = course.kernel_of(row["Kernel Name"]) or row["Kernel Name"]
        key = (row["ID"], name)
        kernels.setdefault(key, {})[METRICS[row["Metric Name"]]] = \
            int(float(row["Metric Value"].replace(",", "")))
    return kernels


def shared_memory_stages(nvcc):
    """The stages whose kernels reserve shared memory, as the compiler reports it (for sm_75, the
    oldest architecture CUDA 13 builds for: a kernel's __shared__ arrays are the same on any)."""
    stages = course.stage_names()
    return [stage for stage, found in zip(stages, registers.kernels_of(nvcc, stages, "75"))
            if any(shared > 0 for *_, shared in found)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(course.ROOT, "build"))
    parser.add_argument("--log2", type=int, default=20)
    parser.add_argument("--csv", help="where to write the bank-conflict counts")
    parser.add_argument("--sass-csv", help="also write the kernels' memory instructions here")
    parser.add_argument("--variants", default="",
                        help="comma-separated variants of tools/variants.txt to measure after "
                        "the stages, built through Meson first")
    parser.add_argument("--sass-only", action="store_true",
                        help="only the machine code's instructions (--sass-csv), no ncu")
    arguments = parser.parse_args()
    if course.arguments_only():
        return
    ncu = None if arguments.sass_only else course.find_tool("ncu")
    gpu, driver, date = course.gpu_name(), course.nvidia_driver(), course.today()
    programs = [(stage, course.program_command(arguments.build, stage)[0])
                for stage in shared_memory_stages(course.find_tool("nvcc"))]
    programs += [(name, course.variant_program(arguments.build, name))
                 for name in arguments.variants.split(",") if name]
    records = []
    for stage, program in [] if arguments.sass_only else programs:
        for (_, kernel), values in sorted(profile(ncu, program, arguments.log2).items()):
            record = {"stage": stage, "kernel": kernel, "n": 1 << arguments.log2}
            record.update({name: values.get(name, "") for name in METRICS.values()})
            record.update(gpu=gpu, nvidia_driver=driver, date=date)
            records.append(record)
            print(", ".join(f"{key} {value}" for key, value in record.items()))
    if records:
        course.write_csv(arguments.csv, records)
    if arguments.sass_csv:
        cuobjdump = course.find_tool("cuobjdump")
        rows = []
        for stage, program in programs:
            counts = sass_memory_instructions(cuobjdump, program)
            for kernel in sorted(counts):
                for opcode, count in sorted(counts[kernel].items()):
                    rows.append({"stage": stage, "kernel": kernel, "instruction": opcode,
                                 "count": count, "gpu": gpu, "nvidia_driver": driver,
                                 "date": date})
        course.write_csv(arguments.sass_csv, rows)


if __name__ == "__main__":
    main()
