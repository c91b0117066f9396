"""The course's records: what one GPU measured, kept in docs/results/RECORD/, and the code each
recorded run measured.

A record is a folder docs/results/RECORD/ (h200, h100, rtx4090: the GPU's name, short) that
holds the CSV files of its chunks and record.json, which says for each chunk its files (one per
experiment it holds rows of), what it covers, the commands that made it, the GPU, driver, CUDA
version and date, the commit it ran on, the seconds it took and the definition of the tool that
made it (chunk_definition; tools/record.py writes these last three).
Every row carries a fingerprint of the code it measured (column `code`): a hash of the sources
that decide what the program did on the GPU, their comments and runs of whitespace left out (a
comment does not change what runs), which are

  a stage        its bitonic_sort.cu and bitonic_index.h and every header of ours they include,
                 and the parts of common/ that run and time a sort (sort_runner.cu, keys.cpp and
                 what they include); not the command line, the report or the validation, so
                 that a change there does not make every record stale; for a run under mpirun,
                 one process a GPU (its `variant` says "P ranks"), common/ranks.cpp too, which
                 times that form (a run without mpirun calls none of its timing);
  a variant      its stage's sources and its edits in tools/variants.txt;
  a baseline     tools/baselines.cu and what it includes, with the same parts of common/ (and
                 for std::sort, which is timed on the host, common/host_sort.cpp);
  a lab program  its source in tools/ (word_argsort.cu, barriers.cu, torch_rows.py, ...) and
                 what it includes;
  but for a baseline or a lab program not the headers of the driver it runs under
  (DRIVER_INTERFACE: driver.h, errors.h, validate.h), as for a stage.

A row measured by Nsight Compute or counted in the machine code names its stage, and may measure
a variant of it (its `variant` column says which, in words): its fingerprint covers the stage
and every variant of it. A program named NAME@COMMIT (a stage as it was at an older commit) is
fingerprinted at that commit. The docs quote a chunk, one run, only if every row of it has the
fingerprint of the code as it is now; tools/record.py records again exactly the other chunks.

Python 3 standard library only.
"""
import ast
import csv
import hashlib
import io
import json
import os
import re
import subprocess
import tokenize

import course

RESULTS = os.path.join(course.ROOT, "docs", "results")
# The record the README and the chapters are built from, unless generate.py is told another
# (--record), and the records its build reads where it lacks runs a block needs, in order (a
# table read there names its GPU, as every table does, and a value says it: '1.54x (H100)'):
# the one place the course's code names a GPU.
DEFAULT_RECORD = "h200"
FALLBACK_RECORDS = ("h100",)
MANIFEST = "record.json"

# The parts of common/ that run and time a sort: the timed loop and the keys it sorts.
TIMING_SOURCES = ("common/sort_runner.cu", "common/keys.cpp")
# The headers through which a lab program (the baselines, word_argsort, ...) runs under the
# course's main(): the driver's, the errors' and the validation's declarations. Its fingerprint
# leaves them out, as a stage's leaves out the command line, the report and the validation: what
# it times is its own source and the timing sources.
DRIVER_INTERFACE = ("common/driver.h", "common/errors.h", "common/validate.h")
# The lab's programs, by the name a row gives them, and their source in tools/.
LAB_SOURCES = {"word_argsort": "tools/word_argsort.cu", "rank_argsort": "tools/rank_argsort.cu",
               "prefix_argsort": "tools/prefix_argsort.cu",
               "barriers": "tools/barriers.cu", "cluster_steps": "tools/cluster_steps.cu",
               "transfers": "tools/transfers.cu",
               "nccl_exchange": "tools/nccl_exchange.cu", "torch": "tools/torch_rows.py",
               "baselines": "tools/baselines.cu"}
