#!/usr/bin/env python3
"""cpu suite: code a stage does not change stays byte-identical to the stage before it, and what
it changes is an edit.

Usage: progression_test.py SOURCE_ROOT

For each pair of consecutive stages of the course (stages.txt, the stages with a chapter), every
top-level definition (function, kernel, constant) of bitonic_sort.cu and bitonic_index.h that
both stages have must be byte for byte the same, comment included, or be changed by an edit
that the later stage's header names in its "What changes from ..." section. So a fix made in one
stage cannot silently miss the next: either it is made in both, or the next stage says that it
changes that function. Naming a definition does not excuse rewriting it: a named change must
keep at least half of the definition's lines, unless the definition is short (a constant, a
few-line helper), or its old text lives on in a new definition (bitonic_sort becoming
bitonic_sort_segments), or it lies in a section the header declares replaced whole with the
words "section (FIRST to LAST) is replaced whole". Such a section must be contiguous, and
everything around it is held to the rules above; the chapter prints it as a listing. The stable
paragraph "What this program does" must be the same in every stage. (tests/stages/bounds_test.py caps
the size of each diff.)
"""
import difflib
import os
import re
import sys

root = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(root, "tools"))
import course  # noqa: E402


# A definition of at most this many lines may be rewritten by a named change: a constant or a
# few-line helper whose edit is most of it.
SHORT = 12


def kept_lines(old, new):
    """How many of the old text's lines the new text keeps, in order."""
    matcher = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks())


def is_edit(old, new, added):
    """Whether a named change of a definition (old text -> new text) is an edit: it keeps
    half of the old lines, or the definition is short, or its old text lives on in one of the
    definitions the stage adds ({name: text})."""
    lines = len(old.splitlines())
    if lines <= SHORT or 2 * kept_lines(old, new) >= lines:
        return True
    return any(2 * kept_lines(old, text) >= lines for text in added.values())


def check_pair(previous, stage, failures):
    """Compares the two stages' sources; appends what is wrong; returns the definitions
    compared."""
    changes = course.header_section(os.path.join(root, stage, "bitonic_sort.cu"),
                                    "What changes from")
    if not changes:
        failures.append(f"{stage}/bitonic_sort.cu: no 'What changes from {previous}' section")
    compared = 0
    for name in ("bitonic_sort.cu", "bitonic_index.h"):
        before = course.definitions(os.path.join(root, previous, name))
        after = course.definitions(os.path.join(root, stage, name))
        section = set()
        replaced = course.replaced_definitions(previous, stage) if name == "bitonic_sort.cu" \
            else None
        if replaced:
            old_section, new_section = replaced
            section = set(new_section)
            declared = course.replaced_section(stage)
            if not new_section:
                failures.append(f"{stage}/bitonic_sort.cu: the header declares the section "
                                f"({declared[0]} to {declared[1]}) replaced whole, but the file "
                                "has no such run of definitions")
            # The old definitions it replaces must be one run of the old file too.
            positions = [list(before).index(old) for old in old_section]
            if positions and positions != list(range(positions[0], positions[0] + len(positions))):
                failures.append(f"{stage}/bitonic_sort.cu: the definitions the section "
                                f"({declared[0]} to {declared[1]}) replaces are not one run of "
                                f"{previous}'s file")
        added = {key: text for key, text in after.items() if key not in before}
        for definition in sorted(set(before) & set(after)):
            compared += 1
            old, new = before[definition], after[definition]
            if old == new or definition in section:
                continue
            where = f"{stage}/{name}: {definition} differs from {previous}'s"
            if not re.search(rf"\b{definition}\b", changes):
                failures.append(f"{where}, and the header's 'What changes' does not name it")
            elif not is_edit(old, new, added):
                failures.append(f"{where} in more than half of its lines: a rewrite, not an "
                                "edit (declare its section replaced whole, or make it two "
                                "stages)")
    return compared


failures = []
stages = [stage.name for stage in course.stages() if stage.chapter]
stable = None
for stage in stages:
    paragraph = course.header_section(os.path.join(root, stage, "bitonic_sort.cu"),
                                      "What this program does")
    if not paragraph:
        failures.append(f"{stage}/bitonic_sort.cu: no 'What this program does' paragraph")
    elif stable is None:
        stable = paragraph
    elif paragraph != stable:
        failures.append(f"{stage}/bitonic_sort.cu: 'What this program does' differs from "
                        f"{stages[0]}'s; it is the same in every stage")

checked = sum(check_pair(previous.name, stage.name, failures) for previous, stage in
              course.stage_pairs([stage for stage in course.stages() if stage.chapter]))
for failure in failures:
    print("FAIL", failure)
print(f"{len(stages)} stages, {checked} definitions compared with the stage before; "
      f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
