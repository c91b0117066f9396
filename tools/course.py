"""What the course's scripts share: the stages, the baselines, running a program for its CSV
record, the floor of a run, and the progression table.

Used by tools/tour.py, experiments.py, measure_banks.py, profile_kernels.py and by
docs/generate.py. Python 3 standard library only.
"""
import csv
import datetime
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
STAGES_FILE = os.path.join(ROOT, "stages.txt")

# The library sorts the results compare with (build/tools/baselines --algo NAME).
DEVICE_BASELINES = ["cub_radix", "cub_merge", "thrust"]
SEGMENTED_BASELINES = ["cub_segmented", "cub_segmented_radix", "cub_packed_radix"]
# Those that also run as an argsort (--values: SortPairs, each key's position as its value).
ARGSORT_BASELINES = ["cub_segmented", "cub_packed_radix"]
# Programs of the baselines executable that are not a stage.
BASELINE_PROGRAMS = ["std_sort", "copy"] + DEVICE_BASELINES + SEGMENTED_BASELINES
# The lab's own sorts, built from a stage's source but not stages (build/tools/NAME).
LAB_SORTS = ["word_argsort", "rank_argsort", "prefix_argsort"]


class Stage:
    """One entry of stages.txt: the folder, its chapter in docs/ (None if it has none), its one
    idea and its test names by kind ({"cpu": [...], "gpu": [...]})."""

    def __init__(self, name, chapter, idea, tests=None):
        self.name, self.chapter, self.idea = name, chapter, idea
        self.tests = tests if tests is not None else {"cpu": [], "gpu": []}

    def entry(self):
        """The stage's entry as stages.txt writes it, chapter "-" when it has none."""
        lines = [f"{self.name} | {self.chapter or '-'} | {self.idea}\n"]
        for kind, names in self.tests.items():
            # A kind may take several lines: they add up.
            lines += [f"    {kind}: {part}\n" for part in textwrap.wrap(" ".join(names), 88)]
        return "".join(lines)

    def __repr__(self):
        return f"Stage({self.name!r})"


def listed_lines(path, label, heading, text=None):
    """The lines of a list written like stages.txt (stages.txt, tools/variants.txt), or of
    `text` written so, blank lines and # comments left out: (line number, the three fields of an
    entry's line split at '|', None), or (line number, None, an indented line stripped).
    ValueError, naming the file as `label`, for an entry's line without the three fields
    `heading` names."""
    with open(path) if text is None else io.StringIO(text) as file:
        for number, line in enumerate(file, start=1):
            if not line.strip() or line.strip().startswith("#"):
                continue
            if line.startswith(" "):
                yield number, None, line.strip()
                continue
            fields = [field.strip() for field in line.split("|")]
            if len(fields) != 3:
                raise ValueError(f"{label}:{number}: expected '{heading}'")
            yield number, fields, None


def stages(path=STAGES_FILE):
    """The stages in reading order, from stages.txt (or the file `path`): the one list to edit."""
    found = []
    for number, fields, line in listed_lines(path, "stages.txt", "folder | chapter | idea"):
        if fields:
            name, chapter, idea = fields
            found.append(Stage(name, None if chapter == "-" else chapter, idea))
            continue
        kind, _, words = line.partition(":")
        kind, words = kind.strip(), words.split()
        if not found or kind not in ("cpu", "gpu") or not words:
            raise ValueError(f"stages.txt:{number}: expected an indented 'cpu: NAME ...' or "
                             "'gpu: NAME ...' under a stage's line")
        found[-1].tests[kind] += words
    return found


def stage_pairs(stages):
    """(the stage before it, the stage) for each of `stages` (Stage objects, in reading order)
    after the first: every stage is an edit of the one before it."""
    return list(zip(stages, stages[1:]))


def course_stage_pairs():
    """stage_pairs of the course's stages (those with a chapter), by name."""
    return [(previous.name, stage.name)
            for previous, stage in stage_pairs([stage for stage in stages() if stage.chapter])]


