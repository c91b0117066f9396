#!/usr/bin/env python3
"""proof suite (needs a GPU): tools/grade.py passes a right answer to exercises 1, 2, 3,
5 and 9 and fails, for each exercise, an answer that sorts on the host (with and without the
launches of a right answer counted, and queued behind asynchronous copies) and a wrong one.

Usage: grade_answers_test.py SOURCE_ROOT GPU_PRESENT_PROGRAM [--in-place BUILD_FOLDER]
       (with --in-place, GPU_PRESENT_PROGRAM is not used: the build's own is asked; with
       --add-only after it, the stages are added and nothing else is done)

In a copy of the tree (or, with --in-place, in the tree itself and its build folder BUILD_FOLDER:
for a disposable checkout on a GPU machine) it adds five stages as a student would, each a copy
of v0_naive whose bitonic_sort.cu is one of the instructor's answer sets (answers.cu,
host_answers.cu, faked_answers.cu, async_answers.cu, wrong_answers.cu) and whose gpu tests are
the three exercises' checks; builds; and grades each stage on exercises 1, 2 and 3. The right
answers must pass every check of every exercise; the host-side, faked, async and wrong answers
must fail every exercise, each on that exercise's own check.
For exercise 5 it adds two copies of v6_multistep: one whose multistep stores only the keys that
changed (the answer, made by the edit WRITES_ANSWER below), which must pass, and one left as v6
is, which must fail on the exercise's timed check. For exercise 9, likewise, two copies of
v8_batched: one with the edits of the variant v8_mirrored (tools/variants.txt, the network's
mirrored form), which must pass, and one left as v8 is, which must fail the race. Reports SKIP
(77) at once where there is no usable GPU, since grading refuses to run there.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.abspath(sys.argv[1]), "tools"))
import course  # noqa: E402

root, gpu_present = os.path.abspath(sys.argv[1]), sys.argv[2]
in_place = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--in-place" else None


def skip_without_gpu(program):
    if subprocess.run([program], capture_output=True).returncode != 0:
        print("SKIP: no usable CUDA device (grading needs one)")
        sys.exit(77)


if not in_place:
    skip_without_gpu(gpu_present)
STAGES = {"graded_right": ("answers.cu", True), "graded_host": ("host_answers.cu", False),
          "graded_faked": ("faked_answers.cu", False), "graded_async": ("async_answers.cu", False),
          "graded_wrong": ("wrong_answers.cu", False)}
CHECKS = ["exercise_unpadded", "exercise_pairs", "exercise_floats"]
# Exercise 5: stage -> whether it is the answer (v6_multistep edited by WRITES_ANSWER, which must
# pass) or v6_multistep as it is (which must fail).
WRITES_STAGES = {"graded_writes": True, "graded_writes_all": False}
# The answer to exercise 5: multistep keeps the keys it loaded and stores a key only where it
# changed.
WRITES_ANSWER = [
    ("""    key[m] = keys[first + m * lowest];
  }
""", """    key[m] = keys[first + m * lowest];
  }
  int loaded[kKeys];
#pragma unroll
  for (unsigned m = 0; m < kKeys; ++m) {
    loaded[m] = key[m];
  }
"""),
    ("""    keys[first + m * lowest] = key[m];
""", """    if (key[m] != loaded[m]) {
      keys[first + m * lowest] = key[m];
    }
