#!/usr/bin/env python3
"""docs suite: every command the README, the chapters, the stage headers and the tools' own
help tell a reader to type works.

Usage: commands_test.py SOURCE_ROOT BUILD_FOLDER

It collects the commands: the lines of the Markdown files' shell code blocks (the README, the
chapters, the lab notes, docs/results/README.md) and the inline code that starts like a command,
and the command lines in the comments of the stages' bitonic_sort.cu and of tools/. Then it checks each
one against this build:
  meson setup build ...        every -D option exists
  meson compile -C build T     T names exactly one target, and compiling it succeeds (the
                               demonstration runs, with CUDA hidden: it must end cleanly)
  meson test -C build ...      the arguments are accepted and select at least one test
  meson configure build -D..   the option exists
  build/PROGRAM OPTIONS        the program exists and accepts the options: run with CUDA
                               hidden (CUDA_VISIBLE_DEVICES=""), it must not exit 2 (bad
                               command line); in a folder where `build` is this build and the
                               files the commands name (keys.bin) exist
  python3 common/... docs/...  the script accepts the options (COURSE_ARGUMENTS_ONLY=1 makes
                               the course's scripts stop after reading them)
  .ci/gpu-run OUT STEP...      every step is one the script knows
  cp -r A B, diff -u A B       the folders and files named exist
  head -c N /dev/urandom > F   runs (in the scratch folder) and makes a file of whole keys
  mpirun -np P build/PROGRAM   the ranks accept the options and, with CUDA hidden, stop at
                               their GPUs with exit 3 (where the form with one process a GPU,
                               common/ranks.cpp, is built: else not runnable here)
Commands about the reader's own stage (my_stage) are left to tests/exercises/student_stage_test.py,
which follows those steps in a copy of the tree.

With --needs host|cuda|nccl it checks one part of the commands: those that run or build a program
of the CUDA build (cuda) or one that calls NCCL (nccl), or the rest (host), so that each part
reports SKIP alone where this build lacks what it needs, and the others still pass or fail.
"""
import glob
import json
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile

root, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
part_checked = sys.argv[sys.argv.index("--needs") + 1] if "--needs" in sys.argv else None
PREFIXES = ("meson ", "build/", "python3 ", ".ci/", "cp -r ", "diff -u ", "ncu ", "head -c ",
            "mpirun ")
no_gpu = dict(os.environ, CUDA_VISIBLE_DEVICES="")
hidden = dict(no_gpu, COURSE_ARGUMENTS_ONLY="1")


# Inline code is a command only when it is a whole one (`meson test` alone names the tool).
INLINE = ("meson setup ", "meson compile -C ", "meson test -C ", "meson configure ", "build/",
          "python3 ", ".ci/gpu-run ", "mpirun -np ")


def markdown_commands(path):
    commands, fence = [], None
    for line in open(path):
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped[3:].strip()
            continue
        if fence in ("", "sh", "bash", "console", "shell"):
            if stripped and not stripped.startswith("#"):
                commands.append(stripped.split("  #")[0].strip())
        elif fence is None:
            for span in re.findall(r"`([^`]+)`", line):
                if span.startswith(INLINE):
                    commands.append(span.strip())
    return commands


def comment_commands(path):
    """Command lines in a C++ file's // comments, or in a Python file's module docstring."""
    text = open(path).read()
    if path.endswith(".py"):
        docstring = re.match(r'(?:#![^\n]*\n)?\s*"""(.*?)"""', text, re.S)
        lines = docstring.group(1).splitlines() if docstring else []
    else:
        lines = [line.split("//", 1)[1] for line in text.splitlines() if line.lstrip().startswith("//")]
    commands = []
    for line in lines:
        # A usage line may have its description after two spaces or more.
        stripped = re.split(r"\s{2,}", line.strip())[0]
        if stripped.startswith(PREFIXES) and (not stripped.startswith("ncu ") or
                                              "build/" in stripped):
            commands.append(stripped)
    return commands


sources = [os.path.join(root, "README.md"), os.path.join(root, "docs", "results", "README.md")] + \
    sorted(glob.glob(os.path.join(root, "docs", "*.md"))) + \
    sorted(glob.glob(os.path.join(root, "docs", "notes", "*.md")))
code = sorted(glob.glob(os.path.join(root, "v*", "bitonic_sort.cu")) +
              glob.glob(os.path.join(root, "tools", "*.cu")) +
              glob.glob(os.path.join(root, "tools", "*.py")))
found = []
for path in sources:
    found += [(os.path.relpath(path, root), command) for command in markdown_commands(path)]
for path in code:
    found += [(os.path.relpath(path, root), command) for command in comment_commands(path)]

introspect = json.loads(subprocess.run(["meson", "introspect", build, "--targets"],
                                       capture_output=True, text=True, check=True).stdout)
