#!/usr/bin/env python3
"""docs suite: the records measured the code as it is (tools/records.py).

Usage: records_test.py SOURCE_ROOT

1. Every row of the default record, the one the README and the chapters read, carries the
   fingerprint of its program's sources as they are now: a kernel changed without its runs
   recorded again fails here, with the chunks that `tools/record.py` would record again.
2. Every record's record.json names files that exist, each row of which has a fingerprint, and
   says for each chunk the GPU, driver, date and commands that made it; every program at every
   size and form of output (keys or argsort, int or float, all or top-k) in it has a run whose
   result passed its check against std::sort.
3. The fingerprint follows the code, in a copy of the tree: a changed line of a stage's kernel
   makes that stage's rows stale and leaves the stage before it current; a changed comment and
   a changed command-line parser (common/cli.cpp) leave them current; a changed edit in
   tools/variants.txt makes that variant's rows stale, not its stage's. A record's chunk that
   holds a stale row is left out whole.
4. In a copy for students (tools/make_student_copy.py), without the answer variants, the
   fingerprints tools/withheld.json keeps equal the tree's, and go stale when a stage changes;
   the files git does not track leave the copy.
5. A chunk's definition (records.chunk_definition, the code of the tool's function that runs
   it) changes with a line of that function, not with a comment or a docstring, nor with another
   experiment's; tools/record.py then records that chunk again.
6. Both hashes read the same on every Python: the text they hash is the source's own, f-strings
   whole (Python 3.12 tokenizes them in pieces) and not ast.unparse's (which changes between
   Pythons), so a record made on the GPU machine's Python is current on CI's.
7. tools/record.py's new entry for a chunk replaces its last one and removes the files that one
   named and the new one does not (a chunk that writes fewer files), and no other chunk's.
8. A chunk that fails writes nothing and the next goes on, the script then exiting non-zero
   with its name; a chunk recorded without a GPU names none for the record.
9. Ctrl-C during a chunk stops the chunk's program too.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

root = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(root, "tools"))
import course  # noqa: E402
import records  # noqa: E402

failures = []


def check(condition, what):
    print(("ok  " if condition else "FAIL") + "  " + what)
    if not condition:
        failures.append(what)


# 1. The default record is current.
default = records.Record(records.DEFAULT_RECORD)
check(default.exists(), f"the default record docs/results/{records.DEFAULT_RECORD}/ exists")
stale = default.stale_rows()
for chunk, program, count in stale[:10]:
    print(f"      stale: {count} rows of {program} in chunk {chunk}")
check(not stale, f"every row of record {default.name} measured the code as it is now "
      f"(else: python3 tools/record.py --record {default.name} --only "
      f"{','.join(sorted({chunk for chunk, _, _ in stale})) or 'CHUNKS'})")

# 2. Every record's manifest and files.
for name in records.record_names():
    record = records.Record(name)
    problems = []
    for chunk_name, chunk in record.chunks():
        for field in ("gpu", "date", "commands", "files"):
            if not chunk.get(field):
                problems.append(f"{chunk_name} has no {field}")
        for experiment, file in chunk["files"].items():
            path = os.path.join(record.folder, file)
            if not os.path.exists(path):
                problems.append(f"{chunk_name}: {file} is missing")
                continue
            rows = records.read_csv(path)
            if not rows or any(not row.get("code") for row in rows):
                problems.append(f"{chunk_name}: {file} has rows without a fingerprint")
    listed = {file for _, chunk in record.chunks() for file in chunk["files"].values()}
    unlisted = sorted(set(os.listdir(record.folder)) - listed - {records.MANIFEST})
    if unlisted:
        problems.append(f"files record.json does not name: {', '.join(unlisted)}")
    check(not problems, f"record {name}: record.json and its files agree"
          + (f" ({'; '.join(problems[:3])})" if problems else ""))
    # Each program at each size, in each form of output (keys or an argsort, ints or floats,
    # all kept or a top-k), has a run that passed its check against std::sort somewhere in the
    # record (tools/record.py skips the check after a program's first runs of a form:
    # course.validated_once).
    outcomes = {}
    for _, chunk in record.chunks():
        for file in chunk["files"].values():
            path = os.path.join(record.folder, file)
            for row in records.read_csv(path) if os.path.exists(path) else []:
                if row.get("validation") and row.get("program") and row.get("n"):
                    form = (row["program"], row["n"], row.get("values", ""),
                            row.get("type", ""), row.get("top", "0") not in ("", "0"))
                    outcomes.setdefault(form, set()).add(row["validation"])
    unchecked = sorted(f"{program} at {n} keys ({values}, {kind}{', top-k' if top else ''})"
                       for (program, n, values, kind, top), seen in outcomes.items()
                       if "pass" not in seen)
    check(not unchecked, f"record {name}: every program at every size and form of output has a "
          "run that passed its check against std::sort"
          + (f" (none for {'; '.join(unchecked[:3])})" if unchecked else ""))

# 3. The fingerprint follows the code, in a copy.
with tempfile.TemporaryDirectory() as scratch:
    copy = os.path.join(scratch, "course")
    for folder in ["common", "tools", "v4_half_threads", "v5_bank_free", "v8_batched",
                   "v25_multi_gpu"]:
        shutil.copytree(os.path.join(root, folder), os.path.join(copy, folder),
                        ignore=shutil.ignore_patterns("__pycache__"))

    def prints(*programs):
        sources = records.Sources(copy)
        return [records.fingerprint(program, sources) for program in programs]

    def edit(path, old, new):
        full = os.path.join(copy, path)
        text = open(full).read()
        assert text.count(old) >= 1, (path, old)
        with open(full, "w") as file:
            file.write(text.replace(old, new, 1))

    programs = ("v4_half_threads", "v5_bank_free", "v8_batched", "v8_keys8", "cub_radix")
    before = prints(*programs)
    check(before == [records.fingerprint(program) for program in programs] and all(before),
          "a copy of the sources has the tree's fingerprints")
    kernel = "v5_bank_free/bitonic_sort.cu"
    text = open(os.path.join(copy, kernel)).read()
    comment = next(line for line in text.splitlines() if line.strip().startswith("// ") and
                   len(line.strip()) > 20 and not line.startswith("//"))
    edit(kernel, comment, comment + " (reworded)")
    check(prints(*programs) == before, "a changed comment in v5's kernels changes no fingerprint")
    edit("common/cli.cpp", "\n", "\n// a new line of the command line's parser\nstatic int "
         "parsed_once = 0;\n")
    check(prints(*programs) == before, "a changed command-line parser changes no fingerprint")
    edit("common/driver.h", "\n", "\n// a new line of the driver's interface\nstruct Unused {};\n")
    check(prints(*programs) == before,
          "a changed driver interface (driver.h, which the baselines include) changes no "
          "fingerprint, a library's neither")
    code = next(line for line in text.splitlines() if line.strip().startswith("const ") and
                line.rstrip().endswith(";"))
    edit(kernel, code, code + " static_cast<void>(0);")
    after = prints(*programs)
    check(after[1] != before[1] and after[0] == before[0] and after[2:] == before[2:],
          "a changed line of v5's kernels changes v5's fingerprint alone")
    variant = course.variants(os.path.join(copy, "tools", "variants.txt"))["v8_keys8"]
    old, new = variant.edits[-1]
    edit("tools/variants.txt", f"{old} => {new}", f"{old} => {new.replace('11', '10')}")
    final = prints(*programs)
    check(final[3] != after[3] and final[2] == after[2],
          "a changed edit of the variant v8_keys8 changes its fingerprint, not its stage's")

    # A run under mpirun (its variant "2 ranks") is timed by common/ranks.cpp, the one-process
    # form by sort_runner.cu: a change of ranks.cpp's code changes the first's fingerprint alone.
    sources = records.Sources(copy)
    alone, ranks = (records.Fingerprints(sources).of_row({"program": "v25_multi_gpu",
                                                           "variant": variant})
                    for variant in ("2 GPUs", course.ranks_variant(2)))
    check(alone and ranks and alone != ranks and
          alone == records.fingerprint("v25_multi_gpu", sources) and
          ranks == records.fingerprint("v25_multi_gpu", sources, as_ranks=True),
          "a row of v25 run under mpirun has a fingerprint of its own (ranks.cpp in it)")
    edit("common/ranks.cpp", "  MPI_Init(&argc, &argv);", "  MPI_Init(&argc, &argv);\n  "
         "static_cast<void>(0);")
    sources = records.Sources(copy)
    check(records.fingerprint("v25_multi_gpu", sources) == alone and
          records.fingerprint("v25_multi_gpu", sources, as_ranks=True) != ranks,
          "a changed line of common/ranks.cpp changes the fingerprint of v25's runs under mpirun "
          "alone")

    # A record of made-up rows in two chunks, one run each: the chunk with rows of the changed
    # stage and variant is left out whole, and said so; the other is quoted.
    results = os.path.join(scratch, "results")
    os.makedirs(os.path.join(results, "made_up"))
    chunks = {"tour-a": ("v4_half_threads", "v5_bank_free", "v8_keys8"),
              "tour-b": ("v8_batched", "cub_radix")}
    for chunk, names in chunks.items():
        course.write_csv(os.path.join(results, "made_up", f"{chunk}.csv"),
                         [{"program": program, "sort_ms": "1", "code": code}
                          for program, code in zip(programs, before) if program in names])
    with open(os.path.join(results, "made_up", records.MANIFEST), "w") as file:
        json.dump({"gpu": "made up", "chunks": {chunk: {"files": {"tour": f"{chunk}.csv"}}
                                                for chunk in chunks}}, file)
    made_up = records.Record("made_up", results, records.Sources(copy))
    kept = [row["program"] for row in made_up.rows("tour")]
    check(kept == ["v8_batched", "cub_radix"] and made_up.dropped == {"tour": ["tour-a"]} and
          made_up.stale == {"tour": {"v5_bank_free": 1, "v8_keys8": 1}} and
          "tour-a" in (made_up.stale_note() or "") and
          "v5_bank_free" in (made_up.stale_note() or ""),
          "a chunk with rows of changed code is left out whole, and named in one line")
    # A chunk that runs every stage, made before a stage was added (its "stages" list is not
    # stages.txt's): its rows are quoted and it counts as whole (incomplete), and a value of the
    # new stage is a gap (lacking), not an error.
    with open(os.path.join(results, "made_up", records.MANIFEST), "w") as file:
        json.dump({"gpu": "made up", "chunks": {
            "tour-b": {"files": {"tour": "tour-b.csv"}, "stages": course.stage_names()[:-1]}}},
            file)
    older = records.Record("made_up", results, records.Sources(copy))
    check([row["program"] for row in older.rows("tour")] == ["v8_batched", "cub_radix"] and
          older.incomplete(["tour"]) == [] and older.lacking(["tour"]) == ["tour"] and
          older.gap(["tour"]) == "tour for these stages" and
          older.shortfall(["tour"]) == (0, 0),
          "a chunk made for other stages is quoted, and what it lacks is named as a gap")
    with open(os.path.join(results, "made_up", records.MANIFEST), "w") as file:
        json.dump({"gpu": "made up", "chunks": {
            "tour-b": {"files": {"tour": "tour-b.csv"}, "stages": course.stage_names()}}}, file)
    check(records.Record("made_up", results, records.Sources(copy)).lacking(["tour"]) == [],
          "a chunk made for the stages as they are is complete")

# 4. In a copy for students (tools/make_student_copy.py) the answer variants are gone from
# tools/variants.txt; tools/withheld.json keeps the fingerprints of their rows, which hold while
# their stages are unchanged and are '' (stale) once a stage's code changes.
import make_student_copy  # noqa: E402


def check_student_copy():
    # The files git does not track (an instructor's stage, notes) leave the copy, with a folder
    # that held them alone; a path the copy never held is passed over.
    with tempfile.TemporaryDirectory() as scratch:
        for path in ("notes.txt", "my_stage/sub/bitonic_sort.cu", "tools/kept.py", "common/x.h"):
            os.makedirs(os.path.dirname(os.path.join(scratch, path)), exist_ok=True)
            with open(os.path.join(scratch, path), "w") as file:
                file.write("x\n")
        removed = make_student_copy.remove_from_copy(
            scratch, ["notes.txt", "my_stage/sub/bitonic_sort.cu", "common/x.h", "gone/never.txt"])
        left = sorted(os.path.relpath(os.path.join(folder, name), scratch)
                      for folder, folders, files in os.walk(scratch) for name in files + folders)
        check(removed == ["notes.txt", "my_stage/sub/bitonic_sort.cu", "common/x.h"] and
              left == ["tools", "tools/kept.py"],
              f"the copy for students leaves out the untracked files: {removed}, left {left}")
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "course")
        for folder in ["common", "tools", "v8_batched", "v9_argsort"]:
            shutil.copytree(os.path.join(root, folder), os.path.join(copy, folder),
                            ignore=shutil.ignore_patterns("__pycache__"))
        names = sorted(course.ANSWER_VARIANTS)
        listed = os.path.join(copy, "tools", "variants.txt")
        with open(listed) as file:
            text = make_student_copy.without_variants(file.read(), names)
        with open(listed, "w") as file:
            file.write(text)
        with open(os.path.join(copy, records.WITHHELD), "w") as file:
            json.dump(make_student_copy.withheld(names), file)
        keys = [("v8_mirrored", False), ("v8_batched", True), ("v8_batched", False),
                ("v8_keys8", False)]
        expected = [records.fingerprint(name, with_variants=every) for name, every in keys]
        found = [records.fingerprint(name, records.Sources(copy), every) for name, every in keys]
        check(not set(names) & set(course.variants(listed)) and found == expected and all(found),
              "a copy without the answer variants keeps their fingerprints and their stages'")
        kernel = os.path.join(copy, "v8_batched", "bitonic_sort.cu")
        with open(kernel) as file:
            code = file.read()
        line = next(line for line in code.splitlines() if line.strip().startswith("const ") and
                    line.rstrip().endswith(";"))
        with open(kernel, "w") as file:
            file.write(code.replace(line, line + " static_cast<void>(0);", 1))
        changed = [records.fingerprint(name, records.Sources(copy), every) for name, every in keys]
        check(changed[0] == "" and changed[1] == "" and changed[2] not in ("", expected[2]),
              "there, a changed line of v8's kernels makes the withheld fingerprints stale")


# 5. A chunk's definition follows the tool that measures it (records.chunk_definition): an edit
# of one experiment redefines its chunk alone, and tools/record.py records it again; a comment
# or a docstring redefines nothing.
import record  # noqa: E402


def check_definitions():
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "course")
        shutil.copytree(os.path.join(root, "tools"), os.path.join(copy, "tools"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        chunks = [record.chunk_named(name) for name in ("copy", "gpus", "tour-10-20")]

        def definitions():
            return [records.chunk_definition(chunk.command_lines(), records.Sources(copy))
                    for chunk in chunks]

        before = definitions()
        check(before == [records.chunk_definition(chunk.command_lines()) for chunk in chunks]
              and all(before), "a copy of tools/ defines the chunks as the tree does")
        path = os.path.join(copy, "tools", "experiments.py")
        text = open(path).read()
        start = text.index("\ndef gpus(runner):")
        body = text[start:text.index("\ndef ", start + 1)]
        worded = body.replace('    """', '    """(Reworded.) ', 1).replace(
            "\n    runs = ", "\n    # a new comment\n    runs = ", 1)
        with open(path, "w") as file:
            file.write(text.replace(body, worded))
        check("# a new comment" in worded and "(Reworded.)" in worded and
              definitions() == before,
              "a changed docstring and a new comment in experiments.py's gpus define nothing anew")
        changed = worded.replace('"--reps", "5"', '"--reps", "6"', 1)
        with open(path, "w") as file:
            file.write(text.replace(body, changed))
        after = definitions()
        check(changed != worded and after[1] != before[1] and after[0] == before[0] and
              after[2] == before[2], "a changed line of experiments.py's gpus redefines the "
              "gpus chunk alone")
        entries = [{"commands": chunk.command_lines(), "definition": defined}
                   for chunk, defined in zip(chunks, before)]
        stated = [record.redefined(entry, chunk, records.Sources(copy))
                  for entry, chunk in zip(entries, chunks)]
        unknown = record.redefined({"commands": chunks[1].command_lines(), "commit": "unknown"},
                                   chunks[1], records.Sources(copy))
        check(stated == [False, True, False] and not unknown,
              "tools/record.py records the redefined chunk again, and keeps one whose "
              "definition cannot be known")


check_definitions()


# 6. The same text on every Python. Both expectations are written out by hand: a run on Python
# 3.12 or later with f-strings in pieces, or with ast.unparse's quotes, fails them.
def check_python_versions():
    script = ('"""Module docstring."""\n'
              'import os  # a comment\n'
              'WIDTH = 8\n'
              '\n'
              '\n'
              '@staticmethod\n'
              'def shown(name, value):\n'
              '    """Docstring."""\n'
              "    return f'{name!r:>{WIDTH}} {{literal}} {f\"{value}\"}'  # f-strings\n"
              '\n'
              '\n'
              'def other():\n'
              '    return shown("é", 1)\n')
    tokens = records.code_text("tool.py", script)
    check(tokens == '"""Module docstring.""" import os WIDTH = 8 @ staticmethod def shown ( name '
          ', value ) : """Docstring.""" return f\'{name!r:>{WIDTH}} {{literal}} {f"{value}"}\' '
          'def other ( ) : return shown ( "é" , 1 )',
          "records.code_text of Python keeps an f-string whole and drops comments")
    defined = records.script_definition(script, "shown")
    check(defined == "WIDTH = 8\n@ staticmethod def shown ( name , value ) : return "
          "f'{name!r:>{WIDTH}} {{literal}} {f\"{value}\"}'",
          "records.script_definition takes the source's text, without docstrings, comments or "
          f"other functions, on Python {sys.version.split()[0]}")


check_python_versions()


def write_entry(folder, manifest, gpu, name, entry):
    """record.py's write_entry of a recorder of `gpu` whose record in `folder` holds `manifest`;
    returns record.json as written."""
    import record  # noqa: E402 (tools/record.py, which reads tools/ as records does)

    class Recorder:
        """What write_entry reads of a recorder: its record, GPU and folder."""

        def __init__(self):
            self.gpu, self.name, self.folder = gpu, os.path.basename(folder), folder
            self.record = type("Record", (), {"manifest": manifest})()

    made = records.Record
    records.Record = lambda name: None
    try:
        record.Recorder.write_entry(Recorder(), name, entry)
    finally:
        records.Record = made
    with open(os.path.join(folder, records.MANIFEST)) as file:
        return json.load(file)


# 7. A chunk recorded again with fewer files: its old files go, another chunk's stay.
def check_entry_files():
    folder = tempfile.mkdtemp()
    try:
        for name in ("kept.a.csv", "kept.b.csv", "kept.csv", "other.csv"):
            with open(os.path.join(folder, name), "w") as file:
                file.write("n\n1\n")
        manifest = {"gpu": "made-up GPU", "chunks": {
            "kept": {"files": {"a": "kept.a.csv", "b": "kept.b.csv"}},
            "other": {"files": {"other": "other.csv"}}}}

        written = write_entry(folder, manifest, "made-up GPU", "kept", {"files": {"a": "kept.csv"}})
        check(sorted(os.listdir(folder)) == sorted([records.MANIFEST, "kept.csv", "other.csv"]) and
              written["chunks"]["kept"]["files"] == {"a": "kept.csv"} and
              written["chunks"]["other"]["files"] == {"other": "other.csv"},
              f"a chunk recorded again with one file of two: {sorted(os.listdir(folder))}")
    finally:
        shutil.rmtree(folder)


check_entry_files()


# 8. A chunk that fails writes nothing and the others go on; the command then exits non-zero and
# names it. A chunk recorded on a machine without a GPU (the toolkit's alone) names no GPU for
# the record, so that the GPU's own chunks can join it later.
def check_failed_chunk():
    import record  # noqa: E402

    ran = []

    class Recorder:
        """What record_chunks asks of a recorder; the chunk `copy` fails, `transfers` records."""
        gpu = "made-up GPU"

        def status(self, chunk):
            return "not recorded"

        def missing_need(self, chunk):
            return None

        def estimate(self, chunk):
            return 1

        def measured(self, chunk):
            return False

        def run(self, chunk, deadline=None):
            ran.append(chunk.name)
            if chunk.name == "copy":
                raise record.ChunkFailed("a made-up failure")
            return 1.0

    arguments = type("Arguments", (), {"only": "copy,transfers", "all": False, "minutes": None,
                                       "record": "made-up", "build": "build-record"})()
    try:
        record.record_chunks(arguments, Recorder(), time.time())
        stopped = None
    except SystemExit as exit_:
        stopped = str(exit_.code)
    check(ran == ["copy", "transfers"] and stopped is not None and "copy" in stopped and
          "transfers" not in stopped,
          f"a failed chunk leaves the next to record, and the exit names it: {ran}, {stopped!r}")

    folder = tempfile.mkdtemp()
    try:
        # A recorder on a machine without a GPU (record.py --record NAME --arch).
        written = write_entry(folder, {"chunks": {}}, "unknown", "registers", {"files": {}})
        check("gpu" not in written and "registers" in written["chunks"],
              f"a chunk recorded without a GPU names none for the record: {written}")
    finally:
        shutil.rmtree(folder)


check_failed_chunk()


# 8b. A chunk whose outputs are named otherwise now (a lab note's profile given files of its own)
# is not current, though its commands are the same: the record's files would be read under the
# old names.
def check_renamed_outputs():
    import record  # noqa: E402

    chunk = next(chunk for chunk in record.CHUNKS if chunk.name == "profile-27-groups")
    old = {"kernel_times": "profile-27-groups.kernel_times.csv",
           "kernel_metrics": "profile-27-groups.kernel_metrics.csv"}
    manifest = {"chunks": {chunk.name: {"commands": chunk.command_lines(), "files": old}}}
    recorder = type("Recorder", (), {"record": type("Record", (), {"manifest": manifest})()})()
    status = record.Recorder.status(recorder, chunk)
    check(status == "made for other files" and set(chunk.outputs) != set(old),
          f"a chunk whose outputs were renamed is recorded again: {status!r}")


check_renamed_outputs()


# 9. Ctrl-C during a chunk stops the chunk's program too (it runs in a session of its own, which
# the terminal's SIGINT does not reach).
def check_interrupt():
    import record  # noqa: E402

    marker = "sleep 57.25"
    # Python's own handler, which raises KeyboardInterrupt, whatever this process inherited (a
    # shell's background job starts with SIGINT ignored).
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        with open(os.devnull, "w") as log:
            record.run_until(marker.split(), log, time.time() + 30)
        interrupted = False
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGINT, inherited)
    time.sleep(0.3)
    running = [line for line in subprocess.run(["ps", "-eo", "args"], capture_output=True,
                                               text=True).stdout.splitlines()
               if line.strip() == marker]
    check(interrupted and not running,
          f"Ctrl-C stops the chunk's program too (interrupted: {interrupted}, left: {running})")


check_interrupt()

if os.path.exists(os.path.join(root, records.WITHHELD)):
    # This tree is itself a copy for students: the answer variants are gone already, and part 1
    # has checked the fingerprints that tools/withheld.json keeps of them.
    print("--    part 4 runs in the course's own tree (this one is a copy for students)")
else:
    check_student_copy()

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