def stage_names():
    return [stage.name for stage in stages()]


VARIANTS_FILE = os.path.join(TOOLS, "variants.txt")
# The variants of tools/variants.txt that take the flips out of v8_batched and v9_argsort (the
# lab note docs/notes/flips.md), by stage, each with the label that says what it does instead:
# the variant's name in the records of experiments.py and ncu_facts.py directions, where the
# stage as built is "flips (as built)".
DIRECTIONS, MIRRORED = "directions in the compares", "mirrored network, no flips"
FLIP_VARIANTS = {"v8_batched": {"v8_directions": DIRECTIONS, "v8_mirrored": MIRRORED},
                 "v9_argsort": {"v9_directions": DIRECTIONS, "v9_mirrored": MIRRORED}}
# The variants that answer an exercise of docs/29_exercises.md, by exercise: the mirrored network
# in v8 is exercise 9, and v9's is the same answer in the argsort. tools/make_student_copy.py
# leaves them out of the copy it makes for students.
ANSWER_VARIANTS = {"v8_mirrored": 9, "v9_mirrored": 9}


class Variant:
    """One entry of tools/variants.txt: its name (the program's), the stage it edits, what it
    changes, and its edits of the stage's bitonic_index.h and bitonic_sort.cu, [(old, new)]."""

    def __init__(self, name, stage, what):
        self.name, self.stage, self.what, self.edits = name, stage, what, []

    def edited(self, files):
        """{file name: text} of the stage's files (bitonic_index.h, bitonic_sort.cu) with every
        edit made in the one file that holds its old text; ValueError unless the files hold
        each old text exactly once between them (a stage that has moved on stops the
        experiment instead of measuring something else)."""
        files = dict(files)
        for old, new in self.edits:
            holders = [name for name, text in files.items() if old in text]
            count = sum(text.count(old) for text in files.values())
            if count != 1:
                raise ValueError(f"{self.name}: {self.stage}/{' and '.join(files)} hold "
                                 f"{old!r} {count} times, not once (tools/variants.txt)")
            files[holders[0]] = files[holders[0]].replace(old, new)
        return files


def variants(path=VARIANTS_FILE, text=None):
    """{name: Variant} of tools/variants.txt (or of `text`, a copy of it), in its order."""
    found = {}
    for number, fields, line in listed_lines(path, "variants.txt", "name | stage | what", text):
        if fields:
            found[fields[0]] = last = Variant(*fields)
            continue
        if found and line.startswith("with "):
            # "with NAME": the edits of the variant NAME, listed above, come first.
            base = found.get(line[len("with "):].strip())
            if base is None or base.stage != last.stage:
                raise ValueError(f"variants.txt:{number}: '{line}' names no variant of "
                                 f"{last.stage} listed above it")
            last.edits.extend(base.edits)
            continue
        old, arrow, new = line.partition(" => ")
        if not found or not arrow or not old:
            raise ValueError(f"variants.txt:{number}: expected an indented 'OLD => NEW' under a "
                             "variant's line")
        # "\\n" in an edit stands for a line break: an edit may span lines where no one line is
        # unique (two kernels declared alike).
        last.edits.append((old.replace("\\n", "\n"), new.replace("\\n", "\n")))
    return found


def variant_program(build, name):
    """Builds the variant `name` of tools/variants.txt through Meson (not built by default) and
    returns its program's path; stops with the compiler's message if it does not build."""
    result = subprocess.run(["meson", "compile", "-C", build, name], capture_output=True,
                            text=True)
    if result.returncode != 0:
        sys.exit(f"building {name} failed:\n{(result.stdout + result.stderr)[-3000:]}")
    return program_command(build, name)[0]


def course_stage_names():
    """The stages that are part of the course's text: those with a chapter. A stage of your own
    without one (its line in stages.txt says -) is built and tested, but left out of the
    course's tables."""
    return [stage.name for stage in stages() if stage.chapter]


