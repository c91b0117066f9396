#!/usr/bin/env python3
"""The registers and shared memory each kernel of each stage needs, as the compiler reports them.

    python3 tools/registers.py --arch 90 --csv registers.csv
    python3 tools/registers.py --stages v14_span --replace-in old.csv --csv new.csv

Compiles every stage's bitonic_sort.cu, and every variant's of tools/variants.txt, with nvcc
for one GPU architecture (-O3, as a release build does, with ptxas -v) and records, per kernel
(multistep once per number of steps, group_steps once per pair of template arguments), the
registers a thread uses, the bytes a thread spills to local memory when they are not enough,
and the shared memory a block reserves, with the nvcc version and the date. The shared memory
is what the kernel declares; memory given at launch (group_steps's 64 KB, v13_any_bits on) is
not in the compiler's report and reads 0. No GPU is needed: this is what the compiler decided,
the same on any machine with the same nvcc. The registers a thread uses bound how many warps a
multiprocessor keeps resident (docs/08_v6_multistep.md). With --stages it compiles only those
stages (or variants); with --replace-in RECORDED.csv it writes that record with their rows
replaced, or added after the stages before them, and the rows of stages that no longer exist
left out.
"""
import argparse
import concurrent.futures
import csv
import os
import re
import subprocess
import sys
import tempfile

import course

ENTRY = re.compile(r"Compiling entry function '(\S+)' for 'sm_(\d+)'")
USAGE = re.compile(r"Used (\d+) registers(?:.*?(\d+) bytes smem)?")
SPILLS = re.compile(r"(\d+) bytes spill stores")


def kernel_label(mangled):
    """multistep<6>, group_steps<13,5>, block_sort, ... from a mangled kernel name: the kernel
    and the numbers it takes as template arguments (a bool as 0 or 1). From v12 on the kernels
    take the word they sort as a template parameter: the 64-bit items' build (Word = unsigned
    long long, mangled y) keeps the plain label, the 32-bit words' (unsigned, j) is marked."""
    kernel = course.kernel_of(mangled) or mangled
    arguments = re.search(re.escape(kernel) + r"I[jy]?((?:L[jb]\d+E)+)", mangled)
    numbers = re.findall(r"L[jb](\d+)E", arguments.group(1)) if arguments else []
    label = f"{kernel}<{','.join(numbers)}>" if numbers else kernel
    return label + (" (32-bit words)" if re.search(re.escape(kernel) + "Ij", mangled) else "")


def stage_kernels(nvcc, name, arch):
    """[(kernel, registers, spilled bytes, shared bytes)] of the kernels of a stage, or of a
    variant (its stage's files as variants.txt edits them), in the compiler's order."""
    common = os.path.join(course.ROOT, "common")
    variant = course.variants().get(name)
    folder = os.path.join(course.ROOT, variant.stage if variant else name)
    files = {file: open(os.path.join(folder, file)).read()
             for file in ("bitonic_index.h", "bitonic_sort.cu")}
    with tempfile.TemporaryDirectory() as scratch:
        for file, text in (variant.edited(files) if variant else files).items():
            with open(os.path.join(scratch, file), "w") as out:
                out.write(text)
        command = [nvcc, "-O3", "-std=c++17", f"-arch=sm_{arch}", "-Xptxas", "-v", "-I", common,
                   "-I", scratch, "-c", os.path.join(scratch, "bitonic_sort.cu"), "-o",
                   os.path.join(scratch, "kernels.o")]
        result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{result.stderr[-3000:]}")
    found, kernel, spilled = [], None, 0
    for line in result.stderr.splitlines():
        entry = ENTRY.search(line)
        if entry:
            kernel, spilled = kernel_label(entry.group(1)), 0
            continue
        spills = SPILLS.search(line)
        if kernel and spills:
            spilled = int(spills.group(1))
        usage = USAGE.search(line)
        if kernel and usage:
            found.append((kernel, int(usage.group(1)), spilled, int(usage.group(2) or 0)))
            kernel = None
    return found


def kernels_of(nvcc, names, arch):
    """[stage_kernels of each of `names`], one nvcc per stage, as many at once as there are
    cores (in turn they take minutes), in the order of `names`."""
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return list(pool.map(lambda name: stage_kernels(nvcc, name, arch), names))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="90", help="compute capability without the dot")
    parser.add_argument("--csv", required=True, help="where to write the records")
    parser.add_argument("--stages", help="comma-separated stages or variants (default: all)")
    parser.add_argument("--replace-in", help="with --stages: the recorded CSV whose rows of "
                        "those stages the new ones replace")
    arguments = parser.parse_args()
    if course.arguments_only():
        return
    nvcc = course.find_tool("nvcc")
    version = re.search(r"release (\S+),", subprocess.run(
        [nvcc, "--version"], capture_output=True, text=True).stdout)
    records = []
    names = course.stage_names() + list(course.variants())
    chosen = arguments.stages.split(",") if arguments.stages else names
    unknown = set(chosen) - set(names)
    if unknown:
        parser.error(f"--stages: no stage or variant named {', '.join(sorted(unknown))}")
    for stage, kernels in zip(chosen, kernels_of(nvcc, chosen, arguments.arch)):
        for kernel, registers, spilled, shared in kernels:
            records.append({"stage": stage, "kernel": kernel, "registers": registers,
                            "spill_bytes": spilled, "shared_bytes": shared,
                            "arch": f"sm_{arguments.arch}",
                            "nvcc": version.group(1) if version else "unknown",
                            "date": course.today()})
            print(f"{stage:18} {kernel:14} {registers:4} registers {spilled:5} bytes spilled "
                  f"{shared:6} bytes shared")
    if arguments.replace_in:
        with open(arguments.replace_in, newline="") as file:
            records = replaced(list(csv.DictReader(file)), records, names)
    course.write_csv(arguments.csv, records)


def replaced(recorded, records, names):
    """The recorded rows with those of each stage in `records` replaced by its new ones, placed
    after the rows of the stages before it in `names` (where its old ones stood, in a record
    kept in that order), on the recorded file's columns; rows of a stage that is no longer in
    `names` are left out."""
    columns = list(recorded[0] if recorded else records[0])
    fresh = {}
    for record in records:
        fresh.setdefault(record["stage"], []).append(record)
    rows = [row for row in recorded if row["stage"] in names and row["stage"] not in fresh]
    for stage, new in fresh.items():
        before = names[:names.index(stage)]
        at = max((i + 1 for i, row in enumerate(rows) if row["stage"] in before), default=0)
        rows[at:at] = [{column: record[column] for column in columns} for record in new]
    return rows


if __name__ == "__main__":
    main()