options = {option["name"] for option in json.loads(subprocess.run(
    ["meson", "introspect", build, "--buildoptions"], capture_output=True, text=True,
    check=True).stdout)}
gpu_run_steps = set(re.findall(r"^\s+([a-z]+)[)*=]", open(os.path.join(root, ".ci", "gpu-run")).read(),
                               re.M))
cuda_built = os.path.exists(os.path.join(build, "tools", "baselines"))
# The programs that call NCCL (a stage that defines bitonic_sort_gpus, and the tool that
# measures its exchange) are built only where Meson found NCCL.
sys.path.insert(0, os.path.join(root, "tools"))
import course  # noqa: E402
nccl_programs = {name for name in course.stage_names() if course.sorts_across_gpus(name)}
nccl_programs.add("nccl_exchange")
with open(os.path.join(build, "meson-logs", "meson-log.txt")) as log:
    nccl_built = "Library nccl found: YES" in log.read()

failures, skipped, checked = [], [], 0
work = tempfile.mkdtemp(prefix="commands-")
os.symlink(build, os.path.join(work, "build"))
with open(os.path.join(work, "keys.bin"), "wb") as file:
    file.write(struct.pack("<5i", 3, -1, 2147483647, 0, 3))


def run(arguments, environment=hidden, cwd=work, timeout=900):
    return subprocess.run(arguments, capture_output=True, text=True, env=environment, cwd=cwd,
                          timeout=timeout)


def check_target(target):
    name, _, kind = target.partition(":")
    matches = [t for t in introspect if t["name"] == name and (not kind or t["type"] == kind)]
    if not matches and cuda_built and not nccl_built and name in nccl_programs:
        skipped.append(f"meson compile {target} (NCCL was not found for this build)")
        return None
    if not matches and not cuda_built:
        skipped.append(f"meson compile {target} (no CUDA compiler in this build)")
        return None
    if len(matches) != 1:
        return f"target '{target}' names {len(matches)} targets"
    if matches[0]["type"] == "run":
        if name != "demo":
            return None
        if not cuda_built:
            skipped.append("the demonstration (no CUDA compiler in this build)")
            return None
        result = run(["meson", "compile", "-C", build, name], environment=no_gpu)
        last = (result.stdout.strip().splitlines() or [""])[-1]
        if result.returncode != 0 or "Everything is built" not in last:
            return f"the demonstration without a GPU: exit {result.returncode}, last line {last!r}"
        return None
    result = run(["meson", "compile", "-C", build, target], environment=os.environ)
    return None if result.returncode == 0 else f"exit {result.returncode}: {result.stdout[-300:]}"


def check_program(words):
    program = words[0]
    path = os.path.join(build, program[len("build/"):])
    if not os.path.exists(path):
        if cuda_built and not nccl_built and os.path.basename(path) in nccl_programs:
            skipped.append(f"{program} (NCCL was not found for this build)")
            return None
        if not cuda_built:
            skipped.append(f"{program} (no CUDA compiler in this build)")
            return None
        return f"{program} is not in the build"
    result = run([path] + words[1:])
    if result.returncode == 2:
        return f"options refused: {result.stderr.strip()}"
    return None


