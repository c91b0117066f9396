#!/usr/bin/env python3
"""docs suite: the course cites its sources by their public names, never by internal words.

Usage: words_test.py SOURCE_ROOT

The documents this course was written from are cited by their authors and titles (README.md,
"References"). Words a reader cannot know must not appear in the code, the tests, the tools or
the text: "the first seed", "the second seed", "the seeds' form", a "seed document", or a
remote session of the people who wrote it. The --seed option and a generator's seed are fine.
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
INTERNAL = re.compile(r"\b(first|second|third|fourth|fifth|the|these|those|our) seeds?\b|"
                      r"\bseeds'|\bseed (document|paper|report|program)s?\b|remote (GPU )?session",
                      re.I)
SKIP_FOLDERS = {".git", ".deps", "__pycache__", "results", "figures"}
TEXT = (".md", ".cu", ".h", ".cpp", ".py", ".build", ".txt", ".format", "run", "gpu-run")

found = []
for folder, folders, names in os.walk(root):
    folders[:] = [f for f in folders if f not in SKIP_FOLDERS and not f.startswith("build")]
    for name in names:
        if not name.endswith(TEXT):
            continue
        path = os.path.join(folder, name)
        for number, line in enumerate(open(path, errors="replace"), start=1):
            if INTERNAL.search(line) and "INTERNAL = re.compile" not in line:
                found.append(f"{os.path.relpath(path, root)}:{number}: {line.strip()}")
# This file names the words it looks for; its own lines are the patterns, not uses.
found = [line for line in found if not line.startswith("tests/words_test.py")]
for line in found:
    print("internal word:", line)
print(f"{len(found)} internal word(s)")
sys.exit(1 if found else 0)
