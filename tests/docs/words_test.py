#!/usr/bin/env python3
"""docs suite: the course cites its sources by their public names, never by internal words.

Usage: words_test.py SOURCE_ROOT

The documents this course was written from are cited by their authors and titles (README.md,
"References"). The nickname they had while the course was written, an ordinal or article
followed by WORD below ("the first ..."), its possessive, or WORD followed by document, paper,
report or program, means nothing to a reader and must not appear in the code, the tests, the
tools or the text; nor may a remark on the authors' remote working SESSION. The --seed option
and a random generator's seed are fine: they are what the word means to a reader.
"""
import os
import re
import sys

WORD = "seed"
SESSION = "session"
INTERNAL = re.compile(rf"\b(first|second|third|fourth|fifth|the|these|those|our) {WORD}s?\b|"
                      rf"\b{WORD}s'|\b{WORD} (document|paper|report|program)s?\b|"
                      rf"\bremote (GPU )?{SESSION}", re.I)
SKIP_FOLDERS = {".git", ".deps", "__pycache__", "results", "figures"}
TEXT = (".md", ".cu", ".h", ".cpp", ".py", ".build", ".txt", ".format", "run", "gpu-run")

# The pattern itself: it must catch the internal uses and leave the generator's seed alone.
for sample, internal in ((f"as the second {WORD} shows", True), (f"the {WORD}s' form", True),
                         (f"one {WORD} document", True), (f"a remote GPU {SESSION}", True),
                         (f"--{WORD} 7", False), (f"generator {WORD} 1", False),
                         (f"options.{WORD}", False)):
    if bool(INTERNAL.search(sample)) != internal:
        sys.exit(f"words_test.py: the pattern gets {sample!r} wrong")

root = os.path.abspath(sys.argv[1])
found = []
for folder, folders, names in os.walk(root):
    folders[:] = [f for f in folders if f not in SKIP_FOLDERS and not f.startswith("build")]
    for name in names:
        if not name.endswith(TEXT):
            continue
        path = os.path.join(folder, name)
        for number, line in enumerate(open(path, errors="replace"), start=1):
            if INTERNAL.search(line):
                found.append(f"{os.path.relpath(path, root)}:{number}: {line.strip()}")
for line in found:
    print("internal word:", line)
print(f"{len(found)} internal word(s)")
sys.exit(1 if found else 0)
