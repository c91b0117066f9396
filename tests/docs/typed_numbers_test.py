#!/usr/bin/env python3
"""docs suite: no measured figure is typed into the course's prose by hand.

Usage: typed_numbers_test.py SOURCE_ROOT

In README.md, docs/*.md and docs/notes/*.md it looks, outside the generated blocks and values (which
docs/generate.py writes from the recorded CSVs) and outside code blocks, for a number with a
unit of measurement: ms, us, GB/s, TB/s, %, a ratio written Nx, or copies. Each such figure must
be generated, or be on ALLOWED below with its source. Predictions are stated before anything is
measured and are left alone: the "## Prediction" sections. A product such as "3 x 2^19" is not
a ratio. Every figure found is printed with its file and line; any that is not allowed fails.
A generated value in the prose (v:KIND:ARGS) that reads "not measured" fails too: it names a run
that the record does not hold (a renamed variant, say), and the sentence around it would state
nothing. The one exception is a value whose record lacks the runs it reads, which says so
("not measured (record h200: no current runs of spread)"): docs/generate.py lists those runs as
a record still to be made (tools/record.py), not as a mistake in the text, as long as the runs
it names are of an experiment tools/record.py records.
"""
import glob
import os
import re
import sys

root = sys.argv[1]
# A figure typed on purpose -> where it comes from.
ALLOWED = {
    "3.35 TB/s": "the H100 SXM5 80GB's HBM3 bandwidth, NVIDIA H100 datasheet",
    "4.8 TB/s": "the H200's HBM3e bandwidth, NVIDIA H200 datasheet",
    "100%": "the whole of a share, not a measurement",
    "15x": "NVIDIA/cccl issue 883: packed keys against DeviceSegmentedSort, in that issue's case",
    "450 GB/s": "NVLink 4 on the H200, a direction: NVIDIA H200 datasheet (900 GB/s both ways)",
    "16.7 ms": "RMG sort (Ilic, Tolovski, Rabl, BTW 2023): its key swap on 8 A100s, as it reports",
    "1.9x": "Tanasic et al. (2013): their merge sort on 2 GPUs, as they report",
    "20x": "NVIDIA/cccl issue 6173: sm_90 on the sm_86 tuning of DeviceSegmentedSort, a user's case",
    "0.68 ms": "an aim, not a measurement: the course's target for its keys on many arrays of 1024 "
               "keys on an H200 (2^27 keys in all), which the lab note short_arrays checks",
    "0.95 ms": "an aim, not a measurement: the same target for arrays of 4096 keys",
}
FIGURE = re.compile(r"(?<![\w.^/-])(\d+(?:\.\d+)?)\s*(ms|us|µs|GB/s|TB/s|%|x|copies)(?![\w/])")
# Generated text; a claim's (c:) sentence is typed, and read as prose.
GENERATED = re.compile(r"<!-- BEGIN GENERATED ((?!c:)[^\n>]+?) -->.*?<!-- END GENERATED \1 -->",
                       re.S)


def typed_figures(path):
    """(line number, figure, line) of every figure outside generated text, code and predictions."""
    text = GENERATED.sub(lambda match: "\n" * match.group(0).count("\n"), open(path).read())
    found, fence, section = [], False, ""
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("```"):
            fence = not fence
            continue
        if line.startswith("#"):
            section = line
        if fence or section.startswith("## Prediction"):
            continue
        for match in FIGURE.finditer(line):
            rest = line[match.end():].lstrip()
            if match.group(2) == "x" and rest[:1].isdigit():
                continue  # a product, "3 x 2^19"
            found.append((number, match.group(0), line.strip()))
    return found


INLINE = re.compile(r"<!-- BEGIN GENERATED (v:[^\n>]+?) -->(.*?)<!-- END GENERATED \1 -->", re.S)
# "... of spread, kernel_times from profile-27": the experiments, one chunk of one named, or
# "... of spread for these stages".
RECORD_GAP = re.compile(r"not measured \(record \w+: no current runs of ([\w, -]+)\)$")
sys.path.insert(0, os.path.join(root, "tools"))
import record  # noqa: E402
import records  # noqa: E402

# The experiments a record may hold: those tools/record.py records, and those of the records.
KNOWN_EXPERIMENTS = {name for chunk in record.CHUNKS for name in chunk.outputs} | {
    name for found in records.record_names() for name in records.Record(found).experiments()}

failures = 0
paths = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md"))) + \
    sorted(glob.glob(os.path.join(root, "docs", "notes", "*.md")))
for path in paths:
    for match in INLINE.finditer(open(path).read()):
        gap = RECORD_GAP.match(match.group(2))
        # "spread for these stages": a chunk of spread made before a stage was added.
        if gap and {part.split(" from ")[0].removesuffix(" for these stages")
                    for part in gap.group(1).split(", ")} - KNOWN_EXPERIMENTS:
            failures += 1
            print(f"FAIL {os.path.relpath(path, root)}: {match.group(1)} reads runs of "
                  f"{gap.group(1)}, which no record holds and tools/record.py does not record")
        elif "not measured" in match.group(2) and not gap:
            failures += 1
            print(f"FAIL {os.path.relpath(path, root)}: {match.group(1)} reads 'not measured'")
    for number, figure, line in typed_figures(path):
        allowed = figure in ALLOWED
        failures += not allowed
        print(("ok   " if allowed else "FAIL ") + f"{os.path.relpath(path, root)}:{number}: "
              f"{figure!r}" + (f" ({ALLOWED[figure]})" if allowed else f" typed by hand: {line}"))
print(f"{failures} typed figure(s) outside the generated values, or generated values that "
      "name no recorded run")
sys.exit(1 if failures else 0)
