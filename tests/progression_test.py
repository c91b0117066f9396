#!/usr/bin/env python3
"""cpu suite: code a stage does not change stays byte-identical to the stage before it.

Usage: progression_test.py SOURCE_ROOT

For each pair of consecutive stages of the course (stages.txt, the stages with a chapter), every
top-level definition (function, kernel, constant) of bitonic_sort.cu and bitonic_index.h that
both stages have must be byte for byte the same, comment included, unless the later stage's
header names it in its "What changes from ..." section. So a fix made in one stage cannot
silently miss the next: either it is made in both, or the next stage says that it changes that
function. The stable paragraph "What this program does" must be the same in every stage.
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(root, "common", "tools"))
import course  # noqa: E402


def definitions(path):
    """{name: text} of the top-level definitions of a C++ file, each with the comment lines
    directly above it. A definition starts at a line in column 0 that is not a comment, a
    preprocessor line or a brace, and ends at the next line that is '}' or ends with ';' in
    column 0 (a constant)."""
    lines = open(path).read().splitlines()
    found = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        starts = line and not line[0].isspace() and not line.startswith(
            ("//", "#", "}", "namespace", "{"))
        if not starts:
            index += 1
            continue
        first = index
        while first > 0 and lines[first - 1].startswith("//"):
            first -= 1
        end = index
        if not line.rstrip().endswith(";"):
            while end < len(lines) and lines[end] != "}":
                end += 1
        text = "\n".join(lines[first:end + 1])
        head = " ".join(lines[index:end + 1])
        name = re.search(r"(\w+)\s*(\(|=|\[|;)", re.sub(r"__launch_bounds__\([^)]*\)", "", head))
        if name:
            found[name.group(1)] = text
        index = end + 1
    return found


def header_section(path, title):
    text = open(path).read()
    match = re.search(rf"// {title}.*?\n(.*?)\n//\n", text, re.S)
    return match.group(1) if match else ""


failures = []
stages = [stage.name for stage in course.stages() if stage.chapter]
stable = None
for stage in stages:
    paragraph = header_section(os.path.join(root, stage, "bitonic_sort.cu"), "What this program does")
    if not paragraph:
        failures.append(f"{stage}/bitonic_sort.cu: no 'What this program does' paragraph")
    elif stable is None:
        stable = paragraph
    elif paragraph != stable:
        failures.append(f"{stage}/bitonic_sort.cu: 'What this program does' differs from "
                        f"{stages[0]}'s; it is the same in every stage")

checked = 0
for previous, stage in zip(stages, stages[1:]):
    changes = header_section(os.path.join(root, stage, "bitonic_sort.cu"), "What changes from")
    if not changes:
        failures.append(f"{stage}/bitonic_sort.cu: no 'What changes from {previous}' section")
    for name in ("bitonic_sort.cu", "bitonic_index.h"):
        before = definitions(os.path.join(root, previous, name))
        after = definitions(os.path.join(root, stage, name))
        for definition in sorted(set(before) & set(after)):
            checked += 1
            if before[definition] != after[definition] and \
                    not re.search(rf"\b{definition}\b", changes):
                failures.append(f"{stage}/{name}: {definition} differs from {previous}'s, and the "
                                f"header's 'What changes' does not name it")

for failure in failures:
    print("FAIL", failure)
print(f"{len(stages)} stages, {checked} definitions compared with the stage before; "
      f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