# The stage whose sources a lab program compiles in (tools/meson.build): its folder is on the
# program's include path.
LAB_STAGES = {"word_argsort": "v8_batched", "rank_argsort": "v8_batched",
              "prefix_argsort": "v8_batched",
              "barriers": "v0_naive"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A copy of the course for students (tools/make_student_copy.py) leaves out the variants that
# answer an exercise (course.ANSWER_VARIANTS) and writes here what the records need of them:
# the fingerprints each one, and its stage with every variant, had when the copy was made, with
# what they rest on (the stage's own fingerprint, and a hash of the edits of the stage's other
# variants), so that they count only while those are unchanged.
WITHHELD = "tools/withheld.json"


class Sources:
    """The course's files as they are in the working tree under `root`, or, with `commit`, as
    they were at that commit of the repository under `root`."""

    def __init__(self, root=course.ROOT, commit=None):
        self.root, self.commit, self.cache = root, commit, {}

    def read(self, path):
        """The text of the repository-relative `path`, or None where there is no such file."""
        if path not in self.cache:
            if self.commit:
                result = subprocess.run(["git", "-C", self.root, "show", f"{self.commit}:{path}"],
                                        capture_output=True, text=True)
                self.cache[path] = result.stdout if result.returncode == 0 else None
            else:
                full = os.path.join(self.root, path)
                self.cache[path] = open(full).read() if os.path.isfile(full) else None
        return self.cache[path]

    def variants(self):
        """{name: Variant} of tools/variants.txt as these sources have it."""
        if "variants" not in self.cache:
            self.cache["variants"] = course.variants(
                text=self.read("tools/variants.txt") or "")
        return self.cache["variants"]

    def withheld(self):
        """What a copy for students keeps of the variants it left out (WITHHELD), or {}."""
        text = self.read(WITHHELD)
        return json.loads(text) if text else {}


def included(sources, paths, folders, leave_out=()):
    """The files `paths` and every header of ours they include, directly or not, but those of
    `leave_out` (and what only they include): an include is looked up beside the file that names
    it, then in `folders` (repository-relative)."""
    found, queue = [], list(paths)
    while queue:
        path = queue.pop(0)
        text = sources.read(path)
        if text is None or path in found or path in leave_out:
            continue
        found.append(path)
        for name in INCLUDE.findall(text):
            for folder in [os.path.dirname(path)] + list(folders):
                candidate = os.path.normpath(os.path.join(folder, name))
                if sources.read(candidate) is not None:
                    queue.append(candidate)
                    break
    return found


def timing_files(sources):
    return included(sources, TIMING_SOURCES, ["common"])


def stage_files(sources, stage, as_ranks=False):
    files = included(sources, [f"{stage}/bitonic_sort.cu", f"{stage}/bitonic_index.h"],
                     [stage, "common"])
    # A run as one process per GPU, under mpirun, of a stage that has that form (it includes
    # ranks.h) is timed by common/ranks.cpp, as the one-process form is by sort_runner.cu.
    # Not rank_world.cpp: the GPU each rank takes and the check across ranks, as a stage's
    # fingerprint leaves out the one-process form's device and validation.
    if as_ranks and "common/ranks.h" in files:
        files.append("common/ranks.cpp")
    return files + timing_files(sources)


def lab_name(program):
    """The LAB_SOURCES key of a program named in a row ('torch.sort (torch 2.11)' is torch), or
    of a baseline's algorithm (cub_radix, std_sort, copy: the baselines program), or None."""
    if program.startswith("torch"):
        return "torch"
    if program in course.BASELINE_PROGRAMS:
        return "baselines"
    return program if program in LAB_SOURCES else None


def edits_text(variant):
    """A variant's edits as code (code_text of each side), one after another."""
    return " ".join(f"{code_text('edit.cu', old)} => {code_text('edit.cu', new)};"
                    for old, new in variant.edits)


def measured_files(program, sources, with_variants=False, as_ranks=False):
    """(the files that decide what `program` measured, extra text: a variant's edits), or None
    for a name that is neither a stage, a variant nor a lab program of these sources; `as_ranks`
    for a stage's run under mpirun."""
    lab = lab_name(program)
    if lab:
        folders = ["tools", "common"] + ([LAB_STAGES[lab]] if lab in LAB_STAGES else [])
        files = included(sources, [LAB_SOURCES[lab]], folders, DRIVER_INTERFACE)
        if lab == "barriers":
            files += included(sources, ["v0_naive/bitonic_sort.cu"], ["v0_naive", "common"])
        if program == "std_sort":
            # std::sort is timed on the host, by host_sort.cpp, not by sort_runner.cu.
            files += included(sources, ["common/host_sort.cpp"], ["common"], DRIVER_INTERFACE)
        return files + ([] if lab == "torch" else timing_files(sources)), ""
    variant = sources.variants().get(program)
    if variant:
        return stage_files(sources, variant.stage), edits_text(variant)
    if sources.read(f"{program}/bitonic_sort.cu") is not None:
        edits = ""
        if with_variants:
            # Every variant of the stage, in order: the row may measure any of them.
            edits = " ".join(f"{name}: {edits_text(variant)}"
                             for name, variant in sources.variants().items()
                             if variant.stage == program)
        return stage_files(sources, program, as_ranks), edits
    return None


# A string or character literal of C++, kept whole; or a comment, dropped.
CPP_TOKENS = re.compile(r'("(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')|//[^\n]*|/\*.*?\*/', re.S)


def code_text(path, text):
    """The code of a source file without its comments, its whitespace runs made one space: a
    comment does not change what a program does, and the course rewords its comments often.
    The same text on every Python from 3.8 (python_tokens)."""
    if path.endswith(".py"):
        text = " ".join(python_tokens(text))
    else:
        text = CPP_TOKENS.sub(lambda match: match.group(1) or " ", text)
    return " ".join(text.split())


def python_tokens(text):
    """The tokens of Python source `text` without its comments, an f-string as one token, its
    source text: Python 3.12 splits an f-string into pieces (PEP 701) where older ones give one
    string, and a record made on one Python must read the same on another."""
    lines = text.splitlines(keepends=True)

    def source(start, end):
        (first_row, first_col), (last_row, last_col) = start, end
        if first_row == last_row:
            return lines[first_row - 1][first_col:last_col]
        return (lines[first_row - 1][first_col:] + "".join(lines[first_row:last_row - 1]) +
                lines[last_row - 1][:last_col])

    # FSTRING_START and FSTRING_END exist from Python 3.12 on.
    opening = getattr(tokenize, "FSTRING_START", None)
    closing = getattr(tokenize, "FSTRING_END", None)
    kept, depth, start = [], 0, None
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == opening:
            depth += 1
            start = token.start if depth == 1 else start
        elif token.type == closing:
            depth -= 1
            if depth == 0:
                kept.append(source(start, token.end))
        elif depth == 0 and token.type != tokenize.COMMENT:
            kept.append(token.string)
    return kept


def docstring_spans(node):
    """The (start, end) positions, as (line, byte column), of the docstrings of `node` and of
    every module, class and function inside it."""
    spans = []
    for inner in ast.walk(node):
        body = getattr(inner, "body", None)
        if (isinstance(inner, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and body and isinstance(body[0], ast.Expr) and
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
            string = body[0]
            spans.append(((string.lineno, string.col_offset),
                          (string.end_lineno, string.end_col_offset)))
    return spans


def node_source(lines, node):
    """The source text of the top-level statement `node` (with its decorators) without its
    docstrings; `lines` are the script's lines as bytes (ast's columns count bytes)."""
    first = min([node.lineno] + [decorator.lineno for decorator in
                                 getattr(node, "decorator_list", [])])
    kept = list(lines[first - 1:node.end_lineno])
    # Blanked from the last to the first, so that the columns of those before stay right.
    for (row, col), (end_row, end_col) in sorted(docstring_spans(node), reverse=True):
        head, tail = kept[row - first][:col], kept[end_row - first][end_col:]
        kept[row - first:end_row - first + 1] = [head + tail]
    return b"".join(kept).decode()


def script_definition(text, name=None):
    """What a measuring script of tools/ does, as code without comments, docstrings or layout:
    the whole script, or, where `name` is one of its top-level functions (an experiment of
    experiments.py, a fact of ncu_facts.py), that function with the script's classes (its
    runner) and the top-level functions and values they name, directly or not, so that an edit
    of one experiment leaves the others' definitions as they were. Taken from the source text,
    not from ast.unparse, whose output changes between Pythons."""
    tree = ast.parse(text)
    lines = text.encode().splitlines(keepends=True)
    top = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for found in ast.walk(target):
                    if isinstance(found, ast.Name):
                        top[found.id] = node
    if not isinstance(top.get(name), ast.FunctionDef):
        kept = tree.body
    else:
        queue = [name] + [key for key, node in top.items() if isinstance(node, ast.ClassDef)]
        kept = []
        while queue:
            node = top.get(queue.pop(0))
            if node is None or any(node is seen for seen in kept):
                continue
            kept.append(node)
            queue += [found.id for found in ast.walk(node) if isinstance(found, ast.Name)]
        kept.sort(key=lambda node: node.lineno)
    # The module's docstring is a statement of its own: left out like the others.
    module_docstring = [node for node in tree.body[:1] if isinstance(node, ast.Expr) and
                        isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)]
    return "\n".join(code_text("script.py", node_source(lines, node)) for node in kept
                     if node not in module_docstring)


def chunk_definition(command_lines, sources=None):
    """12 hex digits of a hash of what a chunk of tools/record.py measures beside the code its
    rows' fingerprints cover: its commands ("{python} tools/SCRIPT.py ... [NAME]") and, for each,
    script_definition of the script (of its function NAME, where the command ends in one). A
    chunk recorded under another definition (an experiment that runs more sizes or rivals than
    it did) is recorded again. None where a script cannot be read (an old commit)."""
    sources = sources or Sources()
    digest = hashlib.sha256()
    for line in command_lines:
        parts = line.split()
        digest.update(f"{line}\0".encode())
        if len(parts) > 1 and parts[1].startswith("tools/") and parts[1].endswith(".py"):
            text = sources.read(parts[1])
            if text is None:
                return None
            digest.update(script_definition(text, parts[-1]).encode())
    return digest.hexdigest()[:12]


def visible_edits(sources, stage):
    """A hash of the edits of the variants of `stage` that these sources list."""
    text = " ".join(f"{name}: {edits_text(variant)}" for name, variant in
                    sources.variants().items() if variant.stage == stage)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def withheld_fingerprint(program, sources, with_variants):
    """The fingerprint WITHHELD keeps for a variant a copy for students left out, or for its
    stage with every variant; '' where the stage has changed since; None where WITHHELD has
    nothing for it."""
    kept = sources.withheld()
    variant = kept.get("variants", {}).get(program)
    stage = variant["stage"] if variant else program if with_variants else None
    base = kept.get("stages", {}).get(stage)
    if base is None:
        return None
    unchanged = (fingerprint(stage, sources) == base["fingerprint"] and
                 visible_edits(sources, stage) == base["visible_edits"])
    if not unchanged:
        return ""
    return variant["fingerprint"] if variant else base["with_variants"]


def fingerprint(program, sources=None, with_variants=False, as_ranks=False):
    """12 hex digits of a hash of what `program` measured (module docstring), run under mpirun
    where `as_ranks`, or '' for a name these sources do not know. NAME@COMMIT is NAME at that
    commit."""
    if "@" in program:
        program, commit = program.split("@", 1)
        sources = Sources(sources.root if sources else course.ROOT, commit)
    sources = sources or Sources()
    kept = withheld_fingerprint(program, sources, with_variants)
    if kept is not None:
        return kept
    found = measured_files(program, sources, with_variants, as_ranks)
    if found is None:
        return ""
    files, extra = found
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        digest.update(f"{path}\0{code_text(path, sources.read(path))}\0".encode())
    digest.update(extra.encode())
    return digest.hexdigest()[:12]


def row_program(row, default=None):
    """(the program a recorded row measured, whether it may be a variant of that stage named
    in words, whether it ran under mpirun): its `program` column (under mpirun where its
    `variant` says so, course.ran_as_ranks), else its `stage` column (with a `variant` column,
    any variant of the stage), else `default`, the chunk's tool."""
    if row.get("program"):
        return row["program"], False, course.ran_as_ranks(row.get("variant"))
    if row.get("stage"):
        return row["stage"], "variant" in row, False
    return default, False, False


class Fingerprints:
    """fingerprint() of each program once: the same program is in many rows."""

    def __init__(self, sources=None):
        self.sources, self.known = sources or Sources(), {}

    def of_row(self, row, default=None):
        key = row_program(row, default)
        if key[0] is None:
            return ""
        if key not in self.known:
            self.known[key] = fingerprint(key[0], self.sources, key[1], key[2])
        return self.known[key]


def record_names():
    """The records in docs/results/, by folder name."""
    if not os.path.isdir(RESULTS):
        return []
    return sorted(name for name in os.listdir(RESULTS)
                  if os.path.exists(os.path.join(RESULTS, name, MANIFEST)))


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


class Record:
    """One record: its manifest and its rows. A chunk is one run, quoted whole or not at all:
    rows() gives an experiment's rows from its chunks in the manifest's order, leaving out every
    chunk that holds a row of code that has changed since (`stale` says which programs)."""

    def __init__(self, name, results=None, sources=None):
        self.name = name
        self.folder = os.path.join(results or RESULTS, name)
        path = os.path.join(self.folder, MANIFEST)
        self.manifest = json.load(open(path)) if os.path.exists(path) else {"chunks": {}}
        self.fingerprints = Fingerprints(sources)
        self.loaded = {}
        # {experiment: {program: rows of code that has changed}} and {experiment: [chunks]}, of
        # the chunks rows() left out.
        self.stale, self.dropped = {}, {}
        # {chunk: {program: rows of code that has changed}}, of every chunk looked at.
        self.changed = {}
        # The experiments rows() was asked for since touched was last emptied: what a generated
        # block read.
        self.touched = []
        # Whether the chunks only the lab notes read (record.py --all) belong to the record as a
        # reader of it sees it: a lab note's block reads them, the README and the chapters not.
        self.with_notes = False

    def exists(self):
        return bool(self.manifest["chunks"])

    def gpu(self):
        """The GPU's name as the record gives it ('NVIDIA H200'), or the record's name."""
        return self.manifest.get("gpu") or self.name

    def chunks(self, experiment=None):
        """[(chunk name, its manifest entry)] in the manifest's order, those that hold rows of
        `experiment` alone when it is named."""
        return [(name, chunk) for name, chunk in self.manifest["chunks"].items()
                if experiment is None or experiment in chunk["files"]]

    def experiments(self):
        return list(dict.fromkeys(experiment for _, chunk in self.chunks()
                                  for experiment in chunk["files"]))

    def chunk_rows(self, name, experiment):
        """Every row of `experiment` in the chunk `name`, current or not, each with the chunk's
        name (column `chunk`)."""
        chunk = self.manifest["chunks"][name]
        rows = read_csv(os.path.join(self.folder, chunk["files"][experiment]))
        return [{**row, "chunk": name} for row in rows]

    def is_current(self, row, chunk):
        """Whether the row measured the code as it is now (a program these sources do not know
        never did)."""
        code = self.fingerprints.of_row(row, chunk.get("program"))
        return bool(code) and row.get("code") == code

    def changed_programs(self, name):
        """{program: rows} of the chunk `name` whose code has changed since; {} if none."""
        if name not in self.changed:
            chunk = self.manifest["chunks"][name]
            found = {}
            for experiment in chunk["files"]:
                for row in self.chunk_rows(name, experiment):
                    if not self.is_current(row, chunk):
                        program = row_program(row, chunk.get("program"))[0] or name
                        found[program] = found.get(program, 0) + 1
            self.changed[name] = found
        return self.changed[name]

    def files(self, experiment):
        """The files of the chunks of `experiment` that rows() quotes, repository-relative."""
        return [os.path.relpath(os.path.join(self.folder, chunk["files"][experiment]),
                                course.ROOT) for name, chunk in self.chunks(experiment)
                if not self.changed_programs(name)]

    def rows(self, experiment):
        """The rows of `experiment` from its current chunks, in order; [] if none."""
        self.touched.append(experiment)
        if experiment not in self.loaded:
            rows = []
            for name, _ in self.chunks(experiment):
                changed = self.changed_programs(name)
                if not changed:
                    rows += self.chunk_rows(name, experiment)
                    continue
                self.dropped.setdefault(experiment, []).append(name)
                counts = self.stale.setdefault(experiment, {})
                for program, count in changed.items():
                    counts[program] = counts.get(program, 0) + count
            self.loaded[experiment] = rows
        return self.loaded[experiment]

    def missing_chunks(self, experiment):
        """The chunks of tools/record.py's catalog that write `experiment` and that this record
        has not made yet (profile-27 where profile-20 is made; of those only the lab notes read,
        profile-27-notes, where with_notes), where every chunk it holds of the experiment is one
        of the catalog's; a record made in another layout (the H100's single profile chunk) is
        taken as it is."""
        # record.py imports this module: its catalog is read once both are loaded.
        import record
        catalog = [chunk for chunk in record.CHUNKS if experiment in chunk.outputs]
        held = [name for name, _ in self.chunks(experiment)]
        if not held or any(name not in [chunk.name for chunk in catalog] for name in held):
            return []
        return [chunk.name for chunk in catalog if chunk.name not in held and
                (self.with_notes or not chunk.optional)]

    def shortfall(self, experiments):
        """(how many of `experiments` this record has no current runs of, how many of their
        chunks it left out or has not made): the smaller, the more of what a block reads it
        holds. A chunk made for other stages does not count: it holds what it ran, and a record
        is not passed over for another on that account (a stage added since has no markers)."""
        names = set(experiments)
        return (sum(1 for name in names if not self.rows(name)),
                sum(len(self.dropped.get(name, [])) + len(self.missing_chunks(name))
                    for name in names))

    def incomplete(self, experiments):
        """Those of `experiments` that this record lacks, or some chunks of which it left out
        or has not made."""
        return sorted(name for name in set(experiments)
                      if not self.rows(name) or name in self.dropped or
                      self.missing_chunks(name))

    def lacking(self, experiments):
        """incomplete, and those of `experiments` with a chunk made before a stage was added
        (other_stages): where a value is not measured, what the record lacks for it. A chunk
        made for other stages is whole for what it ran (tools that ask incomplete, a crossing in
        the tour, take it so)."""
        return sorted(set(self.incomplete(experiments)) |
                      {name for name in set(experiments) if self.other_stages(name)})

    def other_stages(self, experiment):
        """The chunks of `experiment` that run every stage (tools/record.py's every_stage) and
        were made for another list of stages: a stage added since has no rows there yet."""
        return [name for name, chunk in self.chunks(experiment)
                if "stages" in chunk and chunk["stages"] != course.stage_names()]

    def gap(self, experiments):
        """What the record lacks of `experiments`, for a reader: 'spread' where it has no
        current runs of it, 'kernel_times from profile-27' where it lacks chunks of it,
        'spread for these stages' where a chunk of it predates a stage."""
        def lacked(name):
            if self.rows(name) and self.missing_chunks(name):
                return f"{name} from {' and '.join(self.missing_chunks(name))}"
            if self.rows(name) and self.other_stages(name):
                return f"{name} for these stages"
            return name
        return ", ".join(lacked(name) for name in self.lacking(experiments))

    def stale_rows(self):
        """[(chunk, program, rows)] of the record's rows whose code has changed since."""
        return [(name, program, count) for name, _ in self.chunks()
                for program, count in self.changed_programs(name).items()]

    def stale_note(self):
        """One line naming the chunks rows() left out and the programs whose code changed since
        they ran, or None."""
        chunks = sorted({name for names in self.dropped.values() for name in names})
        if not chunks:
            return None
        programs = sorted({program for counts in self.stale.values() for program in counts})
        return (f"record {self.name}: {len(chunks)} chunks left out ({', '.join(chunks)}): "
                f"code they measured has changed since ({', '.join(programs)}); "
                f"tools/record.py --record {self.name} records them again")
