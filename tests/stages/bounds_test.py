#!/usr/bin/env python3
"""cpu suite: every step of the course stays small enough to read as one idea.

Usage: bounds_test.py SOURCE_ROOT

For each pair of neighbouring stages of the course (stages.txt, the stages with a chapter), the
lines that differ, counted as `diff OLD NEW | grep -c '^[<>]'` counts them, are at most
MAX_SORT_LINES in bitonic_sort.cu and MAX_INDEX_LINES in bitonic_index.h; and every stage's
chapter is at most MAX_CHAPTER_LINES lines, not counting the diff from the previous stage that
docs/generate.py embeds in it: that diff is the code's, bounded by the two bounds above (a diff
at those bounds runs to some 500 lines with its context, so counting it would leave no room
for the chapter's own text). A stage that needs more is two stages. Chapter 28, the results,
is at most MAX_RESULTS_LINES lines besides its generated tables and figures. The figures of every pair
are printed, so the log shows how close each step is to its bound.
"""
import difflib
import os
import re
import shutil
import subprocess
import sys

MAX_SORT_LINES = 300
MAX_INDEX_LINES = 100
MAX_CHAPTER_LINES = 250
MAX_RESULTS_LINES = 300

root = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(root, "tools"))
import course  # noqa: E402


def changed_lines(old_path, new_path):
    """The lines `diff` marks with < or >: removed from the old file or added in the new one.
    Without a diff program, difflib's matching gives the same count for these files (it may
    count a few lines more where the match is ambiguous, never fewer)."""
    if shutil.which("diff"):
        result = subprocess.run(["diff", old_path, new_path], capture_output=True, text=True)
        return sum(1 for line in result.stdout.splitlines() if line[:1] in "<>")
    old = open(old_path).read().splitlines()
    new = open(new_path).read().splitlines()
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    kept = sum(block.size for block in matcher.get_matching_blocks())
    return len(old) + len(new) - 2 * kept


def own_lines(text):
    """The chapter's lines outside its generated diff block (diff-STAGE), or None when a diff
    block is left open (it would hide the rest of the chapter from the count)."""
    lines, inside = 0, False
    for line in text.splitlines():
        if line.startswith("<!-- BEGIN GENERATED diff-"):
            inside = True
        elif line.startswith("<!-- END GENERATED diff-"):
            inside = False
        elif not inside:
            lines += 1
    return None if inside else lines


failures = []
stages = [stage for stage in course.stages() if stage.chapter]
for previous, stage in course.stage_pairs(stages):
    figures = []
    for name, bound in (("bitonic_sort.cu", MAX_SORT_LINES), ("bitonic_index.h", MAX_INDEX_LINES)):
        count = changed_lines(os.path.join(root, previous.name, name),
                              os.path.join(root, stage.name, name))
        figures.append(f"{name} {count}/{bound}")
        if count > bound:
            failures.append(f"{previous.name} -> {stage.name}: {count} lines of {name} differ, "
                            f"more than {bound}: a rewrite, not one idea (make it two stages)")
    print(f"{previous.name} -> {stage.name}: " + ", ".join(figures))
for stage in stages:
    lines = own_lines(open(os.path.join(root, "docs", stage.chapter)).read())
    if lines is None:
        failures.append(f"docs/{stage.chapter}: a generated diff block has no END line")
        continue
    print(f"docs/{stage.chapter}: {lines}/{MAX_CHAPTER_LINES} lines besides the diff")
    if lines > MAX_CHAPTER_LINES:
        failures.append(f"docs/{stage.chapter} has {lines} lines besides its diff, more than "
                        f"{MAX_CHAPTER_LINES}")
# Chapter 28, the results, is read too, not looked up: at most MAX_RESULTS_LINES lines besides
# its generated tables and figures (inline values count as text); the long tables are notes.
results = open(os.path.join(root, "docs", "28_results.md")).read()
prose = re.sub(r"<!-- BEGIN GENERATED ((?!v:|c:)[^\n>]+?) -->.*?<!-- END GENERATED \1 -->", "",
               results, flags=re.S)
lines = len(prose.splitlines())
print(f"docs/28_results.md: {lines}/{MAX_RESULTS_LINES} lines besides its generated tables")
if lines > MAX_RESULTS_LINES:
    failures.append(f"docs/28_results.md has {lines} lines besides its generated tables, more "
                    f"than {MAX_RESULTS_LINES}")
for failure in failures:
    print("FAIL", failure)
sys.exit(1 if failures else 0)
