#!/usr/bin/env python3
"""proof suite (where nvcc is; minutes on two cores): tools/registers.py records what the
compiler reports.

Usage: registers_test.py SOURCE_ROOT

Runs the tool for sm_90 into a scratch CSV and checks what the chapters read from such a file:
one record per kernel of every stage, multistep once per number of steps (1 .. 6) in every
stage that has it, more registers for more keys per thread, and a build for 32-bit words with
fewer registers in every stage whose kernels take the word as a template parameter; every
variant of tools/variants.txt recorded under its own name; spilled bytes a count, 0 where the
registers suffice (v6's multistep<6>), and above 0 where they do not (v13_group15's merge below
a group, 64 registers a thread for 32 keys, whose spill chapter 15 cites); and
tools/measure_banks.py, which reads the same records, picks the stages with a shared-memory
tile: v2_shared and every stage after it; a kernel's label names its template arguments,
bools too; and --replace-in puts new rows in the place of a stage's old ones. Needs no GPU.
"""
import csv
import os
import subprocess
import sys
import tempfile

root = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(root, "tools"))
import course  # noqa: E402

with tempfile.TemporaryDirectory() as scratch:
    path = os.path.join(scratch, "registers.csv")
    result = subprocess.run([sys.executable, os.path.join(root, "tools", "registers.py"),
                             "--arch", "90", "--csv", path], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"registers.py failed:\n{result.stdout}\n{result.stderr}")
    rows = list(csv.DictReader(open(path)))


def instances(kernels, name):
    """The records of kernel `name` among `kernels`, items' builds: the kernel itself, or each of
    its template instances (v24's block_sort<0> and block_sort<1>)."""
    return [kernel for kernel in kernels
            if "(" not in kernel and (kernel == name or kernel.startswith(name + "<"))]


failures = []
for stage in course.stage_names():
    kernels = {row["kernel"]: int(row["registers"]) for row in rows if row["stage"] == stage}
    source = open(os.path.join(root, stage, "bitonic_sort.cu")).read()
    expected = [name for name in ("bitonic_step", "block_sort", "block_merge")
                if f"void {name}(" in source or f"    {name}(" in source]
    for name in expected:
        if not instances(kernels, name):
            failures.append(f"{stage}: no record of {name}")
    # group_steps (v13_any_bits on) is compiled once per pair of layout arguments.
    if "    group_steps(" in source and not any(name.startswith("group_steps<") for name in kernels):
        failures.append(f"{stage}: no record of group_steps<...>")
    if "__global__ void multistep(" in source:
        counts = [kernels.get(f"multistep<{steps}>") for steps in range(1, 7)]
        if None in counts:
            failures.append(f"{stage}: multistep<1..6> not all recorded: {counts}")
        elif counts != sorted(counts) or counts[-1] <= counts[0]:
            failures.append(f"{stage}: more keys per thread should not take fewer registers: "
                            f"{counts}")
    # A stage whose kernels take the word they sort as a template parameter (v12_key_words on) is
    # built for 32-bit words too, each with fewer registers than its 64-bit items: every one of
    # these kernels that it has, and block_sort always (each instance where it is a template).
    if "template <typename Word" in source:
        names = (instances(kernels, "block_sort") or ["block_sort"]) + [
            "block_merge"] + [f"multistep<{k}>" for k in (3, 6)] + [
            name for name in kernels if name.startswith("group_steps<") and "(" not in name]
        for name in [name for name in names if name in kernels or name == "block_sort"]:
            words = kernels.get(f"{name} (32-bit words)")
            if words is None or name not in kernels or words >= kernels[name]:
                failures.append(f"{stage}: {name} for 32-bit words: {words} registers, "
                                f"against {kernels.get(name)} for items")
    print(stage, kernels)
for name in course.variants():
    if not any(row["stage"] == name for row in rows):
        failures.append(f"variant {name}: no record")
for row in rows:
    if not row["spill_bytes"].isdigit():
        failures.append(f"{row['stage']} {row['kernel']}: spill_bytes {row['spill_bytes']!r}")
if not any(row["stage"] == "v6_multistep" and row["kernel"] == "multistep<6>" and
           row["spill_bytes"] == "0" for row in rows):
    failures.append("v6_multistep multistep<6>: no record with 0 bytes spilled")
if not any(row["stage"] == "v13_group15" and row["kernel"] == "group_steps<14,0> (32-bit words)"
           and row["spill_bytes"].isdigit() and int(row["spill_bytes"]) > 0 for row in rows):
    failures.append("v13_group15 group_steps<14,0> (32-bit words): no record of its spill")
# measure_banks.py profiles the stages whose kernels reserve shared memory (sm_75's build).
import measure_banks  # noqa: E402
names = course.stage_names()
expected = names[names.index("v2_shared"):] if "v2_shared" in names else []
picked = measure_banks.shared_memory_stages(course.find_tool("nvcc"))
if picked != expected:
    failures.append(f"measure_banks.shared_memory_stages: {picked}, expected {expected}")
# A kernel's label names its template arguments, a bool as 0 or 1, so that v13_span's two
# kernels of one first bit, with a head and without, keep two records.
import registers  # noqa: E402
for mangled, label in (
        ("_ZN8_GLOBAL_11group_stepsIjLj6ELj0ELb1EEEvPiS1_jjjjjbb",
         "group_steps<6,0,1> (32-bit words)"),
        ("_ZN8_GLOBAL_11group_stepsIyLj13ELj5ELb0EEEvPiS1_jjjjjbb", "group_steps<13,5,0>")):
    if registers.kernel_label(mangled) != label:
        failures.append(f"{mangled} labelled {registers.kernel_label(mangled)}, not {label}")
# --replace-in: a stage's new rows take the place of its old ones, on the recorded columns; a
# stage without rows goes after the stages before it; a stage no longer listed is left out.
recorded = [{"stage": stage, "kernel": "k", "registers": "1"} for stage in ("a", "b", "gone", "d")]
new = [{"stage": stage, "kernel": "new", "registers": "2", "date": "today"} for stage in "bc"]
got = [(row["stage"], row["kernel"], sorted(row)) for row in
       registers.replaced(recorded, new, ["a", "b", "c", "d"])]
columns = ["kernel", "registers", "stage"]
if got != [("a", "k", columns), ("b", "new", columns), ("c", "new", columns),
           ("d", "k", columns)]:
    failures.append(f"registers.replaced: {got}")

for failure in failures:
    print("FAIL", failure)
sys.exit(1 if failures else 0)