"""),
]

# Exercise 9: stage -> whether it is the answer (v8_batched with the edits of the variant
# v8_mirrored), which must pass, or v8_batched as it is, which must fail.
MIRRORED_STAGES = {"graded_mirrored": True, "graded_flips": False}


def run(command, folder, timeout=3600):
    print("$", " ".join(command), flush=True)
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=timeout)


def add_stages(tree):
    listed = open(os.path.join(tree, "stages.txt")).read()
    for stage, (answers, _) in STAGES.items():
        if f"\n{stage} " in listed:
            continue
        folder = course.add_stage(tree, stage, "v0_naive", CHECKS,
                                  f"the instructor's {answers}, graded")
        shutil.copy(os.path.join(tree, "instructor", answers),
                    os.path.join(folder, "bitonic_sort.cu"))
        # What the answers include beside the stage's own headers.
        for header in ("instructor/launch_loop.h", "instructor/host_copy.h",
                       "common/float_order.h"):
            shutil.copy(os.path.join(tree, header), folder)
    for stage, edited in WRITES_STAGES.items():
        if f"\n{stage} " in listed:
            continue
        folder = course.add_stage(tree, stage, "v6_multistep", ["gpu_sort"],
                                  "exercise 5, graded")
        if edited:
            source = os.path.join(folder, "bitonic_sort.cu")
            text = open(source).read()
            for old, new in WRITES_ANSWER:
                if text.count(old) != 1:
                    sys.exit(f"v6_multistep/bitonic_sort.cu no longer holds {old!r} once")
                text = text.replace(old, new)
            with open(source, "w") as file:
                file.write(text)
    for stage, edited in MIRRORED_STAGES.items():
        if f"\n{stage} " in listed:
            continue
        folder = course.add_stage(tree, stage, "v8_batched", ["gpu_sort", "gpu_segments"],
                                  "exercise 9, graded")
        if edited:
            names = ("bitonic_index.h", "bitonic_sort.cu")
            files = {name: open(os.path.join(folder, name)).read() for name in names}
            try:
                files = course.variants()["v8_mirrored"].edited(files)
            except ValueError as error:
                sys.exit(str(error))
            for name, text in files.items():
                with open(os.path.join(folder, name), "w") as file:
                    file.write(text)


def grade_all(tree, build):
    if not os.path.exists(os.path.join(tree, build, "build.ninja")):
        setup = run(["meson", "setup", build], tree)
        if setup.returncode != 0:
            sys.exit(f"meson setup failed:\n{setup.stdout[-3000:]}")
    compiled = run(["meson", "compile", "-C", build], tree)
    if compiled.returncode != 0:
        sys.exit(f"the build failed:\n{compiled.stdout[-3000:]}")
    skip_without_gpu(os.path.join(tree, build, "tests", "gpu_present"))
    failures = []
    for stage, (_, right) in STAGES.items():
        result = run([sys.executable, "tools/grade.py", "--build", build, stage, "1", "2",
                      "3"], tree)
        print(result.stdout, result.stderr, flush=True)
        if result.returncode == 3:
            print("SKIP: no usable GPU here (grade.py refuses to grade without one)")
            sys.exit(77)
        grades = dict(re.findall(r"GRADE stage=\S+ exercise=(\d) passed=\d+ failed=(\d+)",
                                 result.stdout))
        for exercise in ("1", "2", "3"):
            failed = grades.get(exercise)
            # The exercise's own check, run on its own, must catch a bad answer: not only the
            # stage's gpu tests as a whole, which hold all three exercises' checks here.
            caught = re.search(rf"^  FAIL  exercise {exercise}: ", result.stdout, re.M)
            if failed is None:
                failures.append(f"{stage}: no grade for exercise {exercise}")
            elif right and failed != "0":
                failures.append(f"{stage}: a right answer failed exercise {exercise}")
            elif not right and (failed == "0" or not caught):
                failures.append(f"{stage}: exercise {exercise}'s own check passed an answer it "
                                "must fail")
    for exercise, stages, unchanged in (("5", WRITES_STAGES, "v6"),
                                        ("9", MIRRORED_STAGES, "v8")):
        failures += grade_race(tree, build, exercise, stages, unchanged)
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


def grade_race(tree, build, exercise, stages, unchanged):
    """The failures of grading a raced exercise: the answer must pass every check, the stage it
    started from, unchanged, must fail the exercise's timed check."""
    failures = []
    for stage, right in stages.items():
        result = run([sys.executable, "tools/grade.py", "--build", build, stage, exercise],
                     tree)
        print(result.stdout, result.stderr, flush=True)
        failed = re.search(rf"GRADE stage=\S+ exercise={exercise} passed=\d+ failed=(\d+)",
                           result.stdout)
        timed_failed = re.search(rf"^  FAIL  exercise {exercise}: --log2", result.stdout, re.M)
        if failed is None:
            failures.append(f"{stage}: no grade for exercise {exercise}")
        elif right and failed.group(1) != "0":
            failures.append(f"{stage}: the right answer failed exercise {exercise}")
        elif not right and not timed_failed:
            failures.append(f"{stage}: exercise {exercise}'s timed check passed {unchanged} "
                            "unchanged")
    return failures


if in_place:
    add_stages(root)
    if "--add-only" not in sys.argv:
        grade_all(root, in_place)
else:
    with tempfile.TemporaryDirectory() as temporary:
        tree = os.path.join(temporary, "course")
        course.copy_course(tree)
        add_stages(tree)
        grade_all(tree, "build-graded")
