"""What the course's scripts share: the stages, the baselines, running a program for its CSV
record, the floor of a run, and the progression table.

Used by common/tools/tour.py, experiments.py, measure_banks.py, profile_kernels.py and by
docs/generate.py. Python 3 standard library only.
"""
import csv
import datetime
import os
import shutil
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(TOOLS))
STAGES_FILE = os.path.join(ROOT, "stages.txt")

# The library sorts the results compare with (build/common/tools/baselines --algo NAME).
DEVICE_BASELINES = ["cub_radix", "cub_merge", "thrust"]
SEGMENTED_BASELINES = ["cub_segmented", "cub_segmented_radix"]
# Programs of the baselines executable that are not a stage.
BASELINE_PROGRAMS = ["std_sort", "copy"] + DEVICE_BASELINES + SEGMENTED_BASELINES


class Stage:
    """One line of stages.txt: the folder, its chapter in docs/ (None if it has none) and its
    one idea."""

    def __init__(self, name, chapter, idea):
        self.name, self.chapter, self.idea = name, chapter, idea

    def __repr__(self):
        return f"Stage({self.name!r})"


def stages():
    """The stages in reading order, from stages.txt: the one list to edit."""
    found = []
    with open(STAGES_FILE) as file:
        for number, line in enumerate(file, start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [field.strip() for field in line.split("|")]
            if len(fields) != 3:
                raise ValueError(f"stages.txt:{number}: expected 'folder | chapter | idea'")
            name, chapter, idea = fields
            found.append(Stage(name, None if chapter == "-" else chapter, idea))
    return found


def stage_names():
    return [stage.name for stage in stages()]


def course_stage_names():
    """The stages that are part of the course's text: those with a chapter. A stage of your own
    without one (its line in stages.txt says -) is built and tested, but left out of the
    course's tables."""
    return [stage.name for stage in stages() if stage.chapter]


def is_stage(program):
    return program not in BASELINE_PROGRAMS


def program_command(build, name):
    """The command that runs a stage or a baseline of the build folder `build`."""
    if name in BASELINE_PROGRAMS:
        return [os.path.join(build, "common", "tools", "baselines"), "--algo", name]
    return [os.path.join(build, name, name)]


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


def run_record(command):
    """Runs a program with --csv (its header line included) and returns (exit code, its record
    as a dict keyed by the program's own header, stderr). The record is None unless the program
    printed one."""
    result = subprocess.run(command + ["--csv"], capture_output=True, text=True)
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
KERNELS = ("block_sort", "block_merge", "bitonic_step", "multistep")


def kernel_of(name):
    """The course's kernel that a (demangled or mangled) function name is about, or None."""
    return next((kernel for kernel in KERNELS if kernel in name), None)


def uses_shared_memory(stage):
    """Whether the stage's kernels keep a tile in shared memory."""
    with open(os.path.join(ROOT, stage, "bitonic_sort.cu")) as file:
        return "__shared__" in file.read()


def arguments_only():
    """Whether a script should stop once it has read its command line: tests/commands_test.py
    sets COURSE_ARGUMENTS_ONLY to check that the commands the text gives are accepted."""
    return bool(os.environ.get("COURSE_ARGUMENTS_ONLY"))