def is_stage(program):
    return program not in BASELINE_PROGRAMS + LAB_SORTS


def runs_as_ranks(build, stage):
    """Whether the build made STAGE's program in the form that also runs as one process per GPU
    under mpirun (meson.build: a stage that sorts across GPUs, where MPI was found): Meson's
    record of the build lists common/ranks.cpp among the program's sources."""
    try:
        with open(os.path.join(build, "meson-info", "intro-targets.json")) as file:
            targets = json.load(file)
    except (OSError, ValueError):
        return False
    return any(target["name"] == stage and any(
        source.endswith(os.path.join("common", "ranks.cpp"))
        for part in target.get("target_sources", []) for source in part.get("sources", []))
        for target in targets)


def ranks_variant(ranks):
    """The `variant` of a recorded run under mpirun, one process a GPU ("2 ranks"): the one
    name by which the records (records.py), the experiment (experiments.py gpus) and the tables
    tell such a run from the one-process form's."""
    return f"{ranks} ranks"


def ran_as_ranks(variant):
    """Whether a row's `variant` says it ran under mpirun (ranks_variant)."""
    return re.fullmatch(r"[0-9]+ ranks", variant or "") is not None


def sorts_across_gpus(name, root=ROOT):
    """Whether the stage `name` sorts across GPUs: its bitonic_sort.cu defines bitonic_sort_gpus
    (the rule meson.build follows), so its program takes --gpus P and not --device, and needs
    NCCL."""
    path = os.path.join(root, name, "bitonic_sort.cu")
    # A definition starts a line, as meson.build looks for it: not a comment that names it.
    return os.path.exists(path) and "\nvoid bitonic_sort_gpus(" in "\n" + open(path).read()


def gpus_stage(root=ROOT):
    """The stage that sorts one array across GPUs (sorts_across_gpus), or None: the gpus
    experiment and its tables find it so, not by its number, which moves when a stage comes in
    before it."""
    return next((name for name in stage_names() if sorts_across_gpus(name, root)), None)


def program_command(build, name):
    """The command that runs a stage, a baseline, a lab sort or a variant (tools/variants.txt,
    built first by variant_program) of the build folder `build`."""
    if name in BASELINE_PROGRAMS:
        return [os.path.join(build, "tools", "baselines"), "--algo", name]
    if name in LAB_SORTS or name in variants():
        return [os.path.join(build, "tools", name)]
    return [os.path.join(build, name, name)]


def listed_names(build, program, option):
    """The names an option of a program takes, in the order its --help lists them as the
    option's value ("  --dist uniform|sorted|..."): the program is the one source of its
    distributions (--dist) and algorithms (--algo)."""
    result = subprocess.run(program_command(build, program) + ["--help"], capture_output=True,
                            text=True, check=True)
    for line in result.stdout.splitlines():
        words = line.split()
        if len(words) > 1 and words[0] == option and "|" in words[1]:
            return words[1].split("|")
    sys.exit(f"{program} --help lists no {option}")


def repetitions(q):
    """Timed repetitions at n = 2^q: many where a run takes microseconds, few where it takes a
    second (v0 at 2^29). Each program adds one warm-up run."""
    if q <= 20:
        return 20
    if q <= 24:
        return 10
    if q <= 27:
        return 5
    return 3


# The forms of the programs checked against std::sort so far by this process, where
# COURSE_VALIDATE_ONCE is set (tools/record.py sets it for its chunks), and those checked on
# arrays of LONG_CHECK keys or more. The check is host work after the timed sorts (no part of a
# recorded time) and was most of a run's seconds; a program is checked at its first run of each
# form and at its first run of that form on arrays of at least LONG_CHECK keys, and its other
# runs skip the check (--no-validate).
CHECKED_FORMS, CHECKED_LONG = set(), set()
LONG_CHECK = 1024


