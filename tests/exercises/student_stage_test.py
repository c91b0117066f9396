#!/usr/bin/env python3
"""proof suite: the steps of docs/29_exercises.md for adding a stage give a green `meson test`.

Usage: student_stage_test.py SOURCE_ROOT

In the copy of the course a student gets (tools/make_student_copy.py: no instructor/, no git
history, no answer variant, which it checks) it does exactly what the chapter's section "Adding
your own stage" says, read from the chapter itself: the shell commands of its ```sh blocks in
order, and the entry of its ```stages.txt block appended to stages.txt, after the README's
quick-start setup (`meson setup build`). The chapter's `meson test -C build` must then pass as
a whole, with tests of the new stage among them. The copy is the course as it ships: the stages a
reader added (the entries of stages.txt without a chapter, the chapter's own stage name among
them) are taken out of it first, so the steps work whatever the reader's tree already holds.
Inside that copy this test reports SKIP, so that it does not copy the tree again. It takes
minutes, so it is in the proof suite, which `meson test -C build` leaves out and CI runs
(`meson test -C build --suite proof`). Then it appends a line to the new stage's
bitonic_index.h and checks that `meson compile -C build STAGE` compiles its kernels again, and
defines bitonic_sort_segments (and its launch plan) and checks that its program then takes
--segment (README, "Writing your own stage").
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[1]), "tools"))
import course  # noqa: E402

if os.environ.get("STUDENT_STAGE_COPY"):
    print("SKIP: already inside the student-stage copy of the tree")
    sys.exit(77)

root = os.path.abspath(sys.argv[1])
chapter = open(os.path.join(root, "docs", "29_exercises.md")).read()
section = re.search(r"## Adding your own stage\n(.*?)\n## ", chapter, re.S).group(1)
blocks = re.findall(r"```(\S*)\n(.*?)```", section, re.S)
stage_lines = [body for kind, body in blocks if kind == "stages.txt"]
if len(stage_lines) != 1:
    sys.exit("the chapter's section must hold exactly one ```stages.txt block")
stage = stage_lines[0].split("|")[0].strip()
# The entry's test lines are those of the stage the section copies, as the text says.
copied = re.search(r"cp -r (\w+) ", section).group(1)
listed = next(entry for entry in course.stages() if entry.name == copied)
if stage_lines[0].splitlines()[1:] != listed.entry().splitlines()[1:]:
    sys.exit(f"the chapter's stages.txt block does not copy the test lines of {copied}'s entry:\n"
             f"{listed.entry()}")
environment = dict(os.environ, STUDENT_STAGE_COPY="1")


def pristine(tree):
    """Takes the reader's own stages out of the copy: every stages.txt entry without a chapter
    (and the chapter's stage, whatever its entry says), with its folder."""
    path = os.path.join(tree, "stages.txt")
    kept = []
    dropping = False
    for line in open(path).read().splitlines(keepends=True):
        fields = [field.strip() for field in line.split("|")]
        if line.startswith(" ") and dropping:
            continue
        dropping = line.strip() != "" and not line.startswith(("#", " ")) and len(fields) == 3 \
            and (fields[1] == "-" or fields[0] == stage)
        if dropping:
            shutil.rmtree(os.path.join(tree, fields[0]), ignore_errors=True)
            print(f"left out of the copy: {fields[0]}", flush=True)
            continue
        kept.append(line)
    with open(path, "w") as file:
        file.write("".join(kept))
    shutil.rmtree(os.path.join(tree, stage), ignore_errors=True)


# The sort of many arrays that a stage without one can add: in its bitonic_sort.cu, each array
# sorted alone, one after another (every launch goes to the same stream, in order); in its
# bitonic_index.h, the plan of those launches, which --trace-launches prints.
SEGMENTS_BY_LOOP = {"bitonic_sort.cu": """
void bitonic_sort_segments(int *keys, unsigned n, unsigned segment, bool ascending) {
  for (unsigned first = 0; first < n; first += segment) {
    bitonic_sort(keys + first, segment, ascending);
  }
}
""", "bitonic_index.h": """
template <typename LaunchFunction>
void for_each_launch(unsigned n, unsigned segment, LaunchFunction launch) {
  for (unsigned first = 0; first < n; first += segment) {
    for_each_launch(segment, launch);
  }
}
inline unsigned long long launches_per_segment_sort(unsigned n, unsigned segment) {
  return n / segment * launches_per_sort(segment);
}
"""}


def run(command, folder):
    print("$", command, flush=True)
    result = subprocess.run(shlex.split(command), cwd=folder, capture_output=True, text=True,
                            env=environment)
    print(result.stdout[-4000:], result.stderr[-3000:], flush=True)
    return result


def leaks(tree, lines, skip=()):
    """'path: line' for each of `lines` found in a file of `tree` (but the files `skip`)."""
    found = []
    for folder, folders, files in os.walk(tree):
        folders[:] = [name for name in folders if not name.startswith(("build", ".git"))]
        for name in files:
            path = os.path.join(folder, name)
            if os.path.relpath(path, tree) in skip:
                continue
            try:
                text = open(path).read()
            except (UnicodeDecodeError, OSError):
                continue
            found += [f"{os.path.relpath(path, tree)}: {line}" for line in lines if line in text]
    return found


def answer_lines():
    """The lines of code the answer variants (course.ANSWER_VARIANTS) add that the course holds
    nowhere but in their entries of tools/variants.txt and in instructor/: none may be in a
    copy for students."""
    variants = course.variants()
    added = {line.strip() for name in course.ANSWER_VARIANTS
             for _, new in variants[name].edits for line in new.splitlines()
             if len(line.strip()) > 20}
    elsewhere = {found.split(": ", 1)[1] for found in leaks(root, added, (
        os.path.join("tools", "variants.txt"),)) if not found.startswith("instructor")}
    others = " ".join(old + new for name, variant in variants.items()
                      if name not in course.ANSWER_VARIANTS for old, new in variant.edits)
    return {line for line in added - elsewhere if line not in others}


with tempfile.TemporaryDirectory() as temporary:
    # The copy a student gets (tools/make_student_copy.py), with no answer in it.
    tree = os.path.join(temporary, "course")
    result = subprocess.run([sys.executable, os.path.join(root, "tools", "make_student_copy.py"),
                             tree], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"make_student_copy.py failed:\n{result.stdout}{result.stderr}")
    print(result.stdout.strip(), flush=True)
    lines = answer_lines()
    found = leaks(tree, lines)
    left = [name for name in ("instructor", ".git") if os.path.exists(os.path.join(tree, name))]
    withheld = set(course.ANSWER_VARIANTS) & set(course.variants(
        os.path.join(tree, "tools", "variants.txt")))
    if not lines or found or left or withheld:
        sys.exit(f"the copy for students holds answers: {left} {sorted(withheld)} {found[:5]}"
                 if lines else "no answer lines to look for")
    print(f"the copy has no instructor/, no .git, no answer variant, and none of the "
          f"{len(lines)} lines the answer variants add", flush=True)
    pristine(tree)
    if run("meson setup build", tree).returncode != 0:
        sys.exit("meson setup build failed in the copy")
    for kind, body in blocks:
        if kind == "stages.txt":
            with open(os.path.join(tree, "stages.txt"), "a") as file:
                file.write(body)
            print("appended to stages.txt:", body.strip(), flush=True)
            continue
        if kind != "sh":
            continue
        for command in body.strip().splitlines():
            if command.strip().startswith("#"):
                continue
            result = run(command, tree)
            if result.returncode != 0:
                sys.exit(f"the chapter's step '{command}' failed in the copy")
    log = open(os.path.join(tree, "build", "meson-logs", "testlog.txt")).read()
    ran = sorted(set(re.findall(rf"\b\w+_{re.escape(stage)}\b", log)))
    print(f"tests of {stage} in the run: {', '.join(ran)}")
    if f"index_{stage}" not in ran:
        sys.exit(f"the run had no tests of {stage}")
    print(f"{stage}: the chapter's steps gave a green meson test, {len(ran)} tests of the new "
          "stage among them")
    # An edit of the new stage's bitonic_index.h rebuilds its kernels, as exercises 1, 4 and 8
    # need (before Meson 1.4, through the depfile flags the top-level meson.build adds).
    objects = glob.glob(os.path.join(tree, "build", stage, "*_kernels.a.p", "bitonic_sort.cu.o"))
    if not objects:
        print(f"no kernels of {stage} were built (no CUDA compiler): the header edit is not tried")
        sys.exit(0)
    before = os.stat(objects[0]).st_mtime_ns
    with open(os.path.join(tree, stage, "bitonic_index.h"), "a") as file:
        file.write("// an edit of the header alone\n")
    if run(f"meson compile -C build {stage}", tree).returncode != 0:
        sys.exit(f"meson compile -C build {stage} failed after the header edit")
    if os.stat(objects[0]).st_mtime_ns == before:
        sys.exit(f"editing {stage}/bitonic_index.h did not rebuild {stage}'s kernels "
                 f"({os.path.relpath(objects[0], tree)})")
    print(f"editing {stage}/bitonic_index.h rebuilt its kernels")
    # A capability is an edit of the stage's own folder (README, "Writing your own stage"):
    # defining bitonic_sort_segments, here as a loop of whole-array sorts, gives the program
    # --segment L, through the one main() every stage shares.
    program = os.path.join(tree, "build", stage, stage)
    if "--segment" in run(f"{program} --help", tree).stdout:
        sys.exit(f"{stage} takes --segment before it defines bitonic_sort_segments")
    for name, code in SEGMENTS_BY_LOOP.items():
        with open(os.path.join(tree, stage, name), "a") as file:
            file.write(code)
    if run(f"meson compile -C build {stage}", tree).returncode != 0:
        sys.exit(f"meson compile -C build {stage} failed after defining bitonic_sort_segments")
    if "--segment L" not in run(f"{program} --help", tree).stdout:
        sys.exit(f"{stage} defines bitonic_sort_segments, but its program does not take --segment")
    traced = run(f"{program} --trace-launches --log2 12 --segment 1024", tree).stdout
    # Its comment line gives the plan's count, and as many launches follow it (after the header).
    planned = re.search(r"^# launches_per_segment_sort\(4096, 1024\) = (\d+)$", traced, re.M)
    rows = [line for line in traced.splitlines()[2:] if line and not line.startswith("#")]
    if not planned or int(planned.group(1)) == 0 or int(planned.group(1)) != len(rows):
        sys.exit(f"{stage} --trace-launches --segment does not print its plan of arrays:\n"
                 f"{traced[:500]}")
    print(f"defining bitonic_sort_segments in {stage}/bitonic_sort.cu gave its program --segment")