def check_ranks(words):
    """`mpirun -np P build/PROGRAM OPTIONS`: the program runs as P ranks and accepts the
    options: with CUDA hidden, the ranks get past the command line to the step that takes a GPU,
    and stop there with exit 3 (no usable CUDA device)."""
    programs = [i for i, w in enumerate(words) if w.startswith("build/")]
    if not programs or words[1] != "-np":
        return "no -np P and program in the mpirun command"
    program = words[programs[0]]
    mpirun = shutil.which("mpirun")
    if mpirun is None or not course.runs_as_ranks(build, os.path.basename(program)):
        skipped.append(f"mpirun {program} (the form with one process a GPU is not built here: "
                       "it needs NCCL and MPI)")
        return None
    environment = dict(hidden, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    result = run([mpirun, "--oversubscribe"] + words[1:programs[0]] +
                 [os.path.join(build, program[len("build/"):])] + words[programs[0] + 1:],
                 environment)
    if result.returncode == 2:
        return f"options refused: {result.stderr.strip()[-300:]}"
    if result.returncode != 3 or "no usable CUDA device" not in result.stderr:
        return (f"the ranks did not reach their GPUs: exit {result.returncode}, "
                f"{result.stderr.strip()[-300:]}")
    return None


def check(command):
    words = shlex.split(command)
    if ">" in words:
        # `PROGRAM ... > FILE`: the shell takes the redirection; the program sees the words before.
        words = words[:words.index(">")]
    if words[:2] == ["meson", "setup"]:
        bad = [w for w in words if w.startswith("-D") and w[2:].split("=")[0] not in options]
        return f"unknown options {bad}" if bad else None
    if words[:2] == ["meson", "configure"]:
        bad = [w for w in words if w.startswith("-D") and w[2:].split("=")[0] not in options]
        return f"unknown options {bad}" if bad else None
    if words[:2] == ["meson", "compile"]:
        if "-C" not in words:
            return "meson compile without -C build"
        targets = [w for w in words[2:] if not w.startswith("-") and w != words[words.index("-C") + 1]]
        problems = [problem for target in targets for problem in [check_target(target)] if problem]
        if not targets:
            result = run(["meson", "compile", "-C", build], environment=os.environ)
            problems += [] if result.returncode == 0 else ["compiling everything failed"]
        return "; ".join(problems) or None
    if words[:2] == ["meson", "test"]:
        if "-C" not in words:
            return "meson test without -C build"
        arguments = [w for w in words[2:]]
        arguments[arguments.index("-C") + 1] = build
        result = run(["meson", "test", "--list"] + arguments, environment=os.environ)
        listed = [line for line in result.stdout.splitlines() if line.strip()]
        if result.returncode != 0 or not listed:
            return f"meson test {' '.join(words[2:])}: exit {result.returncode}, {len(listed)} tests"
        return None
    if words[0].startswith("build/"):
        return check_program(words)
    if words[0] == "mpirun":
        return check_ranks(words)
    if words[0] == "ncu":
        programs = [i for i, w in enumerate(words) if w.startswith("build/")]
        return check_program(words[programs[0]:]) if programs else "no program in the ncu command"
    if words[0] == "python3":
        script = os.path.join(root, words[1])
        if not os.path.exists(script):
            return f"{words[1]} does not exist"
        arguments = words[2:]
        if words[1] == "docs/generate.py" and "--check" not in arguments:
            arguments.append("--check")
        arguments = [os.path.join(build, a[len("build/"):]) if a.startswith("build/") else a
                     for a in arguments]
        result = run(["python3", script] + arguments, cwd=root)
        if result.returncode == 2 or "Traceback" in result.stderr:
            return f"exit {result.returncode}: {result.stderr.strip()[-300:]}"
        return None
    if words[0] == ".ci/gpu-run":
        unknown = [w.split("=")[0] for w in words[2:] if w.split("=")[0] not in gpu_run_steps]
        return f"unknown steps {unknown}" if unknown else None
    if words[:2] == ["head", "-c"]:
        # A recipe for a file of keys: run it as written, where the programs will look for it.
        result = subprocess.run(command, shell=True, cwd=work, capture_output=True, text=True)
        target = os.path.join(work, words[-1])
        if result.returncode != 0 or not os.path.exists(target) or os.path.getsize(target) % 4:
            return f"exit {result.returncode}: no file of whole keys {words[-1]}"
        return None
    if words[:2] == ["cp", "-r"] or words[:2] == ["diff", "-u"]:
        missing = [w for w in words[2:3] + (words[3:4] if words[0] == "diff" else [])
                   if not os.path.exists(os.path.join(root, w))]
        return f"missing {missing}" if missing else None
    return f"no rule to check this command"


def needs(command):
    """What a command needs of the build: 'nccl' (a program that calls NCCL), 'cuda' (a program
    of the CUDA build, or a target of it compiled) or 'host' (Meson, the scripts, the files)."""
    words = shlex.split(command)
    if any(re.search(rf"\b{name}\b", command) for name in nccl_programs):
        return "nccl"
    if words[0].startswith("build/") or words[0] == "ncu":
        return "cuda"
    if words[:2] == ["meson", "compile"]:
        targets = [w.partition(":")[0] for w in words[2:] if not w.startswith("-") and w != "build"]
        # Every target but the scripts Meson runs (docs) is a program, or the demonstration.
        scripts = {t["name"] for t in introspect if t["type"] == "run" and t["name"] != "demo"}
        if any(target not in scripts for target in targets):
            return "cuda"
    return "host"


seen = set()
for where, command in found:
    if command in seen:
        continue
    seen.add(command)
    if "my_stage" in command and not os.path.isdir(os.path.join(root, "my_stage")):
        continue
    for part in command.split("&&"):
        part = part.strip()
        if not part.startswith(PREFIXES):
            continue
        if part_checked and needs(part) != part_checked:
            continue
        checked += 1
        problem = check(part)
        print(("FAIL " if problem else "ok   ") + f"{where}: {part}" +
              (f"\n       {problem}" if problem else ""))
        if problem:
            failures.append(part)

print(f"{checked} commands" + (f" needing {part_checked}" if part_checked else "") +
      f" checked, {len(failures)} failed" +
      (f", {len(skipped)} not runnable here: " + "; ".join(sorted(set(skipped))) if skipped else ""))
if failures:
    sys.exit(1)
if not checked:
    # A part that found no command to check (the sorting into parts gone wrong) checks nothing.
    sys.exit("no command of this part was found in the docs")
if skipped:
    # Some commands could not be tried: not a pass.
    sys.exit(77)