def validated_once(command):
    """`command`, with --no-validate where COURSE_VALIDATE_ONCE is set and a run of the same
    form was checked already: the same program with the same options but the values of
    --segment and --reps (so the same number of keys, order, distribution, type, --values and
    --top, one array or many), on arrays as long (LONG_CHECK keys or more, or shorter).
    PyTorch's rows (a Python script) are always checked: their check is cheap."""
    if (not os.environ.get("COURSE_VALIDATE_ONCE") or "--no-validate" in command or
            os.path.basename(command[0]).startswith("python")):
        return command
    form, segment, skip = [], None, None
    for word in command:
        if skip:
            segment = int(word) if skip == "--segment" else segment
            skip = None
        elif word in ("--segment", "--reps"):
            # Many arrays and one array are forms of their own; the arrays' length is not.
            form += [word] if word == "--segment" else []
            skip = word
        else:
            form.append(word)
    form = tuple(form)
    long_arrays = segment is None or segment >= LONG_CHECK
    if form in CHECKED_FORMS and (not long_arrays or form in CHECKED_LONG):
        return command + ["--no-validate"]
    CHECKED_FORMS.add(form)
    if long_arrays:
        CHECKED_LONG.add(form)
    return command


def run_record(command):
    """Runs a program with --csv (its header line included) and returns (exit code, its record
    as a dict keyed by the program's own header, stderr). The record is None unless the program
    printed one. Under tools/record.py, a program's check against std::sort may be skipped where
    the chunk checked the same form already (validated_once)."""
    result = subprocess.run(validated_once(command) + ["--csv"], capture_output=True, text=True)
    lines = result.stdout.strip().splitlines()
    records = list(csv.DictReader(lines)) if len(lines) >= 2 else []
    return result.returncode, (records[-1] if records else None), result.stderr


