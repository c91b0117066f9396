#!/usr/bin/env python3
"""cpu suite: the variants the experiments measure (tools/variants.txt) still fit their stages.
Each names a stage of stages.txt and a name no stage or tool has; each of its edits finds its
text exactly once in the stage's bitonic_index.h and bitonic_sort.cu as they are now and changes
it; make_variant.py writes the three sources, the edited ones as edited, the programs' files
including the edited header instead of the stage's; and a variants.txt edit that the files do not
hold, or hold twice, is refused with the variant's name; a "with NAME" line takes an earlier
variant's edits first, and one that names no such variant is refused. Where the
build has CUDA, one variant is built through Meson, as the experiments build them.

Usage: variants_test.py SOURCE_ROOT BUILD_FOLDER
"""
import os
import subprocess
import sys
import tempfile

root, build = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(root, "tools"))
import course  # noqa: E402

failures = []
stages = {stage.name: stage for stage in course.stages()}
found = course.variants()
taken = set(stages) | set(course.BASELINE_PROGRAMS) | set(course.LAB_SORTS)
for name, variant in found.items():
    if variant.stage not in stages:
        failures.append(f"{name}: stage {variant.stage} is not in stages.txt")
        continue
    if name in taken or not variant.edits:
        failures.append(f"{name}: a name already taken, or no edits")
    folder = os.path.join(root, variant.stage)
    files = {file: open(os.path.join(folder, file)).read()
             for file in ("bitonic_index.h", "bitonic_sort.cu")}
    try:
        edited = variant.edited(files)
    except ValueError as error:
        failures.append(str(error))
        continue
    if edited == files:
        failures.append(f"{name}: its edits change nothing")
    with tempfile.TemporaryDirectory() as scratch:
        outputs = [os.path.join(scratch, f"{name}{suffix}")
                   for suffix in (".cu", "_main.cpp", "_bitonic_index.h")]
        main = os.path.join(root, "common", "stage_main.cpp")
        result = subprocess.run([sys.executable, os.path.join(root, "tools", "make_variant.py"),
                                 name, os.path.join(folder, "bitonic_sort.cu"),
                                 os.path.join(folder, "bitonic_index.h"), main] + outputs,
                                capture_output=True, text=True)
        written = [open(path).read() if os.path.exists(path) else "" for path in outputs]
        include = f'#include "{name}_bitonic_index.h"\n'
        source = edited["bitonic_sort.cu"].replace('#include "bitonic_index.h"\n', include)
        if (result.returncode != 0 or written[2] != edited["bitonic_index.h"] or
                written[0] != source or
                any(include not in text or '"bitonic_index.h"' in text for text in written[:2])):
            failures.append(f"{name}: make_variant.py exit {result.returncode}, "
                            f"{result.stderr.strip()!r}")
    print(f"ok   {name}: {variant.stage}, {len(variant.edits)} edit(s)")

# An edit of text the files do not hold, or hold more than once between them, stops the variant,
# naming it.
v7_files = {file: open(os.path.join(root, "v7_register_tile", file)).read()
            for file in ("bitonic_index.h", "bitonic_sort.cu")}
for old, times in (("constexpr unsigned kTileSize = 8193;", "0 times"),
                   ("#include ", f"{sum(t.count('#include ') for t in v7_files.values())} times")):
    broken = course.Variant("broken", "v7_register_tile", "a typo")
    broken.edits.append((old, "constexpr unsigned kTileSize = 1;"))
    try:
        broken.edited(v7_files)
        failures.append(f"an edit of {old!r}, held {times}, was accepted")
    except ValueError as error:
        if "broken" not in str(error) or times not in str(error):
            failures.append(f"the refusal does not say what was wrong: {error}")

# "with NAME" puts the edits of an earlier variant of the same stage first; a name that is not
# such a variant stops the list, naming the line.
with tempfile.TemporaryDirectory() as scratch:
    listed = os.path.join(scratch, "variants.txt")
    base = "a | v7_register_tile | one\n    x => y\n"
    for text, fine in ((base + "b | v7_register_tile | both\n    with a\n    z => w\n", True),
                       (base + "b | v7_register_tile | both\n    with c\n", False),
                       (base + "b | v6_multistep | both\n    with a\n", False)):
        with open(listed, "w") as file:
            file.write(text)
        try:
            edits = course.variants(listed)["b"].edits
            if not fine or edits != [("x", "y"), ("z", "w")]:
                failures.append(f"{text!r} gave b the edits {edits}")
        except ValueError as error:
            if fine or "variants.txt:" not in str(error):
                failures.append(f"{text!r}: {error}")

if os.path.exists(os.path.join(build, "tools", "baselines")):
    name = "v7_unpadded"
    program = os.path.join(build, "tools", name)
    result = subprocess.run(["meson", "compile", "-C", build, name], capture_output=True,
                            text=True, timeout=900)
    if result.returncode != 0 or not os.access(program, os.X_OK):
        failures.append(f"meson compile {name}: exit {result.returncode}\n{result.stdout[-2000:]}")
    else:
        # Without a GPU it must get as far as looking for one: its command line is the stage's.
        hidden = dict(os.environ, CUDA_VISIBLE_DEVICES="")
        ran = subprocess.run([program, "--log2", "10"], capture_output=True, text=True,
                             env=hidden, timeout=120)
        if ran.returncode not in (0, 3):
            failures.append(f"{name} --log2 10: exit {ran.returncode}, {ran.stderr.strip()!r}")
        print(f"ok   {name} built through Meson")
for failure in failures:
    print("FAIL", failure)
print(f"{len(found)} variants, {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
