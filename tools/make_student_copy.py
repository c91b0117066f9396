#!/usr/bin/env python3
"""Makes the copy of the course to hand out to students: no answers in it.

    python3 tools/make_student_copy.py DEST

DEST (which must not exist yet) gets the course's working tree without `instructor/` (the
reference answers and the tests that use them), without git's history (where those answers
would stay), without the files git does not track (a stage added to grade a student's work,
notes: named in one line), and without the variants of tools/variants.txt that answer an exercise
(course.ANSWER_VARIANTS: v8_mirrored and v9_mirrored, exercise 9). Of those variants the copy
keeps only fingerprints, in tools/withheld.json, so that the records that measured them still
count as current there (tools/records.py) and `meson test` passes in the copy as it does here;
tests/exercises/student_stage_test.py proves it, and that no answer is left. The lab of the copy
cannot measure the withheld variants again (their chunks of tools/record.py fail there).

Exit codes: 0 done, 2 bad command line (DEST exists, or is missing).
"""
import argparse
import json
import os
import subprocess
import sys

import course
import records


def without_variants(text, names):
    """The text of tools/variants.txt without the entries of `names`: each one's line and the
    indented lines under it."""
    kept, dropping = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith(" ") and line.strip():
            if not dropping:
                kept.append(line)
            continue
        fields = [field.strip() for field in line.split("|")]
        dropping = len(fields) == 3 and not line.startswith("#") and fields[0] in names
        if not dropping:
            kept.append(line)
    return "".join(kept)


def withheld(names):
    """What tools/withheld.json keeps of the variants `names`, from this tree's sources."""
    sources = records.Sources()
    variants = sources.variants()
    stages = sorted({variants[name].stage for name in names})
    # The stage's other variants, as the copy will list them.
    shown = records.Sources()
    shown.cache["variants"] = {name: variant for name, variant in variants.items()
                               if name not in names}
    return {
        "variants": {name: {"stage": variants[name].stage,
                            "fingerprint": records.fingerprint(name, sources)}
                     for name in names},
        "stages": {stage: {"fingerprint": records.fingerprint(stage, sources),
                           "with_variants": records.fingerprint(stage, sources, True),
                           "visible_edits": records.visible_edits(shown, stage)}
                   for stage in stages},
    }


def untracked():
    """The files of the working tree that git does not track and does not ignore (an
    instructor's own stages and notes), relative to the tree; none outside a git checkout."""
    result = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-z"],
                            cwd=course.ROOT, capture_output=True, text=True)
    return [path for path in result.stdout.split("\0") if path] if result.returncode == 0 else []


def remove_from_copy(destination, paths):
    """Removes `paths` (relative) from the copy at `destination`, with each folder that held
    them alone; returns those it found there."""
    removed = []
    for path in paths:
        target = os.path.join(destination, path)
        if not os.path.lexists(target):
            continue  # not copied (a build folder's, a cache's)
        os.remove(target)
        removed.append(path)
        folder = os.path.dirname(target)
        while folder != destination and not os.listdir(folder):
            os.rmdir(folder)
            folder = os.path.dirname(folder)
    return removed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("destination", metavar="DEST", help="the folder to make (must not exist)")
    arguments = parser.parse_args()
    if course.arguments_only():
        return
    destination = os.path.abspath(arguments.destination)
    if os.path.exists(destination):
        parser.error(f"{arguments.destination} exists already: name a new folder")
    names = sorted(course.ANSWER_VARIANTS)
    kept = withheld(names)
    course.copy_course(destination, leave_out=("instructor",))
    left_out = remove_from_copy(destination, untracked())
    if left_out:
        print(f"left out, as git does not track them: {', '.join(sorted(left_out))}")
    path = os.path.join(destination, "tools", "variants.txt")
    with open(path) as file:
        text = without_variants(file.read(), names)
    with open(path, "w") as file:
        file.write(text)
    with open(os.path.join(destination, records.WITHHELD), "w") as file:
        json.dump(kept, file, indent=1)
        file.write("\n")
    print(f"made {arguments.destination}: the course without instructor/, git's history and "
          f"the answer variants {', '.join(names)}")


if __name__ == "__main__":
    main()