def nvidia_smi(field, device=0):
    """One property of a GPU as nvidia-smi reports it (--query-gpu=FIELD), or 'unknown'."""
    try:
        result = subprocess.run(["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader",
                                 "-i", str(device)], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    lines = result.stdout.strip().splitlines()
    return lines[0] if result.returncode == 0 and lines else "unknown"


def nvidia_driver(device=0):
    return nvidia_smi("driver_version", device)


def today():
    return datetime.date.today().isoformat()


def write_csv(path, records, fields=None):
    """Writes the records, replacing `path` in one step (a sweep that is stopped keeps the
    file it had)."""
    fields = fields or list(records[0])
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    temporary = path + ".tmp"
    with open(temporary, "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(records)
    os.replace(temporary, path)


def floor_ms(record, copy_gb_s):
    """The run's floor: its passes, each one read and one write of the (padded) keys at the copy
    bandwidth. None when the passes are unknown (library calls)."""
    if not record.get("passes") or not copy_gb_s:
        return None
    return int(record["passes"]) * 8 * int(record["padded_n"]) / (copy_gb_s * 1e6)


def progression_rows(records, copy_gb_s):
    """The progression table of one size: one row per record, in the order given (std::sort
    first when it ran, then the stages, then the libraries). Each row holds the time, the
    speedup over the stage before (stages only), the speedup over the first row, the launches,
    the effective bandwidth, that bandwidth as a share of the copy's, and time over floor."""
    rows = []
    first = previous = None
    for record in records:
        time = float(record["sort_ms"])
        stage = is_stage(record["program"])
        floor = floor_ms(record, copy_gb_s)
        bandwidth = float(record["effective_gb_s"]) if record["effective_gb_s"] else None
        rows.append({
            "program": record["program"],
            "time": time,
            "over_previous": previous / time if previous is not None and stage else None,
            "over_first": first / time if first is not None else 1.0,
            "launches": record["launches"],
            "bandwidth": bandwidth,
            "of_copy": bandwidth / copy_gb_s if bandwidth is not None else None,
            "over_floor": time / floor if floor else None,
        })
        first = time if first is None else first
        if stage or previous is None:
            previous = time
    return rows


def find_tool(name):
    """A CUDA toolkit program (ncu, cuobjdump): on the PATH, or in CUDA_HOME or /usr/local/cuda."""
    found = shutil.which(name)
    if found:
        return found
    for folder in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"):
        candidate = os.path.join(folder, "bin", name)
        if folder and os.access(candidate, os.X_OK):
            return candidate
    sys.exit(f"{name} not found (it comes with the CUDA toolkit)")


def gpu_name(device=0):
    return nvidia_smi("name", device)


# The course's kernel names, as the tools find them in ncu's and cuobjdump's longer names.
KERNELS = ("block_sort", "block_merge", "bitonic_step", "multistep", "block_top", "register_top",
           "keep_half", "group_steps", "block_word_argsort", "block_rank_argsort",
           "block_prefix_argsort")


def kernel_of(name):
    """The course's kernel that a (demangled or mangled) function name is about, or None."""
    return next((kernel for kernel in KERNELS if kernel in name), None)


def launch_plan(build, stage, n, segment=None, top=None):
    """The launches of one sort of n keys (a power of two), as the stage's program prints them
    with --trace-launches from its own for_each_launch: ([{launch, kernel, size, stride, steps}],
    launches_per_sort(n), which the program states in its first line); with `top`, those of a
    top-k and launches_per_top. No GPU is needed."""
    command = program_command(build, stage) + ["--trace-launches", "-n", str(n)]
    if segment:
        command += ["--segment", str(segment)]
    if top:
        command += ["--top", str(top)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({result.returncode}): {result.stderr.strip()}")
    lines = result.stdout.splitlines()
    expected = int(lines[0].rsplit("=", 1)[1])
    plan = [{key: value if key == "kernel" else int(value) for key, value in row.items()}
            for row in csv.DictReader(lines[1:])]
    return plan, expected


def arguments_only():
    """Whether a script should stop once it has read its command line: tests/docs/commands_test.py
    sets COURSE_ARGUMENTS_ONLY to check that the commands the text gives are accepted."""
    return bool(os.environ.get("COURSE_ARGUMENTS_ONLY"))


# ---------------------------------------------------------------------------------------------
# The structure of a stage's sources: its top-level definitions, its header's sections, and the
# section a stage may declare replaced whole. tests/stages/progression_test.py and docs/generate.py
# read the sources through these.


def definitions(path):
    """{name: text} of the top-level definitions of a C++ file, in file order, each with the
    comment lines directly above it. A definition starts at a line in column 0 that is not a
    comment, a preprocessor line or a brace, and ends at the next line that is '}' or '};' (a
    function, a struct), or at its own line if that ends with ';' (a constant). A struct or enum
    is named by its type name, anything else by the name before its first '(', '=', '[' or ';'
    past any __launch_bounds__(...) or __maxnreg__(...); a second overload of a name is
    "name (2)"."""
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
            while end < len(lines) and lines[end] not in ("}", "};"):
                end += 1
        text = "\n".join(lines[first:end + 1])
        head = " ".join(lines[index:end + 1])
        name = re.match(r"(?:enum class|enum|struct)\s+(\w+)", head) or re.search(
            r"(\w+)\s*(\(|=|\[|;)", re.sub(r"__(?:launch_bounds|maxnreg)__\([^)]*\)", "", head))
        if name:
            # An overload keeps the name of the first definition with a count: "f (2)".
            key, count = name.group(1), 1
            while key in found:
                count += 1
                key = f"{name.group(1)} ({count})"
            found[key] = text
        index = end + 1
    return found


def header_section(path, title):
    """The lines of the header comment's section that starts with `// TITLE`, up to the next
    empty comment line ('' if there is none)."""
    text = open(path).read()
    match = re.search(rf"// {title}.*?\n(.*?)\n//\n", text, re.S)
    return match.group(1) if match else ""


REPLACED_SECTION = re.compile(r"section\s+\((\w+)\s+to\s+(\w+)\)\s+is\s+replaced\s+whole")


PREDICTED = re.compile(r"Speedup at 2\^29 over the stage before: ([\d.]+)x \.\. ([\d.]+)x; (.*)\.$",
                       re.S)


def predicted_speedup(stage):
    """(low, high, summary) of the line "Speedup at 2^29 over the stage before: LOWx .. HIGHx;
    SUMMARY." that ends the Prediction of the stage's header, or None: the one place a stage's
    prediction is written, which docs/generate.py tallies against the measurement."""
    section = header_section(os.path.join(ROOT, stage, "bitonic_sort.cu"), "Prediction")
    text = " ".join(line.lstrip("/").strip() for line in section.splitlines())
    start = text.find("Speedup at 2^29")
    match = PREDICTED.match(text[start:]) if start >= 0 else None
    return (float(match.group(1)), float(match.group(2)), match.group(3)) if match else None


def replaced_section(stage):
    """(first, last) definition of the section of bitonic_sort.cu that the stage's header
    declares replaced whole ("section (FIRST to LAST) is replaced whole"), or None."""
    changes = header_section(os.path.join(ROOT, stage, "bitonic_sort.cu"), "What changes from")
    match = REPLACED_SECTION.search(re.sub(r"\s*//\s*", " ", changes))
    return (match.group(1), match.group(2)) if match else None


def section_names(names, first, last):
    """The names from `first` to `last` in the order given (file order), or [] if either is
    missing or they are out of order."""
    if first not in names or last not in names or names.index(first) > names.index(last):
        return []
    return names[names.index(first):names.index(last) + 1]


def replaced_definitions(previous, stage):
    """Where `stage`'s header declares a section of bitonic_sort.cu replaced whole: (the old
    file's definitions it replaces, the new file's definitions that make it), each in file
    order; None where it declares none. The old ones are those the new section redefines or
    that the new file no longer has."""
    declared = replaced_section(stage)
    if not declared:
        return None
    before = list(definitions(os.path.join(ROOT, previous, "bitonic_sort.cu")))
    after = definitions(os.path.join(ROOT, stage, "bitonic_sort.cu"))
    new = section_names(list(after), *declared)
    old = [name for name in before if name in new or name not in after]
    return old, new


def section_text(path, names):
    """(start, end) character offsets in the file of the run of definitions `names` (the first
    one's comment to the last one's closing line)."""
    text = open(path).read()
    found = definitions(path)
    start = text.index(found[names[0]])
    end = text.index(found[names[-1]]) + len(found[names[-1]])
    return start, end


def copy_course(destination, leave_out=()):
    """Copies the source tree to `destination`, without build folders, git's folder, caches and
    carried dependencies (and the top-level folders `leave_out`): what the proof tests work on."""
    def ignored(folder, names):
        found = set(shutil.ignore_patterns("build*", ".git", "__pycache__", ".deps")(folder, names))
        if os.path.abspath(folder) == ROOT:
            found |= set(leave_out) & set(names)
        return found
    shutil.copytree(ROOT, destination, symlinks=True, ignore=ignored)


def add_stage(tree, stage, start, gpu_tests, idea):
    """Adds a stage to the tree `tree` as chapter 29 says a student does: a copy of the stage
    `start`, and an entry in stages.txt (without a chapter) that copies start's, with the test
    names `gpu_tests` as its gpu tests. Returns the new stage's folder, for the caller to edit."""
    folder = os.path.join(tree, stage)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(os.path.join(tree, start), folder)
    listed = os.path.join(tree, "stages.txt")
    copied = next(entry for entry in stages(listed) if entry.name == start)
    added = Stage(stage, None, idea, {"cpu": copied.tests["cpu"], "gpu": gpu_tests})
    with open(listed, "a") as file:
        file.write(added.entry())
    return folder
