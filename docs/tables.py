"""The course's tables and measured numbers, made from the recorded CSV files in docs/results/.

Every number here is read from a file that a program of tools/ wrote on the GPU named in
it; nothing is typed in. A stage, a size or an experiment that was not recorded shows as "not
measured". docs/generate.py puts the results into the Markdown files.
"""
import collections
import csv
import os
import re
import statistics
import subprocess

import course
import experiments
import figures
import records
from judging import (against_all, against_previous, faster_from, faster_up_to,
                     prediction_verdict, spread_percent, stages_beat_cpu_from)

# The stage that sorts one array across GPUs, whose runs the gpus experiment records.
GPUS_STAGE = course.gpus_stage()

DOCS = os.path.dirname(os.path.abspath(__file__))
HEADLINE_SIZES = [20, 24, 27, 29]
NOT_MEASURED = "not measured"
# The record the tables read (records.Record): docs/generate.py chooses it with use_record.
RECORD = None


def use_record(name):
    """Makes the tables read the record `name` (docs/results/NAME/) and returns it."""
    global RECORD
    RECORD = records.Record(name)
    return RECORD


def recorded_rows(experiment):
    """The rows of `experiment` in the record the tables read, those of code that has changed
    since left out (records.Record.rows); [] where it was not recorded."""
    return RECORD.rows(experiment)


def first_length_only(leave_out=()):
    """The experiments of the record, but those of `leave_out`, where a program's runs on many
    arrays were checked at their first array length alone, none on arrays of 1024 keys or more
    (recorded before course.validated_once checked each form again there): 'the chunk
    word_argsorts', 'the chunks a and b', or 'no chunk'."""
    found = []
    for experiment in [name for name in RECORD.experiments() if name not in leave_out]:
        forms = {}
        for row in recorded_rows(experiment):
            if (row.get("segment", "0") in ("", "0") or "validation" not in row or
                    row.get("variant", "").startswith("torch")):
                continue
            # The runs of a program taken in turns ("run 1", "run 2", ...) are one form, as
            # course.validated_once counts them.
            variant = row.get("variant", "")
            variant = "" if re.fullmatch(r"run \d+", variant) else variant
            form = (variant,) + tuple(row.get(column) for column in ("program", "n", "values",
                                                                     "top", "type"))
            forms.setdefault(form, []).append(row)
        if any(not any(row["validation"] == "pass" for row in rows if int(row["segment"]) >= 1024)
               and any(int(row["segment"]) >= 1024 for row in rows) for rows in forms.values()):
            found.append(experiment)
    if not found:
        return "no chunk"
    if len(found) == 1:
        return f"the chunk {found[0]}"
    return f"the chunks {', '.join(found[:-1])} and {found[-1]}"


def data_files(*experiments):
    """'`docs/results/RECORD/segments.csv`, ...': the files of the record that hold the
    experiments' rows."""
    return ", ".join(f"`{path}`" for experiment in experiments
                     for path in RECORD.files(experiment)) or "(not recorded)"


def experiment_tool(name):
    """The command that records the experiment `name`."""
    return f"tools/experiments.py {name}"


def spoken_list(words):
    """'a, b and c' (or the one word, or '' for none)."""
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else words)


def log2(n):
    return int(n).bit_length() - 1


def ms(value):
    if value is None:
        return NOT_MEASURED
    if value >= 100:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.4f}"


def ratio(value, digits=2):
    return NOT_MEASURED if value is None else f"{value:.{digits}f}"


def table(header, rows, align=None):
    align = align or ["l"] + ["r"] * (len(header) - 1)
    marks = {"l": ":---", "r": "---:"}
    lines = ["| " + " | ".join(header) + " |",
             "| " + " | ".join(marks[a] for a in align) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def record_days(rows):
    """The date of the records, or the first and last when they span several days."""
    days = sorted({row.get("date", "?") for row in rows})
    return days[0] if len(days) == 1 else f"{days[0]} .. {days[-1]}"


def stages_by_day(rows):
    """Which stages' records come from which day: 'DAY: v0 .. v7, v12 .. v14; DAY: v8', each
    day's stages as runs of neighbours in the course's order."""
    order = course.course_stage_names()
    days = {}
    for row in rows:
        if row["program"] in order:
            days.setdefault(row["date"], set()).add(order.index(row["program"]))
    parts = []
    for day, indices in sorted(days.items()):
        runs = []
        for index in sorted(indices):
            if runs and runs[-1][1] == index - 1:
                runs[-1][1] = index
            else:
                runs.append([index, index])
        names = [order[first].split("_")[0] + ("" if first == last else
                                               " .. " + order[last].split("_")[0])
                 for first, last in runs]
        parts.append(f"{day}: {', '.join(names)}")
    return "; ".join(parts)


def recorded(rows, tool):
    """'Measured on one GPU (driver, CUDA) on DATE by TOOL', from the first record; DATE is
    record_days of the records."""
    first = rows[0]
    gpu = first.get("device") or first.get("gpu", "?")
    cuda = first.get("cuda_runtime", "")
    when = record_days(rows)
    return (f"Measured on one {gpu} (driver {first.get('nvidia_driver', '?')}"
            f"{', CUDA ' + cuda if cuda else ''}) on {when} by `{tool}`")


def checked_runs(rows):
    """How many of the rows' runs passed their check against std::sort (their column
    `validation`): 'every run', or 'N of the M runs' for a record made by tools/record.py,
    which skips the check after a program's first runs of a form (skipped_note)."""
    done = sum(row.get("validation") == "pass" for row in rows)
    return "every run" if done == len(rows) else f"{done} of the {len(rows)} runs"


def skipped_note(rows):
    """The sentence that says why some of the rows' runs were not checked, or ''."""
    if all(row.get("validation") == "pass" for row in rows):
        return ""
    return (" The other runs skipped the check: `tools/record.py` checks a program at its first "
            "runs of each form only (README, \"Measure the course on your GPU\").")


class Tour:
    """The tour's records, by (program, log2 n). Each record carries the copy bandwidth its own
    run measured (copy_gb_s), and its floor uses that."""

    def __init__(self):
        self.rows = recorded_rows("tour")
        # The tour's runs (the record's chunks of it) that left rows to quote.
        self.runs = [chunk for name, chunk in RECORD.chunks("tour")
                     if any(row["chunk"] == name for row in self.rows)]
        self.by_key = {}
        self.copies = []
        for row in self.rows:
            if row["program"] == "copy":
                self.copies.append(float(row["effective_gb_s"]))
            elif not row.get("segment") or row["segment"] == "0":
                self.by_key[(row["program"], log2(row["n"]))] = row

    def sizes(self):
        return sorted({q for (_, q) in self.by_key})

    def get(self, program, q):
        recorded_rows("tour")
        return self.by_key.get((program, q))

    def time(self, program, q):
        row = self.get(program, q)
        return float(row["sort_ms"]) if row else None

    def copy_gb_s(self, program, q):
        row = self.get(program, q)
        return float(row["copy_gb_s"]) if row and row["copy_gb_s"] else None

    def floor(self, program, q):
        row = self.get(program, q)
        return course.floor_ms(row, self.copy_gb_s(program, q)) if row else None

    def over_floor(self, program, q):
        time, floor = self.time(program, q), self.floor(program, q)
        return time / floor if time and floor else None

    def of_copy(self, program, q):
        row = self.get(program, q)
        if not row or not row["effective_gb_s"]:
            return None
        return float(row["effective_gb_s"]) / self.copy_gb_s(program, q)

    def speedup(self, faster, slower, q):
        a, b = self.time(faster, q), self.time(slower, q)
        return b / a if a and b else None

    def source(self):
        if not self.rows:
            return "(no tour recorded yet: run tools/record.py on a GPU)"
        copies = spoken_list([f"{copy:.0f}" for copy in self.copies])
        days = {row.get("date") for row in self.rows}
        count = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
                 8: "Eight"}.get(len(self.runs), str(len(self.runs)))
        runs = (f"{count} runs{' the same day' if len(days) == 1 else ''}: " +
                "; ".join(chunk["covers"] for chunk in self.runs) + ". "
                if len(self.runs) > 1 else "")
        return (recorded(self.rows, "tools/tour.py") + "; data: " + data_files("tour") + ". " +
                runs + f"Median of the timed runs after one warm-up; copy bandwidth {copies} "
                "GB/s, measured in the same run as the sorts it is set against.")


def stage_table(tour, stage, previous):
    """A stage against the stage before it and against its floor, at the headline sizes."""
    rows = []
    for q in HEADLINE_SIZES:
        row = tour.get(stage, q)
        rows.append([f"2^{q}", ms(tour.time(previous, q)), ms(tour.time(stage, q)),
                     f"{tour.speedup(stage, previous, q):.2f}x" if tour.speedup(
                         stage, previous, q) else NOT_MEASURED,
                     row["launches"] if row else NOT_MEASURED, ms(tour.floor(stage, q)),
                     ratio(tour.over_floor(stage, q)),
                     f"{float(row['effective_gb_s']):.0f}" if row else NOT_MEASURED])
    header = ["n", f"{previous} ms", f"{stage} ms", "speedup over the previous stage", "passes",
              "floor ms", "time / floor", "effective GB/s"]
    return table(header, rows) + "\n" + tour.source() + "\n"


def passes_table(tour, stages):
    """The passes (launches) each stage's program counted in the tour at 2^16, 2^20, 2^24, 2^27
    and 2^29: the counts the gpu suite holds to launches_per_sort (the chapter's tour table
    names the runs)."""
    rows = []
    for q in tour.sizes():
        if q in (16, 20, 24, 27, 29):
            found = [tour.get(stage, q) for stage in stages]
            rows.append([f"2^{q}"] + [row["launches"] if row else NOT_MEASURED for row in found])
    return table(["n"] + [f"{stage} passes" for stage in stages], rows) + "\n"


def v0_table(tour):
    rows = []
    for q in tour.sizes():
        row = tour.get("v0_naive", q)
        if row and (q % 2 == 0 or q in (27, 29)):
            time = tour.time("v0_naive", q)
            rows.append([f"2^{q}", row["launches"], ms(time), ms(tour.floor("v0_naive", q)),
                         ratio(tour.over_floor("v0_naive", q)),
                         f"{float(row['effective_gb_s']):.0f}",
                         f"{100 * tour.of_copy('v0_naive', q):.0f}%",
                         f"{1000 * time / int(row['launches']):.1f}"])
    return (table(["n", "launches", "sort ms", "floor ms", "time / floor", "effective GB/s",
                   "% of copy", "us per launch"], rows) + "\n" + tour.source() + "\n")


def progression(tour, q):
    """Every program at one size: speedups over the stage before and over the first row."""
    records = [tour.get(program, q) for program in
               ["std_sort"] + course.course_stage_names() + course.DEVICE_BASELINES]
    records = [record for record in records if record]
    # Each record's own run's copy bandwidth (the same for all records of one size).
    copy = tour.copy_gb_s(records[0]["program"], q) if records else None
    rows = []
    for row in course.progression_rows(records, copy):
        rows.append([f"`{row['program']}`", ms(row["time"]),
                     f"{row['over_previous']:.2f}" if row["over_previous"] else "",
                     f"{row['over_first']:.1f}", row["launches"],
                     f"{row['bandwidth']:.0f}" if row["bandwidth"] is not None else "",
                     f"{100 * row['of_copy']:.0f}%" if row["of_copy"] is not None else "",
                     f"{row['over_floor']:.2f}" if row["over_floor"] else ""])
    return (table(["program", "sort ms", "speedup over the previous stage",
                   "speedup over the first row", "passes", "effective GB/s", "% of copy",
                   "time / floor"], rows) + "\n" + tour.source() + "\n")


def readme_results(tour):
    """The README's stage table: every stage of stages.txt that has a chapter, measured or not."""
    rows = []
    for stage in course.stages():
        if not stage.chapter:
            continue
        row29 = tour.get(stage.name, 29)
        cells = [f"[`{stage.name}`](docs/{stage.chapter})", stage.idea,
                 row29["launches"] if row29 else NOT_MEASURED]
        cells += [ms(tour.time(stage.name, q)) for q in (20, 24, 29)]
        cells.append(ratio(tour.over_floor(stage.name, 29)))
        rows.append(cells)
    for program, label in (("cub_radix", "CUB radix sort (library)"),
                           ("std_sort", "std::sort, one CPU core")):
        rows.append([label, "", ""] + [ms(tour.time(program, q)) for q in (20, 24, 29)] + [""])
    return (table(["stage", "the one idea", "passes at 2^29", "2^20 ms", "2^24 ms", "2^29 ms",
                   "2^29 time / floor"], rows, ["l", "l"] + ["r"] * 5) + "\n" + tour.source() +
            " The floor is the stage's passes times one read and write of the array at the copy "
            "bandwidth; `docs/28_results.md` has the full story.\n")


# The stage the results chapter sets against the libraries at every size: v7, the last stage of
# the single-array progression of chapters 2 to 9. Beside it the crossover table names the
# fastest stage at each size (fastest_stage), which later stages can be.
REFERENCE_STAGE = "v7_register_tile"


def fastest_stage(tour, q):
    """The stage with the shortest sort of 2^q keys in the tour, or None."""
    timed = [(tour.time(name, q), name) for name in course.stage_names()
             if tour.time(name, q) is not None]
    return min(timed)[1] if timed else None


def over_fastest_stage(tour, program, q):
    """How many times faster `program` is than the fastest stage at 2^q."""
    stage = fastest_stage(tour, q)
    return tour.speedup(program, stage, q) if stage else None


def crossover(tour):
    rows = []
    for q in tour.sizes():
        stage = fastest_stage(tour, q)
        best = tour.time(stage, q)
        libraries = [tour.time(program, q) for program in course.DEVICE_BASELINES]
        fastest_library = min((time for time in libraries if time), default=None)
        rows.append([f"2^{q}", ms(tour.time("v5_bank_free", q)),
                     ms(tour.time(REFERENCE_STAGE, q)), f"`{stage}`", ms(best)] +
                    [ms(time) for time in libraries] +
                    [f"{best / fastest_library:.2f}x" if fastest_library else "",
                     ms(tour.time("std_sort", q))])
    header = ["n", "v5 ms", "v7 ms", "fastest stage", "its ms", "CUB radix ms", "CUB merge ms",
              "thrust ms", "its time / fastest library's", "std::sort ms"]
    return (table(header, rows, ["l", "r", "r", "l"] + ["r"] * 6) + "\n" + tour.source() +
            " The fastest stage: of all stages, the one with the shortest sort at that size.\n")


def size_name(q):
    return f"2^{q}" if q is not None else "no size"


def crossover_size(tour, stage, program):
    return size_name(faster_up_to(tour, stage, program))


def cpu_crossover_size(tour):
    return size_name(stages_beat_cpu_from(tour))


def totals(tour):
    """Sort time against total time (pinned transfers included) for REFERENCE_STAGE and CUB
    radix."""
    rows = []
    for q in HEADLINE_SIZES:
        for program in (REFERENCE_STAGE, "cub_radix"):
            row = tour.get(program, q)
            if not row:
                continue
            sort, total = float(row["sort_ms"]), float(row["total_ms"])
            rows.append([f"2^{q}", f"`{program}`", ms(sort), ms(total),
                         f"{100 * (total - sort) / total:.0f}%"])
    return table(["n", "program", "sort ms", "total ms (pinned copies + sort)",
                  "share of the copies"], rows, ["l", "l", "r", "r", "r"]) + "\n" + \
        tour.source() + "\n"


def transfers_table():
    rows = recorded_rows("transfers")
    if not rows:
        return NOT_MEASURED + "\n"
    body = [[row["memory"], row["direction"].replace("_", " "),
             f"{int(row['bytes']) / 2**30:.0f} GiB", ms(float(row["ms"])),
             f"{float(row['gb_s']):.1f}"] for row in rows]
    return (table(["host memory", "direction", "size", "ms", "GB/s"], body,
                  ["l", "l", "r", "r", "r"]) + "\n" +
            recorded(rows, "tools/transfers.cu") +
            f" (median of {rows[0]['reps']} copies after one warm-up); data: " +
            data_files("transfers") + ".\n")


def banks_table(stages):
    rows = recorded_rows("bank_conflicts")
    body = [[f"`{row['stage']}`", f"`{row['kernel']}`", row["shared_store_instructions"],
             row["shared_store_wavefronts"], row["store_bank_conflicts"],
             row["shared_load_instructions"], row["shared_load_wavefronts"],
             row["load_bank_conflicts"]]
            for row in rows if row["stage"] in stages]
    return (table(["program", "kernel", "shared stores", "store wavefronts", "store conflicts",
                   "shared loads", "load wavefronts", "load conflicts"], body,
                  ["l", "l"] + ["r"] * 6) + "\n" +
            recorded(rows, "tools/measure_banks.py") +
            f", first launch of each kernel at n = {rows[0]['n']} keys; data: " +
            data_files("bank_conflicts") + ". Instructions are warp instructions "
            "(`smsp__sass_inst_executed_op_shared_st/ld.sum`); wavefronts are the passes the "
            "shared-memory pipeline made for them "
            "(`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st/ld.sum`); conflicts are "
            "`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st/ld.sum`.\n")


def bank_conflicts(stage, kernel):
    """v:bank-conflicts:STAGE:KERNEL, the shared-memory bank conflicts of loads and stores
    together in the first launch of the kernel (measure_banks.py)."""
    for row in recorded_rows("bank_conflicts"):
        if row["stage"] == stage and row["kernel"] == kernel:
            return str(int(row["load_bank_conflicts"]) + int(row["store_bank_conflicts"]))
    return NOT_MEASURED


def sass_counts():
    """{(program, kernel): {instruction: count}} of the record's sass_memory (measure_banks.py
    --sass-csv), and its rows."""
    rows = recorded_rows("sass_memory")
    counts = {}
    for row in rows:
        counts.setdefault((row["stage"], row["kernel"]), {})[row["instruction"]] = row["count"]
    return counts, rows


def sass_count(program, kernel, opcode):
    """How many OPCODE instructions the machine code of PROGRAM's KERNEL holds."""
    counts, _ = sass_counts()
    if (program, kernel) not in counts:
        return NOT_MEASURED
    return counts[(program, kernel)].get(opcode, "0")


def sass_table(kernel, stages, opcodes):
    counts, rows = sass_counts()
    body = [[f"`{stage}`"] + [counts[(stage, kernel)].get(op, "0") for op in opcodes]
            for stage in stages if (stage, kernel) in counts]
    shown = [row for row in rows if row["stage"] in stages and row["kernel"] == kernel]
    return (table([f"{kernel} of"] + [f"`{op}`" for op in opcodes], body) +
            f"\nInstructions in the machine code of `{kernel}` (each counted once however often "
            f"it runs), from `cuobjdump -sass` of the measured build ({rows[0]['gpu']}, "
            f"{record_days(shown)}; data: {data_files('sass_memory')}).\n")


def sass_kernels_table(stages, kernels, opcodes):
    """Like sass_table, one row per program and kernel."""
    counts, rows = sass_counts()
    body = [[f"`{stage}`", f"`{kernel}`"] + [counts[(stage, kernel)].get(op, "0") for op in opcodes]
            for stage in stages for kernel in kernels if (stage, kernel) in counts]
    if not body:
        return NOT_MEASURED + "\n"
    shown = [row for row in rows if row["stage"] in stages and row["kernel"] in kernels]
    return (table(["program", "kernel"] + [f"`{op}`" for op in opcodes], body,
                  ["l", "l"] + ["r"] * len(opcodes)) +
            f"\nInstructions in the machine code of each kernel (each counted once however often "
            f"it runs), from `cuobjdump -sass` of the measured builds ({rows[0]['gpu']}, "
            f"{record_days(shown)}; data: {data_files('sass_memory')}).\n")


# Per-multiprocessor limits that bound how many warps stay resident, by compute capability: the
# CUDA C++ Programming Guide, "Technical Specifications per Compute Capability": 65536 32-bit
# registers on each, given to a warp in units of 256, and at most this many resident warps.
RESIDENT_WARPS = {"75": 32, "80": 64, "86": 48, "87": 48, "89": 48, "90": 64, "100": 64,
                  "120": 48}
SM_REGISTERS, REGISTER_UNIT = 65536, 256


def record_arch():
    """The compute capability the record's registers were compiled for ('90'), or None."""
    rows = recorded_rows("registers")
    return rows[0]["arch"].replace("sm_", "") if rows else None


def registers(stage, kernel, column="registers"):
    """The registers per thread of a stage's kernel (multistep<k> for one number of steps), or
    another column of its record (spill_bytes), as tools/registers.py recorded them, or None."""
    for row in recorded_rows("registers"):
        if row["stage"] == stage and row["kernel"] == kernel:
            return int(row[column])
    return None


def multistep_block_threads():
    """The threads of a multistep block (kThreadsPerBlock, which v7 keeps from v6), as Nsight
    Compute recorded v7's multistep launches (the record's occupancy), or None."""
    found = {int(float(row["block_threads"])) for row in recorded_rows("occupancy")
             if row["kernel"] == "multistep"}
    if len(found) > 1:
        raise ValueError(f"multistep launches of several block sizes: {sorted(found)}")
    return found.pop() if found else None


def resident_warps(registers_per_thread, block_threads, arch="90"):
    """Warps one multiprocessor of compute capability `arch` keeps resident when registers are
    the only limit, in whole blocks of block_threads threads."""
    per_warp = -(-registers_per_thread * 32 // REGISTER_UNIT) * REGISTER_UNIT
    warps_per_block = block_threads // 32
    blocks = min(SM_REGISTERS // per_warp, RESIDENT_WARPS[arch]) // warps_per_block
    return blocks * warps_per_block


def registers_table(stage):
    """multistep<k> of a stage: registers per thread, keys per thread, and the warps that stay
    resident on a multiprocessor."""
    rows = recorded_rows("registers")
    block_threads = multistep_block_threads()
    arch = record_arch()
    if block_threads is None or arch not in RESIDENT_WARPS:
        return NOT_MEASURED + "\n"
    body = []
    for steps in range(1, 7):
        count = registers(stage, f"multistep<{steps}>")
        if count is None:
            continue
        body.append([f"`multistep<{steps}>`", str(1 << steps), str(count),
                     str(resident_warps(count, block_threads, arch))])
    if not body:
        return NOT_MEASURED + "\n"
    first = rows[0]
    return (table(["kernel", "keys per thread", "registers per thread",
                   "warps resident per multiprocessor"], body) +
            f"\nRegisters as `nvcc {first['nvcc']} -Xptxas -v` reports them for {first['arch']}, "
            f"recorded by `tools/registers.py` on {first['date']} (data: " +
            data_files("registers") + f"); resident warps from the {SM_REGISTERS} registers "
            f"and {RESIDENT_WARPS[arch]} warps per multiprocessor of compute capability "
            f"{arch[:-1]}.{arch[-1]} (CUDA C++ Programming Guide), registers given out "
            f"{REGISTER_UNIT} at a time, in whole blocks of "
            f"{block_threads} threads (the block size Nsight Compute recorded for the multistep "
            "launches, " + data_files("occupancy") + ").\n")


def words_registers_table(stage="v12_key_words"):
    """Each in-block kernel and multistep<k> of the stage built for 64-bit items and for 32-bit
    words (tools/registers.py): registers per thread and shared memory per block."""
    rows = {row["kernel"]: row for row in recorded_rows("registers") if row["stage"] == stage}
    body = []
    for kernel in ["block_sort", "block_merge"] + [f"multistep<{k}>" for k in range(1, 7)]:
        item, word = rows.get(kernel), rows.get(f"{kernel} (32-bit words)")
        if item and word:
            body.append([f"`{kernel}`", item["registers"], word["registers"],
                         item["shared_bytes"], word["shared_bytes"]])
    if not body:
        return NOT_MEASURED + "\n"
    first = next(iter(rows.values()))
    return (table(["kernel", "registers, items", "registers, words", "shared bytes, items",
                   "shared bytes, words"], body) +
            f"\nRegisters per thread and shared memory per block as `nvcc {first['nvcc']} "
            f"-Xptxas -v` reports them for {first['arch']}, recorded by `tools/registers.py` on "
            f"{first['date']} (data: {data_files('registers')}).\n")


def lower_partner_examples(network_dump):
    """Worked examples of get_lower_partner: the pairs come from the header's own function
    (network_dump lower); offset and run start are read off the answer (lower = run start +
    offset, run start a multiple of 2 * stride)."""
    rows = []
    for thread, stride in [(0, 1), (1, 1), (6, 1), (6, 2), (6, 4), (6, 8), (11, 4), (13, 8)]:
        lower, upper = figures.lower_partners(network_dump, stride, thread + 1)[thread]
        offset = lower % (2 * stride)
        rows.append([str(thread), f"{thread:04b}", str(stride), str(offset), str(lower - offset),
                     f"{lower} ({lower:05b})", str(upper)])
    return table(["thread t", "t in binary", "stride", "offset = t & (stride - 1)",
                  "run start = 2 (t - offset)", "lower", "upper = lower + stride"], rows)


# ---------------------------------------------------------------------------------------------
# Nsight Compute: where each stage's time goes


class Profile:
    """The record's kernel_times (every launch of one sort) and kernel_metrics (the first launch
    and the last merge, with their metrics), from tools/profile_kernels.py; with another `kind`,
    a lab chunk's own KIND_times and KIND_metrics (tools/record.py's profile_27), which the
    chapters' profile leaves out."""

    def __init__(self, kind="kernel"):
        self.kind = kind

    # Read through the record on each use, so that a block that reads them is known to
    # (records.Record.touched).
    @property
    def times(self):
        return recorded_rows(f"{self.kind}_times")

    @property
    def metrics(self):
        return recorded_rows(f"{self.kind}_metrics")

    def launches(self, stage, q):
        return [row for row in self.times if row["stage"] == stage and log2(row["n"]) == q]

    def copy_ms(self, stage, q):
        rows = self.launches(stage, q)
        return float(rows[0]["copy_ms"]) if rows else None

    def kernels(self, stage, q):
        """kernel -> (launches, share of the sort's kernel time, median copies per launch)."""
        rows = self.launches(stage, q)
        total = sum(float(row["duration_ns"]) for row in rows)
        copy_ns = 1e6 * self.copy_ms(stage, q)
        found = {}
        for kernel in dict.fromkeys(row["kernel"] for row in rows):
            durations = [float(row["duration_ns"]) for row in rows if row["kernel"] == kernel]
            found[kernel] = (len(durations), sum(durations) / total,
                             statistics.median(durations) / copy_ns)
        return found

    def metric_rows(self, stage, q, kernel):
        return [row for row in self.metrics if row["stage"] == stage and log2(row["n"]) == q and
                row["kernel"] == kernel]

    def source(self):
        return (recorded(self.metrics or self.times, "tools/profile_kernels.py") +
                " with Nsight Compute (`--clock-control none --cache-control none`), the second "
                "of two sorts; data: " + data_files(f"{self.kind}_times") + ", " +
                data_files(f"{self.kind}_metrics") + ". A copy is the time the copy baseline "
                "takes to read and write the same keys, measured in the same run.")


def stall_text(row):
    parts = []
    for rank in (1, 2, 3):
        reason, cycles = row[f"stall_{rank}"], row[f"stall_{rank}_cycles"]
        if reason:
            parts.append(f"{reason.replace('_', ' ')} {float(cycles):.1f}")
    return ", ".join(parts)


def profile_table(profile, stages, sizes=(20, 27)):
    """Per stage and size, per kernel: launches, share of the sort's kernel time, copies per
    launch (median), and for the first launch or the last merge's launch of that kernel (the
    one ncu profiled in full): DRAM throughput as a share of peak, achieved occupancy, shared-
    memory wavefronts per key and the three largest warp stall reasons."""
    rows = []
    for stage in stages:
        for q in sizes:
            if not profile.launches(stage, q):
                rows.append([f"`{stage}`", f"2^{q}", NOT_MEASURED] + [""] * 7)
                continue
            for kernel, (count, share, copies) in profile.kernels(stage, q).items():
                detail = profile.metric_rows(stage, q, kernel)
                # The launch of the kernel with the largest stride of the last merge.
                pick = detail[0] if detail else None
                cells = [f"`{stage}`", f"2^{q}", f"`{kernel}`", str(count), f"{100 * share:.0f}%",
                         f"{copies:.2f}"]
                if pick:
                    keys = 1 << q
                    cells += [f"{float(pick['dram_pct_of_peak']):.0f}%",
                              f"{float(pick['achieved_occupancy_pct']):.0f}%",
                              f"{float(pick['shared_wavefronts']) / keys:.2f}", stall_text(pick)]
                else:
                    cells += [""] * 4
                rows.append(cells)
    return (table(["stage", "n", "kernel", "launches", "share of the time", "copies per launch",
                   "DRAM, % of peak", "achieved occupancy", "shared wavefronts per key",
                   "largest stall reasons (cycles per instruction)"], rows,
                  ["l", "l", "l"] + ["r"] * 6 + ["l"]) +
            "\n" + profile.source() + " The last four columns are those of the kernel's first "
            "launch in the sort's last merge (for block_sort, its only launch).\n")


STRIDE_CLASSES = [("below 32", lambda stride, n: stride < 32),
                  ("32 to 2^11", lambda stride, n: 32 <= stride < 2048),
                  ("2^11 to n / 4", lambda stride, n: 2048 <= stride < n // 2),
                  ("n / 2, the largest", lambda stride, n: stride == n // 2)]


def stride_table(profile, stages, sizes=(20, 27)):
    """The cost of bitonic_step (or multistep) launches by the stride they start at: the median
    launch in copies of the array."""
    rows = []
    kernels = set()
    for stage in stages:
        for q in sizes:
            launches = [row for row in profile.launches(stage, q)
                        if row["kernel"] in ("bitonic_step", "multistep")]
            if not launches:
                continue
            kernels.update(row["kernel"] for row in launches)
            copy_ns = 1e6 * profile.copy_ms(stage, q)
            cells = [f"`{stage}`", f"2^{q}"]
            for _, belongs in STRIDE_CLASSES:
                durations = [float(row["duration_ns"]) for row in launches
                             if belongs(int(row["stride"]), 1 << q)]
                cells.append(f"{statistics.median(durations) / copy_ns:.2f} ({len(durations)})"
                             if durations else "")
            rows.append(cells)
    return (table(["stage", "n"] + [f"stride {name}" for name, _ in STRIDE_CLASSES], rows) +
            "\nMedian launch time of `bitonic_step`" +
            (" (`multistep` from v6 on, by its largest stride)" if "multistep" in kernels else
             "") + " in copies of the array, and in brackets the number of such launches in "
            "one sort. " +
            profile.source() + "\n")


def merge_launches(profile, stage, q, kernel):
    """The kernel's profiled launches of the sort's last merge (size n), largest stride first."""
    rows = [row for row in profile.metric_rows(stage, q, kernel)
            if int(row["size"]) == 1 << q]
    return sorted(rows, key=lambda row: -int(row["stride"]))


def written_share(profile, stage, q, kernel, stride=None):
    """Bytes written over bytes read from device memory: by the launch of the last merge with
    that stride, or by all of the last merge's launches together."""
    rows = merge_launches(profile, stage, q, kernel)
    if stride is not None:
        rows = [row for row in rows if int(row["stride"]) == stride]
    read = sum(float(row["dram_read_bytes"]) for row in rows)
    return sum(float(row["dram_write_bytes"]) for row in rows) / read if read else None


def written_table(profile, stage, q, kernel):
    """Per run of launches of the last merge whose times lie within 0.03 copies of the run's
    first: their strides, DRAM bytes read and written, the ratio, DRAM throughput and time in
    copies of the array, each as 'lowest .. highest' (one row per stride would be n's log2)."""
    durations = {int(row["stride"]): float(row["duration_ns"])
                 for row in profile.launches(stage, q) if row["kernel"] == kernel and
                 int(row["size"]) == 1 << q}
    copy_ns = 1e6 * profile.copy_ms(stage, q)
    groups = []
    for row in merge_launches(profile, stage, q, kernel):
        copies = durations[int(row["stride"])] / copy_ns
        if not groups or abs(copies - groups[-1][0][0]) > 0.03:
            groups.append([])
        groups[-1].append((copies, row))
    body = []
    for group in groups:
        rows = [row for _, row in group]
        strides = [log2(int(row["stride"])) for row in rows]
        read = [float(row["dram_read_bytes"]) for row in rows]
        written = [float(row["dram_write_bytes"]) for row in rows]
        stride = f"2^{strides[0]}" + (f" .. 2^{strides[-1]}" if len(strides) > 1 else "")
        body.append([stride, range_text([value / 2**20 for value in read], "{:.0f}"),
                     range_text([value / 2**20 for value in written], "{:.0f}"),
                     range_text([w / r for w, r in zip(written, read)], "{:.2f}"),
                     range_text([float(row["dram_pct_of_peak"]) for row in rows], "{:.0f}%"),
                     range_text([copies for copies, _ in group], "{:.2f}")])
    return (table(["strides", "read MiB", "written MiB", "written / read", "DRAM, % of peak",
                   "copies"], body) + "\n" + f"The `{kernel}` launches of the last merge of "
            f"`{stage}` at n = 2^{q} (the merge of size n, strides n / 2 down to 1), the second "
            "of two sorts of uniform keys; a row holds the strides whose launches took within "
            "0.03 copies of its first one's time. " + profile.source() + "\n")


# ---------------------------------------------------------------------------------------------
# The recorded experiments


def experiment_table(name, sizes=HEADLINE_SIZES, baseline=None, baseline_label=None):
    """Sort time of each variant of an experiment at each size, and the ratio to `baseline`
    (named `baseline_label` in the header, or by its variant's name)."""
    rows = recorded_rows(name)
    if not rows:
        return NOT_MEASURED + "\n"
    variants = list(dict.fromkeys(row["variant"] for row in rows))
    times = {(row["variant"], log2(row["n"])): float(row["sort_ms"]) for row in rows}
    passes = {(row["variant"], log2(row["n"])): row["passes"] for row in rows}
    measured = [q for q in sizes if any((v, q) in times for v in variants)]
    body = []
    for variant in variants:
        cells = [variant]
        for q in measured:
            time = times.get((variant, q))
            # Library calls have no count of passes: their time alone.
            count = passes.get((variant, q))
            cells.append(f"{ms(time)}{f' ({count})' if count else ''}" if time else NOT_MEASURED)
        if baseline:
            base = times.get((baseline, measured[-1]))
            cells.append(f"{times[(variant, measured[-1])] / base:.2f}")
        body.append(cells)
    header = ["variant"] + [f"2^{q} ms (passes)" for q in measured]
    if baseline:
        label = baseline_label or f"{baseline}'s"
        header.append(f"time at 2^{measured[-1]} / {label}")
    return (table(header, body) + "\n" + recorded(rows, experiment_tool(name)) +
            f"; data: {data_files(name)}. Median of the timed runs after one "
            f"warm-up, {checked_runs(rows)} checked against std::sort." + skipped_note(rows) + "\n")


def experiment_time(name, variant, q, segment=None):
    for row in recorded_rows(name):
        if row["variant"] == variant and log2(row["n"]) == q and (
                segment is None or int(row["segment"]) == segment):
            return float(row["sort_ms"])
    return None


def experiment_passes(name, variant, q):
    """The passes (launches) VARIANT made at 2^q in experiment NAME, or None."""
    for row in recorded_rows(name):
        if row["variant"] == variant and log2(row["n"]) == q and row["passes"]:
            return int(row["passes"])
    return None


def segment_times(name="segments"):
    """program -> {log2 L: ms} from the segments experiment (or v8_mapping's variants)."""
    found = {}
    for row in recorded_rows(name):
        found.setdefault(row["variant"], {})[log2(row["segment"])] = float(row["sort_ms"])
    return found


# The rivals of v8_batched in the segments experiment, with the names the table gives them.
SEGMENT_RIVALS = {"cub_segmented": "DeviceSegmentedSort", "cub_segmented_radix":
                  "DeviceSegmentedRadixSort", "cub_packed_radix": "packed DeviceRadixSort",
                  "torch.sort": "torch.sort"}


def fastest_rival(times, s, rivals=SEGMENT_RIVALS):
    """(variant, ms) of the fastest of `rivals` (any programs: segment_stages asks it for the
    fastest stage too) measured for arrays of 2^s keys, or (None, None)."""
    measured = [(times[name][s], name) for name in rivals if s in times.get(name, {})]
    return (min(measured)[1], min(measured)[0]) if measured else (None, None)


def segments_table():
    rows = recorded_rows("segments")
    if not rows:
        return NOT_MEASURED + "\n"
    times = segment_times()
    batched = times.get("v8_batched", {})
    copy_ms = segment_copy_ms()
    body = []
    for s in sorted(batched):
        rival, rival_ms = fastest_rival(times, s)
        cells = [f"2^{s} ({1 << s})", ms(batched[s]),
                 f"{batched[s] / copy_ms:.1f}" if copy_ms else ""]
        cells += [ms(times.get(name, {}).get(s)) if s in times.get(name, {}) else "-"
                  for name in SEGMENT_RIVALS]
        cells += [SEGMENT_RIVALS[rival], f"{rival_ms / batched[s]:.1f}x"]
        body.append(cells)
    header = ["array length L", "v8_batched ms", "in copies"] + [
        f"{name} ms" for name in SEGMENT_RIVALS.values()] + ["fastest rival", "rival / v8"]
    return (table(header, body) + "\n" +
            recorded(rows, "tools/experiments.py segments") +
            "; data: " + data_files("segments") + ". 2^27 keys in all, uniform over int32 "
            "(torch.sort's drawn by torch's own generator); median of 5 timed runs after one "
            "warm-up (1 for DeviceSegmentedRadixSort with L <= 64), every "
            f"array of {checked_runs(rows)} checked (against std::sort; torch.sort's rows for "
            "order and permutation). torch.sort also returns every key's index (int64), and "
            "runs up to "
            "2^16 keys per array only (-). " + radix_note(times) + "A copy is the copy "
            f"baseline's time for the 2^27 keys on the same GPU, {data_files('copy')}." +
            skipped_note(rows) + "\n")


def radix_note(times):
    """Where the segments experiment left DeviceSegmentedRadixSort's shortest arrays out: from
    which length it ran, and how its time grew as L halved down to there."""
    radix, batched = times.get("cub_segmented_radix", {}), times.get("v8_batched", {})
    if not radix or not batched or min(radix) <= min(batched):
        return ""
    lengths = [s for s in sorted(radix) if s <= 10]
    growth = [radix[shorter] / radix[longer] for shorter, longer in zip(lengths, lengths[1:])]
    grew = (f": from 2^{lengths[-1]} down, each halving of L took {min(growth):.1f}x .. "
            f"{max(growth):.1f}x its time" if growth else "")
    return (f"DeviceSegmentedRadixSort gives each array a block of its own and ran from "
            f"2^{min(radix)} keys per array only (-){grew}. ")


def argsorts_table():
    rows = recorded_rows("argsorts")
    if not rows:
        return NOT_MEASURED + "\n"
    times = segment_times("argsorts")
    names = ARGSORT_RIVALS
    body = []
    for s in sorted(times.get("cub_segmented", {})):
        rival, _ = fastest_rival(times, s, names)
        body.append([f"2^{s} ({1 << s})"] + [ms(times.get(name, {}).get(s)) for name in names] +
                    [names[rival]])
    header = ["array length L"] + [f"{name} ms" for name in names.values()] + ["fastest"]
    return (table(header, body) + "\n" +
            recorded(rows, "tools/experiments.py argsorts") +
            "; data: " + data_files("argsorts") + ". 2^27 keys in all, uniform over int32; "
            "each key's value is its position in its array (int32; torch.sort's indices are "
            "int64), written by the timed code; median of 5 timed runs after one warm-up; the "
            f"keys of {checked_runs(rows)} checked against std::sort and the indices for pointing "
            "at them "
            "(torch.sort's rows for order and permutation)." + skipped_note(rows) + "\n")


# The libraries' argsorts in the argsorts experiment, with the names the tables give them.
ARGSORT_RIVALS = {"cub_segmented": "DeviceSegmentedSort::SortPairs",
                  "cub_packed_radix": "packed DeviceRadixSort::SortPairs",
                  "torch.sort": "torch.sort"}


def argsort_stage_table(largest=12):
    """v9_argsort's argsort against v8's keys and against the fastest library argsort, for
    arrays of up to 2^largest keys."""
    rows = recorded_rows("argsorts")
    times = segment_times("argsorts")
    stage = times.get("v9_argsort", {})
    if not stage:
        return NOT_MEASURED + "\n"
    keys, items = times.get("v8_batched keys", {}), times.get("v9_argsort keys", {})
    body = []
    for s in sorted(q for q in stage if q <= largest):
        rival, rival_ms = fastest_rival(times, s, ARGSORT_RIVALS)
        body.append([f"2^{s} ({1 << s})", ms(keys.get(s)), ms(items.get(s)), ms(stage[s]),
                     f"{stage[s] / keys[s]:.1f}x" if s in keys else NOT_MEASURED,
                     f"{ARGSORT_RIVALS[rival]} {ms(rival_ms)}" if rival else NOT_MEASURED,
                     f"{rival_ms / stage[s]:.1f}x" if rival else NOT_MEASURED])
    header = ["array length L", "v8 keys ms", "v9 keys ms", "v9 --values ms",
              "--values / v8 keys", "fastest library argsort, ms", "its time / v9's"]
    return (table(header, body) + "\n" +
            recorded(rows, "tools/experiments.py argsorts") +
            "; data: " + data_files("argsorts") + ". 2^27 keys in all, uniform over int32; "
            "median of 5 timed runs after one warm-up, all programs in one run; the keys of "
            f"{checked_runs(rows)} checked against std::sort and their indices for pointing at "
            "them. v9 keys is "
            "v9_argsort without --values." + skipped_note(rows) + "\n")


def word_argsorts_table():
    """The lab's argsorts, tools/word_argsort (two sorts of 32-bit words), tools/rank_argsort (a
    sort of the keys, then a search) and tools/prefix_argsort (one sort of words, then a fix-up),
    against v9's argsort, v8's keys and torch.sort, all from the word_argsorts experiment (one
    run)."""
    rows = recorded_rows("word_argsorts")
    times = segment_times("word_argsorts")
    words, ranks = times.get("word_argsort", {}), times.get("rank_argsort", {})
    prefixes = times.get("prefix_argsort", {})
    if not words:
        return NOT_MEASURED + "\n"
    keys, items = times.get("v8_batched keys", {}), times.get("v9_argsort", {})
    rival = times.get("torch.sort", {})

    def over(numerator, denominator, s):
        return ratio(numerator[s] / denominator[s]) if s in numerator and s in denominator \
            else NOT_MEASURED

    body = [[f"2^{s} ({1 << s})", ms(keys.get(s)), ms(items.get(s)), ms(words[s]),
             ms(ranks.get(s)), ms(prefixes.get(s)), over(words, keys, s), over(ranks, keys, s),
             over(prefixes, keys, s), ms(rival.get(s)), over(rival, prefixes, s)]
            for s in sorted(words)]
    header = ["array length L", "v8 keys ms", "v9 --values ms", "word_argsort --values ms",
              "rank_argsort --values ms", "prefix_argsort --values ms", "word_argsort / v8 keys",
              "rank_argsort / v8 keys", "prefix_argsort / v8 keys", "torch.sort ms",
              "torch.sort / prefix_argsort"]
    return (table(header, body) + "\n" +
            recorded(rows, "tools/experiments.py word_argsorts") +
            "; data: " + data_files("word_argsorts") + ". 2^27 keys in all, uniform over int32 "
            "(torch.sort's drawn by torch's own generator); median of 5 timed runs after one "
            f"warm-up, all programs in one run; the keys of {checked_runs(rows)} checked against "
            "std::sort and their indices for pointing at them (torch.sort's rows for order and "
            "permutation). v8 keys "
            "is v8_batched without --values; torch.sort returns int64 indices." +
            skipped_note(rows) + "\n")


def segment_ratio(name, program, other, s):
    """PROGRAM's time over OTHER's for arrays of 2^s keys in the experiment `name` (segments,
    argsorts, word_argsorts, ...); None where either was not measured."""
    times = segment_times(name)
    mine, theirs = times.get(program, {}).get(s), times.get(other, {}).get(s)
    return mine / theirs if mine and theirs else None


def overtaking_length(name, program, other, smallest=0):
    """judging.faster_from on the experiment `name` (segments, argsorts, word_argsorts, ...), on
    its array lengths from 2^smallest up, as an array length."""
    times = {run: {s: time for s, time in by_length.items() if s >= smallest}
             for run, by_length in segment_times(name).items()}
    s = faster_from(times, program, other)
    return None if s is None else 1 << s


def tour_times(tour, programs, lowest, highest=None):
    """{program: {q: ms}} at the tour's sizes from 2^lowest up (to 2^highest where given) at
    which any of `programs` ran. KeyError, a want of runs (a claim on it is left unchecked),
    where the record holds the tour only in part (a chunk of it stale or not made: a crossing
    found in the rest can be wrong), where one of them did not run at such a size, or where none
    ran at all."""
    if RECORD is not None and RECORD.incomplete(["tour"]):
        raise KeyError(f"record {RECORD.name} holds the tour in part")
    sizes = [q for q in tour.sizes() if q >= lowest and (highest is None or q <= highest) and
             any(tour.time(name, q) is not None for name in programs)]
    gaps = [f"{name} at 2^{q}" for q in sizes for name in programs if tour.time(name, q) is None]
    if not sizes or gaps:
        raise KeyError(f"the tour has no runs of {', '.join(gaps) or ' and '.join(programs)}")
    return {name: {q: tour.time(name, q) for q in sizes} for name in programs}


def tour_overtaking_size(tour, program, other, smallest):
    """judging.faster_from on the tour's sizes from 2^smallest up, as "2^Q" ("no size" where
    they do not cross exactly once there)."""
    return size_name(faster_from(tour_times(tour, (program, other), smallest), program, other))


def tour_slower_sizes(tour, program, other, lowest, highest):
    """The tour's sizes from 2^lowest to 2^highest at which `program` took longer than `other`,
    as "2^a, 2^b and 2^c" ("none" where it never did)."""
    times = tour_times(tour, (program, other), lowest, highest)
    sizes = [f"2^{q}" for q in sorted(times[program]) if times[program][q] > times[other][q]]
    return spoken_list(sizes) or "none"


# How ncu_facts.py measures a launch, for the notes under its tables.
UNDER_NCU = "under Nsight Compute (clocks and caches left as they are)"


def item_rows():
    """{(stage, variant, segment): row} of the record's items."""
    return {(row["stage"], row["variant"], int(row["segment"])): row
            for row in recorded_rows("items")}


ITEM_CASES = [("v8_batched", "8 keys per thread"), ("v9_argsort", "keys"),
              ("v9_argsort", "keys and indices")]


def items_table():
    """block_sort of v8's keys (with v9's mapping) and v9's items under Nsight Compute."""
    rows = item_rows()
    if not rows:
        return NOT_MEASURED + "\n"
    body = []
    for segment in sorted({key[2] for key in rows}):
        for stage, variant in ITEM_CASES:
            row = rows.get((stage, variant, segment))
            if row is None:
                continue
            body.append([segment, f"{stage} {variant}", ms(float(row["duration_ns"]) / 1e6),
                         f"{float(row['instructions']) / 1e6:.0f}", f"{float(row['registers']):g}",
                         metric_text(row, "achieved_occupancy_pct"),
                         f"{float(row['dram_write_bytes']) / 2**20:.0f}",
                         f"{float(row['shared_wavefronts']) / 1e6:.1f}"])
    header = ["L", "program", "block_sort ms", "warp instructions (millions)",
              "registers", "achieved occupancy", "DRAM MiB written",
              "shared wavefronts (millions)"]
    return (table(header, body) + "\n" +
            recorded(list(rows.values()), "tools/ncu_facts.py items") +
            "; data: " + data_files("items") + ". 2^27 keys, one launch (block_sort) per sort; "
            f"the second sort's launch, {UNDER_NCU}.\n")


def millions(value):
    """A count in millions: one decimal below 10 million, so that half a million does not read
    as none or one."""
    return f"{value / 1e6:.{1 if value < 1e7 else 0}f}"


def metric_text(row, column):
    """One Nsight Compute column of a record (ncu_facts.py), as the prose quotes it."""
    if row is None:
        return NOT_MEASURED
    value = float(row[column])
    if column == "duration_ns":
        return f"{value / 1e6:.2f} ms"
    if column.endswith("_bytes"):
        return f"{value / 2**20:.0f} MiB"
    if column in ("instructions", "alu_instructions", "lsu_instructions", "shared_wavefronts",
                  "shared_bank_conflicts", "l2_write_sectors", "l2_read_sectors"):
        return "none" if value == 0 else f"{millions(value)} million"
    if column.endswith("_stall"):
        return f"{value:.1f} cycles"
    return f"{value:.0f}%" if column.endswith("_pct") else f"{value:g}"


def item_value(stage, variant, segment, column):
    """One column of the record's items."""
    return metric_text(item_rows().get((stage, variant, segment)), column)


def item_ratio(column, segment):
    """v9_argsort's keys over v8_batched's keys with v9's mapping (8 a thread) in one column of
    the record's items."""
    rows = item_rows()
    new = rows.get(("v9_argsort", "keys", segment))
    old = rows.get(("v8_batched", "8 keys per thread", segment))
    if new is None or old is None:
        return NOT_MEASURED
    return f"{float(new[column]) / float(old[column]):.1f}x"


def fact_rows(name, key):
    """{(row[key], segment): row} of the record's experiment NAME (ncu_facts.py), in recorded
    order. A KEY of columns joined by '+' names a row by their values joined by ", "
    ("stage+variant": "v24_warp_rounds, as built"), where one column alone names several rows."""
    return {(", ".join(row[column] for column in key.split("+")), int(row["segment"])): row
            for row in recorded_rows(name)}


# The columns of warp_round_kernels_table: heading, column of the record, and how a cell
# shows it (millions of instructions or wavefronts, a share of the time, milliseconds).
WARP_ROUND_COLUMNS = [("ms", "duration_ns"), ("instructions (millions)", "instructions"),
                      ("ALU pipe instructions (millions)", "alu_instructions"),
                      ("LSU pipe instructions (millions)", "lsu_instructions"),
                      ("ALU pipe busy", "alu_pipe_pct"), ("LSU pipe busy", "lsu_pipe_pct"),
                      ("shared wavefronts (millions)", "shared_wavefronts"),
                      ("bank conflicts (millions)", "shared_bank_conflicts"),
                      ("theoretical occupancy", "theoretical_occupancy_pct")]


def fact_cell(row, column):
    """One column of an Nsight Compute record as a table's cell: no unit, which the heading
    gives."""
    value = float(row[column])
    if column == "duration_ns":
        return ms(value / 1e6)
    if column == "registers":
        return f"{value:.0f}"
    if column.endswith("_pct"):
        return f"{value:.0f}%"
    return millions(value)


def kernels_table(name, fact, labels, columns, note):
    """The record's Nsight Compute experiment NAME (ncu_facts.py FACT) as a table, a row a
    kernel: the array length, the row's LABELS columns, then COLUMNS (heading, column); NOTE
    ends the caption."""
    rows = recorded_rows(name)
    if not rows:
        return NOT_MEASURED + "\n"
    body = [[f"2^{log2(row['segment'])}"] + [row[label] for _, label in labels] +
            [fact_cell(row, column) for _, column in columns] for row in rows]
    header = (["array length L"] + [heading for heading, _ in labels] +
              [heading for heading, _ in columns])
    return (table(header, body) + "\n" + recorded(rows, f"tools/ncu_facts.py {fact}") +
            "; data: " + data_files(name) + ". Keys alone, 2^27 in all "
            "(`--log2 27 --segment L`): the second sort's launch of `block_sort`, "
            f"{UNDER_NCU}. Busy: the share of the pipe's peak issue rate used over the launch; "
            + note + "\n")


def warp_round_kernels_table():
    """v22_store_word_vectors's block_sort of keys against its variants with a warp's round, by
    array length (ncu_facts.py warp_rounds)."""
    return kernels_table("warp_round_kernels", "warp_rounds", [("block_sort", "variant")],
                         WARP_ROUND_COLUMNS,
                         "a wavefront is one pass of a shared-memory access, and a bank "
                         "conflict one pass more than the access needed.")


# The columns of short_block_kernels_table, as WARP_ROUND_COLUMNS.
SHORT_BLOCK_COLUMNS = [("ms", "duration_ns"), ("instructions (millions)", "instructions"),
                       ("ALU pipe busy", "alu_pipe_pct"), ("LSU pipe busy", "lsu_pipe_pct"),
                       ("issue active", "issue_active_pct"),
                       ("achieved occupancy", "achieved_occupancy_pct"),
                       ("theoretical occupancy", "theoretical_occupancy_pct"),
                       ("DRAM busy", "dram_busy_pct"), ("registers", "registers")]


def short_block_kernels_table():
    """v24's block_sort of keys without rounds, as built and held to eight blocks an SM, against
    the stage that led it in turns at 16 and at 64 keys (ncu_facts.py short_blocks)."""
    return kernels_table("short_block_kernels", "short_blocks",
                         [("stage", "stage"), ("block_sort", "variant")], SHORT_BLOCK_COLUMNS,
                         "issue active, the share of cycles an instruction issued; occupancy, "
                         "the warps an SM held against the most it can hold.")


def fact_over(name, key, mine, base, segment, column):
    """Row `mine`'s value in one column of the record's NAME over row `base`'s (rows named by their
    `key` column), for arrays of `segment` keys; None where either is missing."""
    rows = fact_rows(name, key)
    row, other = rows.get((mine, segment)), rows.get((base, segment))
    return None if row is None or other is None else float(row[column]) / float(other[column])


def word_value(stage, column, segment):
    """One column of the record's words (ncu_facts.py words), as the prose quotes it."""
    return metric_text(fact_rows("words", "stage").get((stage, segment)), column)


def word_ratio(stage, column, segment):
    """A stage's (or word_argsort's) value in one column of the record's words over v8_batched's keys
    there, for arrays of `segment` keys: '2.1x'."""
    over = fact_over("words", "stage", stage, "v8_batched", segment, column)
    return NOT_MEASURED if over is None else f"{over:.1f}x"


def word_issue_ratio(stage, segment):
    """What a stage's (or a lab program's) instructions and issue rate in the record's words predict
    for its time over v8_batched's keys: the instructions over v8's, divided by the share of
    cycles that issued an instruction over v8's. '2.4x'."""
    instructions = fact_over("words", "stage", stage, "v8_batched", segment, "instructions")
    issue = fact_over("words", "stage", stage, "v8_batched", segment, "issue_active_pct")
    return NOT_MEASURED if instructions is None or issue is None else \
        f"{instructions / issue:.1f}x"


def long_items(variant, kernel, stage="v13_any_bits"):
    """The launches of `kernel` in the sort of one long array by v13_any_bits (or its variant
    `stage`), keys alone or keys and indices (`variant`, the record's long_items): their count,
    total time (ns), DRAM bytes, the time-weighted share of DRAM busy, the means of achieved
    occupancy, issue rate and waits (cycles per issued instruction), and the registers a
    thread; None if not recorded."""
    rows = [row for row in recorded_rows("long_items")
            if row["stage"] == stage and row["variant"] == variant and row["kernel"] == kernel]
    if not rows:
        return None
    time = sum(float(row["duration_ns"]) for row in rows)
    return {"launches": len(rows), "ns": time,
            "bytes": sum(float(row["dram_read_bytes"]) + float(row["dram_write_bytes"])
                         for row in rows),
            "dram_busy_pct": sum(float(row["dram_busy_pct"]) * float(row["duration_ns"])
                                 for row in rows) / time,
            **{column: sum(float(row[column]) for row in rows) / len(rows)
               for column in ("achieved_occupancy_pct", "issue_active_pct", "barrier_stall",
                              "long_scoreboard_stall")},
            "registers": int(float(rows[0]["registers"]))}


def long_items_value(variant, kernel, what, stage="v13_any_bits"):
    """One figure of long_items as the prose quotes it: ms (all launches), gb_s (their DRAM
    bytes over their time), a share (_pct), a wait (_stall), registers or launches."""
    launches = long_items(variant, kernel, stage)
    if launches is None:
        return NOT_MEASURED
    if what == "ms":
        return ms(launches["ns"] / 1e6) + " ms"
    if what == "gb_s":
        return f"{launches['bytes'] / launches['ns']:.0f} GB/s"
    if what.endswith("_pct"):
        return f"{launches[what]:.0f}%"
    if what.endswith("_stall"):
        return f"{launches[what]:.1f} cycles"
    return str(launches[what])


def long_items_ratio(kernel, what, stage="v13_any_bits"):
    """Keys and indices over keys alone in the launches of `kernel` by v13_any_bits (or its
    variant `stage`): their time (ms), DRAM bytes (bytes) or bandwidth (gb_s). '2.54x'."""
    pair = [long_items(variant, kernel, stage) for variant in ("keys and indices", "keys")]
    if None in pair:
        return NOT_MEASURED
    values = [launches["ns"] if what == "ms" else launches["bytes"] if what == "bytes"
              else launches["bytes"] / launches["ns"] for launches in pair]
    return f"{values[0] / values[1]:.2f}x"


def pipe_rows():
    """{(variant, segment): row} of the record's pipes (ncu_facts.py pipes), in recorded order."""
    return fact_rows("pipes", "variant")


def pipe_value(variant, segment, column):
    """One column of the record's pipes, as the prose quotes it."""
    return metric_text(pipe_rows().get((variant, segment)), column)


def pipe_ratio(variant, segment, column):
    """A variant's value in one column of the record's pipes over the stage's as built."""
    return ratio(fact_over("pipes", "variant", variant, "as built", segment, column))


# The shares of the record's pipes that pipes_table shows, in its columns' order.
PIPE_SHARES = ("alu_pipe_pct", "fma_heavy_pipe_pct", "lsu_pipe_pct", "issue_active_pct",
               "achieved_occupancy_pct")


def pipes_table():
    """v8_batched's block_sort as built, with integer work moved to the FMA pipe, with 32 keys
    per thread, with lane steps traded for shared memory, capped at 40 registers so that six
    blocks fit an SM, and storing its tile straight from the registers: the sort's time
    (experiments.py v8_pipes) and, from Nsight Compute, what the launch issued, which pipes it
    kept busy and how many warps it kept resident. One row per record of the record's pipes whose
    variant v8_pipes also times."""
    rows = pipe_rows()
    times = segment_times("v8_pipes")
    timed = recorded_rows("v8_pipes")
    if not rows or not times:
        return NOT_MEASURED + "\n"
    body = []
    for variant, segment in rows:
        if variant not in times:
            continue  # measured for the prose only (8 keys per thread, chapter 10)
        row = rows[(variant, segment)]
        sort_ms = times.get(variant, {}).get(log2(segment))
        built_ms = times.get("as built", {}).get(log2(segment))
        body.append([str(segment), variant, ms(sort_ms),
                     ratio(sort_ms / built_ms) if sort_ms and built_ms else NOT_MEASURED,
                     pipe_ratio(variant, segment, "instructions")] +
                    [metric_text(row, column) for column in PIPE_SHARES])
    header = ["L", "v8_batched", "sort ms", "time / as built", "instructions / as built",
              "ALU pipe busy", "FMA pipe (heavy half) busy", "LSU pipe busy", "cycles that issue",
              "achieved occupancy"]
    return (table(header, body) + "\n" +
            recorded(list(rows.values()) + timed, "tools/ncu_facts.py pipes") +
            " and `tools/experiments.py v8_pipes`; data: " + data_files("pipes") + ", " +
            data_files("v8_pipes") + ". 2^27 keys in all. Sort ms: median of 5 timed runs "
            f"after one warm-up, every array of {checked_runs(timed)} checked."
            f"{skipped_note(timed)} The rest: the second sort's block_sort {UNDER_NCU}; busy is "
            "the share of the pipe's peak rate over the launch's active "
            "cycles (the LSU pipe issues shared-memory accesses, shuffles and barriers), cycles "
            "that issue the share in which a scheduler issued an instruction, "
            "achieved occupancy the warp slots filled on average.\n")


def segments_crossover(name="segments", program="v8_batched", rivals=SEGMENT_RIVALS,
                       programs=None):
    """The largest L up to which PROGRAM (or the fastest of `programs`) is faster than the
    fastest rival at every L (of the segments experiment, of v9_argsort's argsort in the
    argsorts experiment, or of the stages in segment_stages)."""
    times = segment_times(name)
    programs = programs or [program]
    if not times.get(programs[0]):
        return NOT_MEASURED
    best = None
    for s in sorted(times.get(programs[0], {})):
        _, mine = fastest_rival(times, s, programs)
        _, rival_ms = fastest_rival(times, s, rivals)
        if rival_ms is None or mine >= rival_ms:
            break
        best = s
    return f"2^{best}" if best is not None else "no length"


# The stages from v8 on, on many arrays (tools/experiments.py segment_stages):
# every stage from v8 on, keys alone, and the argsorts, each set with its rivals.
SEGMENT_STAGES = "segment_stages"
STAGE_KEYS = list(experiments.STAGE_KEY_PROGRAMS)
STAGE_ARGSORTS = [f"{name} --values" for name in experiments.STAGE_ARGSORT_PROGRAMS]
# The rivals' names in a table: the keys', then the argsorts'.
RIVAL_NAMES = {"cub_segmented": "DeviceSegmentedSort", "cub_packed_radix": "packed DeviceRadixSort",
               "cub_packed_radix --values": "packed DeviceRadixSort::SortPairs",
               "torch.sort": "torch.sort"}
STAGE_KEY_RIVALS = {name: RIVAL_NAMES[name]
                    for name in experiments.STAGE_KEY_RIVALS + ("torch.sort",)}
STAGE_ARGSORT_RIVALS = {name: RIVAL_NAMES[name] for name in
                        [f"{rival} --values" for rival in experiments.STAGE_ARGSORT_RIVALS] +
                        ["torch.sort"]}


def stage_sets(values):
    """(the stages, {rival: its name in a table}) of segment_stages' keys, or of its argsorts."""
    return (STAGE_ARGSORTS, STAGE_ARGSORT_RIVALS) if values else (STAGE_KEYS, STAGE_KEY_RIVALS)


def segment_copy_ms():
    """The copy baseline's time for 2^27 keys in the record (tools/experiments.py copy, on the
    same GPU as the record's other runs), or None."""
    times = [float(row["sort_ms"]) for row in recorded_rows("copy") if int(row["n"]) == 2**27]
    return times[0] if times else None


def segment_stages_table(values=False):
    """Each stage of segment_stages (keys alone, or with `values` the argsorts) and each rival,
    the fastest stage in copies of the array, and how long the fastest rival takes against it."""
    rows = recorded_rows(SEGMENT_STAGES)
    if not rows:
        return NOT_MEASURED + "\n"
    times = segment_times(SEGMENT_STAGES)
    stages, rivals = stage_sets(values)
    copy_ms = segment_copy_ms()
    body = []
    for s in sorted(times.get(stages[0], {})):
        stage, stage_ms = fastest_rival(times, s, stages)
        rival, rival_ms = fastest_rival(times, s, rivals)
        cells = [f"2^{s} ({1 << s})"]
        cells += [ms(times.get(name, {}).get(s)) if s in times.get(name, {}) else "-"
                  for name in stages + list(rivals)]
        cells += [f"`{stage.split()[0]}`", f"{stage_ms / copy_ms:.1f}" if copy_ms else "",
                  f"{rivals[rival]}: {rival_ms / stage_ms:.2f}x"]
        body.append(cells)
    header = (["array length L"] + [f"`{name.split()[0]}` ms" for name in stages] +
              [f"{label} ms" for label in rivals.values()] +
              ["fastest stage", "in copies", "fastest rival, its time / the stage's"])
    what = "with `--values`, each key's position in its array (int32) written too" if values \
        else "keys alone"
    return (table(header, body) + "\n" + recorded(rows, experiment_tool(SEGMENT_STAGES)) +
            f"; data: {data_files(SEGMENT_STAGES)}. 2^27 int32 keys in all, "
            f"uniform, {what} (torch.sort returns each key's index as int64 in both tables, and "
            "ran up to 2^16 keys per array only: -); median of 5 timed runs after one warm-up, "
            f"every array of {checked_runs(rows)} checked against std::sort, every index for "
            "pointing at an equal input key (torch.sort's rows for order and permutation). A "
            "copy is the copy "
            "baseline's time for the 2^27 keys on the same GPU, "
            f"{data_files('copy')}." + skipped_note(rows) + "\n")


def which_sort_rows(tour):
    """[(the workload, {program: ms}, the experiment)] of which_sort_table, from the record."""
    rows = []
    programs = course.stage_names() + course.DEVICE_BASELINES
    largest = max(tour.sizes(), default=29)
    for q in (14, 20, largest):
        rows.append((f"one array of 2^{q} keys", {f"`{name}`": tour.time(name, q)
                                                 for name in programs}, "tour"))
    times = segment_times(SEGMENT_STAGES)
    for values, lengths in ((False, (7, 10, 14, 20)), (True, (10,))):
        stages, rivals = stage_sets(values)
        what = "argsorts" if values else "keys"
        for length in lengths:
            found = {f"`{name.split()[0]}`": times.get(name, {}).get(length) for name in stages}
            found.update({label: times.get(name, {}).get(length) for name, label in
                          rivals.items()})
            rows.append((f"many arrays of {length_name(length)} keys, {what}", found,
                         SEGMENT_STAGES))
    # The top 16 of each stage that keeps it in one launch (chapter 18 on), in one run with
    # the fastest stage's full sort (which keeps the first 16 of every array too).
    found = {f"`{name} --top 16`": times.get(f"{name} --top 16", {}).get(10)
             for name in experiments.STAGE_TOP_PROGRAMS}
    sort, sort_ms = fastest_rival(times, 10, STAGE_KEYS)
    if sort:
        found[f"`{sort}`, the full sort"] = sort_ms
    rows.append(("the 16 smallest of each array of 1024 keys, keys alone", found,
                 SEGMENT_STAGES))
    # With positions: chapter 18's run, beside torch.topk.
    tops = segment_times("v16_tops")
    rows.append(("the 16 smallest of each array of 1024 keys, with positions",
                 {"`v16_register_top --top 16 --values`":
                  tops.get("top 16 with positions, v16", {}).get(10),
                  "torch.topk": tops.get("torch.topk", {}).get(10)}, "v16_tops"))
    runs = gpus_runs() if recorded_rows("gpus") else {}
    at_30 = {f"`{GPUS_STAGE} --gpus 2`": (GPUS_STAGE, 2), f"`{GPUS_STAGE} --gpus 1`":
             (GPUS_STAGE, 1), "`cub_radix`, one GPU": ("cub_radix", 1)}
    rows.append(("2^30 keys, one GPU or two", {label: float(runs[key + (30,)]["sort_ms"])
                                              if key + (30,) in runs else None
                                              for label, key in at_30.items()}, "gpus"))
    two = runs.get((GPUS_STAGE, 2, 31))
    rows.append(("2^31 keys on two GPUs", {f"`{GPUS_STAGE} --gpus 2`":
                                           float(two["sort_ms"]) if two else None}, "gpus"))
    return rows


def which_sort_table(tour):
    """What to use, by workload: the fastest program the record measured for it, and the next
    fastest, with their times; every cell from the record."""
    body = []
    for workload, times, experiment in which_sort_rows(tour):
        measured = sorted((ms_, name) for name, ms_ in times.items() if ms_ is not None)
        if not measured:
            body.append([workload, NOT_MEASURED, "", "", experiment])
            continue
        (best_ms, best), rest = measured[0], measured[1:]
        body.append([workload, f"{best}: {ms(best_ms)} ms",
                     f"{rest[0][1]}: {rest[0][0] / best_ms:.2f}x" if rest else "none measured",
                     str(len(measured)), experiment])
    used = [name for name in ("tour", SEGMENT_STAGES, "v16_tops", "gpus") if recorded_rows(name)]
    return (table(["workload", "fastest measured", "next fastest, its time / the fastest's",
                   "programs", "from"], body) + "\n" +
            f"The fastest of the programs record {RECORD.name} ({RECORD.gpu()}) timed for each "
            "workload, stages and libraries alike (int32 keys, uniform; each program's median "
            "time), from the experiment named: the tour for one array, segment_stages for many "
            "(2^27 keys in all) and the top-k of keys alone, v16_tops for the top-k with "
            "positions (2^27 keys in all), and gpus for one GPU "
            "against two (2^30 keys) and for two "
            "alone (2^31). Data: " +
            (", ".join(data_files(name) for name in used) or "none recorded") + ". " +
            "Of their runs, " + "; ".join(f"{name}: {checked_runs(recorded_rows(name))}"
                                          for name in used) +
            " checked against std::sort." +
            skipped_note([row for name in used for row in recorded_rows(name)]) +
            " The tour ran each program once at each size: below 2^20 two runs of one program "
            "can differ by more than the ratios of close rows (the spread experiment below); "
            "segment_stages ran each program once too, so gaps of about a hundredth do not rank "
            "programs (chapter 26's runs in turns do).\n")


def segment_stages_faster_up_to(values=False):
    """The largest L up to which the fastest stage of segment_stages beats its fastest rival at
    every L measured, or "no length"."""
    stages, rivals = stage_sets(values)
    return segments_crossover(SEGMENT_STAGES, rivals=rivals, programs=stages)


def length_name(s):
    """An array length as the prose names it: 4096 up to one tile, 2^14 above."""
    return str(1 << s) if s <= 12 else f"2^{s}"


def up_to(stages, program, earlier):
    """`stages`, or with `earlier` those of them up to PROGRAM in the course's order: what a
    stage's chapter may set it against, the stages a reader has met (PROGRAM not among them: all
    of them)."""
    return stages[:stages.index(program) + 1] if earlier and program in stages else stages


def segment_stages_fastest_at(program, values=False, earlier=False):
    """The lengths at which PROGRAM is the fastest stage of segment_stages (with `earlier`, of
    the stages up to it), as a spoken list."""
    times = segment_times(SEGMENT_STAGES)
    stages = up_to(stage_sets(values)[0], program, earlier)
    lengths = [s for s in sorted(times.get(program, {}))
               if fastest_rival(times, s, stages)[0] == program]
    return spoken_list([length_name(s) for s in lengths]) or "no length"


def stage_key_lengths(program, lowest, highest):
    """segment_stages' times, and the lengths from 2^lowest to 2^highest keys per array at which
    PROGRAM, one of its stages of keys alone (STAGE_KEYS), was measured ([] for another)."""
    times = segment_times(SEGMENT_STAGES)
    if program not in STAGE_KEYS:
        return times, []
    return times, [s for s in sorted(times.get(program, {})) if lowest <= s <= highest]


def segment_stages_behind(program, lowest, highest, earlier=False):
    """PROGRAM's time over that of segment_stages' fastest stage (keys alone; with `earlier`, of
    the stages up to it), at the length from 2^lowest to 2^highest keys per array where that is
    largest: 1.0 where PROGRAM is the fastest at every length; None where it measured none of
    them, or is not one of STAGE_KEYS."""
    times, lengths = stage_key_lengths(program, lowest, highest)
    stages = up_to(STAGE_KEYS, program, earlier)
    return max((times[program][s] / fastest_rival(times, s, stages)[1] for s in lengths),
               default=None)


def segment_stages_beaten(program, lowest, highest, earlier=False):
    """Where a stage of segment_stages (keys alone; with `earlier`, one up to PROGRAM) took less
    time than PROGRAM from 2^lowest to 2^highest keys per array: the fastest such stage and where
    ("`v12_key_words` at 8; `v14_span` at 16 and 32"), "none" where none did (a tie is not a
    loss), NOT_MEASURED where PROGRAM measured no length there."""
    times, lengths = stage_key_lengths(program, lowest, highest)
    if not lengths:
        return NOT_MEASURED
    stages = up_to(STAGE_KEYS, program, earlier)
    faster = {}
    for s in lengths:
        stage, stage_ms = fastest_rival(times, s, stages)
        if stage_ms < times[program][s]:
            faster.setdefault(stage, []).append(length_name(s))
    return "; ".join(f"`{stage}` at {spoken_list(lengths)}"
                     for stage, lengths in faster.items()) or "none"


def segment_field(name, program, s, field):
    """A column of PROGRAM's record for arrays of 2^s keys in the experiment `name`."""
    for row in recorded_rows(name):
        if row["variant"] == program and log2(row["segment"]) == s:
            return row[field]
    return None


def mapping_ratio(s, name="v8_mapping", variant=1, base=0):
    """A mapping experiment's (v8_mapping, v8_pipes, v9_mapping, v9_compare, v20_rounds, ...)
    variant number `variant` over its variant number `base`, by default the first, the stage as
    built (experiments.py records it first), for arrays of 2^s keys: its time over the other's;
    None where either is missing."""
    variants = list(segment_times(name).values())
    if len(variants) <= max(variant, base):
        return None
    first, other = variants[base].get(s), variants[variant].get(s)
    return other / first if first and other else None


def mapping_table(name="v8_mapping"):
    """Every variant of a mapping experiment for every array length, and each one's time over
    the first's, the stage as built."""
    rows = recorded_rows(name)
    if not rows:
        return NOT_MEASURED + "\n"
    times = segment_times(name)
    variants = list(times)
    body = []
    for s in sorted(times[variants[0]]):
        cells = [f"2^{s}"] + [ms(times[v].get(s)) for v in variants]
        for variant in range(1, len(variants)):
            over_first = mapping_ratio(s, name, variant)
            cells.append("" if over_first is None else ratio(over_first))
        body.append(cells)
    ordinals = ["second", "third", "fourth", "fifth"]
    return (table(["array length"] + [f"{v} ms" for v in variants] +
                  [f"{ordinals[i]} / first" for i in range(len(variants) - 1)], body) + "\n" +
            recorded(rows, f"tools/experiments.py {name}") +
            f"; data: {data_files(name)}. 2^27 keys in all, median of 5 timed "
            f"runs after one warm-up, every array of {checked_runs(rows)} checked." +
            skipped_note(rows) + "\n")


# v17_argsorts' argsorts, by the names the tables give them (tools/experiments.py v17_argsorts).
V17_ARGSORTS = {"argsort, v17": "v17", "argsort, v16": "v16",
                "argsort, v17_range_digits": "v17_range_digits",
                "argsort, v17_vote_first": "v17_vote_first"}


def v17_argsorts_table():
    """Chapter 19's measurement (tools/experiments.py v17_argsorts): on uniform keys, for every
    array length, v17's keys alone, the four argsorts and torch.sort, with v17's argsort over
    its keys and over v16's, and torch.sort's over v17's; then, for each other distribution
    and length, the four argsorts and v17's and the variants' over v16's."""
    name = "v17_argsorts"
    rows = recorded_rows(name)
    if not rows:
        return NOT_MEASURED + "\n"
    times = segment_times(name)

    def over(a, b):
        return "" if a is None or b is None else ratio(a / b)

    uniform = []
    for s in sorted(times.get("argsort, v17", {})):
        keys = times.get("keys, v17", {}).get(s)
        mine, v16 = times["argsort, v17"][s], times.get("argsort, v16", {}).get(s)
        variant = times.get("argsort, v17_range_digits", {}).get(s)
        vote = times.get("argsort, v17_vote_first", {}).get(s)
        torch = times.get("torch.sort", {}).get(s)
        uniform.append([f"2^{s}", ms(keys), ms(mine), ms(v16), ms(variant), ms(vote), ms(torch),
                        over(mine, keys), over(mine, v16), over(torch, mine)])
    others = []
    # The other distributions' argsorts are named "argsort, PROGRAM, DISTRIBUTION".
    distributions = sorted({variant.rsplit(", ", 1)[1] for variant in times
                            if variant.count(", ") == 2})
    for distribution in distributions:
        found = {label: times.get(f"{variant}, {distribution}", {})
                 for variant, label in V17_ARGSORTS.items()}
        for s in sorted(found["v17"]):
            mine, v16 = found["v17"][s], found["v16"].get(s)
            variant = found["v17_range_digits"].get(s)
            vote = found["v17_vote_first"].get(s)
            others.append([distribution, f"2^{s}", ms(mine), ms(v16), ms(variant), ms(vote),
                           over(mine, v16), over(variant, v16), over(vote, v16)])
    return (table(["array length", "v17 keys ms", "v17 argsort ms", "v16 argsort ms",
                   "v17_range_digits argsort ms", "v17_vote_first argsort ms", "torch.sort ms",
                   "v17 argsort / keys", "v17 / v16", "torch.sort / v17"], uniform) + "\n" +
            table(["keys", "array length", "v17 ms", "v16 ms", "v17_range_digits ms",
                   "v17_vote_first ms", "v17 / v16", "v17_range_digits / v16",
                   "v17_vote_first / v16"], others) + "\n" +
            recorded(rows, f"tools/experiments.py {name}") +
            f"; data: {data_files(name)}. 2^27 keys in all, median of 5 timed runs after one "
            f"warm-up, every array of {checked_runs(rows)} checked." + skipped_note(rows) + "\n")


def stage_pair_table(stage, before):
    """A chapter's measurement of a stage for many arrays, from segment_stages: for every array
    length, v8's, `before`'s and `stage`'s keys alone, stage's over before's and over v8's;
    where the argsorts ran, before's and stage's, stage's over before's and over its own keys,
    and torch.sort's time over stage's (chapters 20 to 24)."""
    rows = recorded_rows(SEGMENT_STAGES)
    times = segment_times(SEGMENT_STAGES)
    if not rows or stage not in times:
        return NOT_MEASURED + "\n"
    new, old = stage.split("_")[0], before.split("_")[0]

    def over(a, b):
        return "" if a is None or b is None else ratio(a / b)

    body = []
    for s in sorted(times[stage]):
        v8, previous, current = (times.get(name, {}).get(s)
                                 for name in ("v8_batched", before, stage))
        previous_argsort, argsort = (times.get(f"{name} --values", {}).get(s)
                                     for name in (before, stage))
        torch = times.get("torch.sort", {}).get(s) if argsort is not None else None
        body.append([f"2^{s} ({1 << s})", ms(v8), ms(previous), ms(current),
                     over(current, previous), over(current, v8),
                     ms(previous_argsort) if previous_argsort else "-",
                     ms(argsort) if argsort else "-", over(argsort, previous_argsort),
                     over(argsort, current), over(torch, argsort)])
    return (table(["array length L", "v8 keys ms", f"{old} keys ms", f"{new} keys ms",
                   f"{new} / {old}", f"{new} / v8", f"{old} argsort ms", f"{new} argsort ms",
                   f"{new} / {old} argsort", f"{new} argsort / keys",
                   f"torch.sort / {new} argsort"], body) + "\n" +
            recorded(rows, experiment_tool(SEGMENT_STAGES)) +
            f"; data: {data_files(SEGMENT_STAGES)}. 2^27 int32 keys in all, uniform; median of 5 "
            f"timed runs after one warm-up, every array of {checked_runs(rows)} checked; the "
            "argsorts (--values) ran at the lengths given, torch.sort up to 2^16 keys per "
            "array." + skipped_note(rows) + "\n")


def flips_table(kind):
    """v8_batched's keys and v9_argsort's argsort (--values) as built, whose threads flip their
    keys so that every compare is ascending, against their variants without flips of one kind,
    'directions' (each compare takes its direction; experiments.py v8_directions and
    v9_directions) or 'mirrored' (the network's mirrored form; v8_mirrored and v9_mirrored):
    both times for every array length, and each variant's over its stage's."""
    names = (f"v8_{kind}", f"v9_{kind}")
    rows = recorded_rows(names[0]) + recorded_rows(names[1])
    if not rows:
        return NOT_MEASURED + "\n"
    times = {name: list(segment_times(name).values()) for name in names}
    body = []
    for s in sorted(set().union(*(variants[0] for variants in times.values() if variants))):
        cells = [f"2^{s}"]
        for name, variants in times.items():
            flips, other = (variants + [{}, {}])[:2]
            over = mapping_ratio(s, name)
            cells += [ms(flips.get(s)), ms(other.get(s)), "" if over is None else ratio(over)]
        body.append(cells)
    return (table(["array length", "v8 flips ms", f"v8 {kind} ms", f"v8 {kind} / flips",
                   "v9 --values flips ms", f"v9 --values {kind} ms",
                   f"v9 {kind} / flips"], body) + "\n" +
            recorded(rows, f"tools/experiments.py {names[0]} {names[1]}") +
            f"; data: {data_files(*names)}."
            " 2^27 keys in all, median of 5 timed runs after one warm-up, every array of "
            f"{checked_runs(rows)} checked."
            " Each stage was measured against its variant in one run." + skipped_note(rows) + "\n")


# The variants of the record's directions by the short names the prose gives them.
DIRECTION_VARIANTS = {"flips": "flips (as built)", "directions": course.DIRECTIONS,
                      "mirrored": course.MIRRORED}


def direction_row(stage, variant, segment):
    """STAGE's block_sort as built ('flips'), with the direction in its compares ('directions')
    or on the mirrored network ('mirrored') on arrays of `segment` keys, from
    the record's directions (ncu_facts.py directions); None if not recorded."""
    for row in recorded_rows("directions"):
        if (row["stage"], row["variant"], int(row["segment"]), row["kernel"]) == (
                stage, DIRECTION_VARIANTS[variant], segment, "block_sort"):
            return row
    return None


def direction_value(stage, variant, segment, column):
    """One column of direction_row, as the prose quotes it."""
    return metric_text(direction_row(stage, variant, segment), column)


def direction_ratio(stage, segment, column, variant="directions"):
    """STAGE's block_sort without flips ('directions' or 'mirrored') over as built, in one
    column."""
    mine = direction_row(stage, variant, segment)
    base = direction_row(stage, "flips", segment)
    return ratio(None if mine is None or base is None
                 else float(mine[column]) / float(base[column]))


def copies_range_text(launches, copy_ns):
    """'shortest .. longest' of the launches' durations, in copies of the array."""
    copies = [float(launch["duration_ns"]) / copy_ns for launch in launches]
    return f"{min(copies):.2f} .. {max(copies):.2f}"


def experiment_profile_table(profile, experiment, q, header, cells,
                             keep=lambda program: True):
    """Per program of an experiment's CSV at n = 2^q (those `keep` accepts): its variant, its
    launches and sort time in the experiment, then cells(program, launches, copy_ns, group,
    steps) from its profile, where the group is twice the stride of the sort's last launch (v13's
    merge below a group of its largest size; from v14 on, merged_group finds it) and steps are
    its group_steps launches. `header`
    is the first column's name, then the names of the columns after the first three."""
    rows = recorded_rows(experiment)
    if not rows:
        return NOT_MEASURED + "\n"
    body = []
    for row in rows:
        program = row["program"]
        if log2(row["n"]) != q or not keep(program):
            continue
        launches = profile.launches(program, q)
        if not launches:
            body.append([row["variant"], NOT_MEASURED] + [""] * len(header))
            continue
        copy_ns = 1e6 * profile.copy_ms(program, q)
        group = 2 * int(launches[-1]["stride"])
        steps = [launch for launch in launches if launch["kernel"] == "group_steps"]
        body.append([row["variant"], str(len(launches)), ms(float(row["sort_ms"]))] +
                    cells(program, launches, copy_ns, group, steps))
    return (table([header[0], "launches", "sort ms"] + header[1:], body) + "\n" +
            f"At n = 2^{q}. Sort times: {data_files(experiment)} (above). Profile: " +
            profile.source() + "\n")


def groups_profile_table(profile, q=27):
    """Per program of the v13_groups experiment at n = 2^q: the copies of the array that its
    passes of global strides and its merges below a group take, with the achieved occupancy and
    largest stalls of the sort's last launch."""
    def cells(program, launches, copy_ns, group, steps):
        last = [metric for metric in profile.metric_rows(program, q, "group_steps")
                if int(metric["launch"]) == len(launches) - 1][0]
        return [copies_range_text([s for s in steps if int(s["stride"]) >= group], copy_ns),
                copies_range_text([s for s in steps if int(s["stride"]) < group], copy_ns),
                f"{float(last['achieved_occupancy_pct']):.0f}%", stall_text(last)]

    # v13 and its variants have groups; v12, run beside them for reference, has none.
    return experiment_profile_table(
        profile, "v13_groups", q,
        ["group", "global pass, copies", "merge below a group, copies",
         "last merge: achieved occupancy", "last merge: largest stalls (cycles per instruction)"],
        cells, keep=lambda program: program.startswith("v13_"))


def merged_group(launches):
    """The group of a sort from v14 on: its pass after block_sort (launch 1) runs every merge up
    to the group, log2(size) steps each, so the group is the last merge its steps reach."""
    size, steps = int(launches[1]["size"]), int(launches[1]["steps"])
    while steps > 0:
        steps -= log2(size)
        size *= 2
    return size // 2


GROUP_PASS_KINDS = ("after", "global", "ends")


def group_pass_copies(profile, program, kind, q=27):
    """The copies of the array that each of PROGRAM's passes of one kind takes at 2^q: "after"
    the pass after block_sort, "global" the passes of global strides (a group's or more),
    "ends" the passes that end a merge above the group; [] where it was not profiled."""
    launches = profile.launches(program, q)
    if len(launches) < 2:
        return []
    group, copy_ns = merged_group(launches), 1e6 * profile.copy_ms(program, q)
    steps = [launch for launch in launches if launch["kernel"] == "group_steps"]
    chosen = {"after": steps[:1],
              "global": [s for s in steps if int(s["stride"]) >= group],
              "ends": [s for s in steps if int(s["size"]) > group and int(s["stride"]) < group]}
    return [float(launch["duration_ns"]) / copy_ns for launch in chosen[kind]]


# The profile of v19 and its variant v19_group15 (lab note groups), a chunk of its own.
GROUPS_PROFILE = Profile("groups_kernel")


def v19_groups_profile_table(profile=GROUPS_PROFILE, q=27):
    """Per program of the v19_groups experiment at n = 2^q: the copies of the array that the pass
    after block_sort, the passes of global strides and the passes that end a merge above the
    group take (group_pass_copies), with the achieved occupancy and largest stalls of the
    sort's last launch."""
    # experiment_profile_table's group (twice the last stride) is v13's rule, not v19's, and its
    # copy time and steps are what group_pass_copies finds again: only the program and its
    # launches are used here.
    def cells(program, launches, _copy_ns, _group, _steps):
        last = [metric for metric in profile.metric_rows(program, q, "group_steps")
                if int(metric["launch"]) == len(launches) - 1][0]
        return [range_text(group_pass_copies(profile, program, kind, q), "{:.2f}")
                for kind in GROUP_PASS_KINDS] + [
                    f"{float(last['achieved_occupancy_pct']):.0f}%", stall_text(last)]

    # CUB's merge sort, run beside them for reference, has no passes of its own to profile.
    return experiment_profile_table(
        profile, "v19_groups", q,
        ["group", "the pass after block_sort, copies", "a pass of global strides, copies",
         "a pass that ends a merge, copies", "last launch: achieved occupancy",
         "last launch: largest stalls (cycles per instruction)"],
        cells, keep=lambda program: program.startswith("v19_"))


def range_text(values, form):
    """'smallest .. largest' of the values as `form` writes them, or one value if both read the
    same."""
    low, high = form.format(min(values)), form.format(max(values))
    return low if low == high else f"{low} .. {high}"


def passes_profile_table(profile, q=27):
    """Per program of the v13_passes experiment at n = 2^q: the copies of the array that
    block_sort takes, that the merges up to a group after it take in all, that each pass of
    global strides takes, and each pass that ends a merge above the group; and for the global
    passes of the sort's last merge (the profile's metrics launches) the DRAM bytes they move
    over the array's read and write, how busy the DRAM was, and the shared-memory wavefronts a
    key."""
    keys = 1 << q

    def cells(program, launches, copy_ns, group, steps):
        small = [launch for launch in steps if int(launch["size"]) <= group]
        small_copies = sum(float(launch["duration_ns"]) for launch in small) / copy_ns
        # Passes that end a merge above the group: their strides below it, or with them the
        # next merge's largest (a variant whose passes span two merges).
        ends = [launch for launch in steps
                if int(launch["size"]) > group and int(launch["stride"]) < group]
        block = [launch for launch in launches if launch["kernel"] == "block_sort"]
        global_metrics = [metric for metric in profile.metric_rows(program, q, "group_steps")
                          if int(metric["stride"]) >= group]
        moved = [(float(m["dram_read_bytes"]) + float(m["dram_write_bytes"])) / (8 * keys)
                 for m in global_metrics]
        busy = [float(m["dram_pct_of_peak"]) for m in global_metrics]
        waves = [float(m["shared_wavefronts"]) / keys for m in global_metrics]
        return [f"{float(block[0]['duration_ns']) / copy_ns:.2f}",
                f"{len(small)}: {small_copies:.2f}",
                copies_range_text([s for s in steps if int(s["stride"]) >= group], copy_ns),
                range_text([float(launch["duration_ns"]) / copy_ns for launch in ends],
                           "{:.2f}") if ends else "none",
                range_text(moved, "{:.2f}"), range_text(busy, "{:.0f}%"),
                range_text(waves, "{:.2f}")]

    return experiment_profile_table(
        profile, "v13_passes", q,
        ["variant", "block_sort, copies", "merges up to 2^14 after it: launches, copies in all",
         "global pass, copies", "pass that ends a merge above 2^14, copies",
         "last merge's global passes: DRAM bytes / the array's read and write",
         "their DRAM busy, % of peak", "their shared-memory wavefronts a key"], cells)


def span_passes_table(network_dump, tour, sizes=(16, 20, 24, 27, 29, 30)):
    """The passes of v13_any_bits and v14_span at each size, as their own launches_per_sort
    counts them (tools/network_dump passes), and v14_span's floor where the tour ran it: its
    passes times one copy of the array at the copy bandwidth of the same run."""
    body = []
    for q in sizes:
        passes = figures.span_passes(network_dump, 1 << q)
        floor = tour.floor("v14_span", q)
        body.append([f"2^{q}", passes["v13_any_bits"], passes["v14_span"],
                     ms(floor) if floor else NOT_MEASURED])
    return (table(["n", "v13_any_bits passes", "v14_span passes", "v14_span floor ms"], body) +
            "\nThe passes are each stage's `launches_per_sort` (tools/network_dump's `passes`, "
            "which compiles both stages' `bitonic_index.h`); the floor is that many reads and "
            "writes of the array at the copy bandwidth of the tour's run (" + tour.source() + ")\n")


def tail_rule_text(network_dump, low=16, high=30):
    """Where v14_span's rule for a merge's last pass (at least kFewestTailSteps strides) costs
    passes, against the same plan with v14_tail6's rule, at 2^low .. 2^high keys (tools/
    network_dump passes): 'one pass more at 2^22 and 2^23, and none at the other sizes from
    2^16 to 2^30'."""
    extra = {}
    for q in range(low, high + 1):
        passes = figures.span_passes(network_dump, 1 << q)
        if passes["v14_span"] != passes["v14_tail6"]:
            extra[q] = passes["v14_span"] - passes["v14_tail6"]
    span = f"2^{low} to 2^{high}"
    if not extra:
        return f"no pass at any size from {span}"
    # 'one pass more at 2^22 and 2^23', or each size's count where they differ.
    said = (f"one pass more at {spoken_list([f'2^{q}' for q in extra])}"
            if set(extra.values()) == {1} else
            spoken_list([f"{count:+d} passes at 2^{q}" for q, count in extra.items()]))
    return f"{said}, and none at the other sizes from {span}"


# The kinds of pass of v14_span and v15_tile4096, from a launch's merge size, first stride and steps.
SPAN_KINDS = ["block_sort", "the merges after block_sort up to 2^14, one pass",
              "global strides (the first 2^14 or more)", "a merge's tail and the next merge's head",
              "a merge's tail alone (2^13 .. 1, no bits left for a head, or the last merge)"]


def span_kind(launch):
    if launch["kernel"] == "block_sort":
        return SPAN_KINDS[0]
    size, stride, steps = int(launch["size"]), int(launch["stride"]), int(launch["steps"])
    if stride >= 1 << 14:
        return SPAN_KINDS[2]
    beyond = steps > stride.bit_length()
    if beyond and size <= 1 << 14:
        return SPAN_KINDS[1]
    return SPAN_KINDS[3] if beyond else SPAN_KINDS[4]


def span_profile_table(profile, stage="v14_span", q=27):
    """A stage's launches at 2^q by kind (span_kind): how many, the steps each runs, and the
    shortest and longest in copies of the array (Nsight Compute's durations)."""
    launches = profile.launches(stage, q)
    if not launches:
        return NOT_MEASURED + "\n"
    body = []
    for index, kind in enumerate(SPAN_KINDS):
        found = [launch for launch in launches if span_kind(launch) == kind]
        if found:
            steps = sorted({int(launch["steps"]) for launch in found})
            body.append([kind, len(found), range_text(steps, "{}"),
                         span_copies(profile, index, stage, q)])
    return (table(["pass", "launches", "steps each", "copies of the array each"], body) +
            f"\nAt n = 2^{q}. " + profile.source() + "\n")


def span_copies(profile, kind, stage="v14_span", q=27):
    """The shortest and longest launch of one kind (SPAN_KINDS index) in copies."""
    found = [launch for launch in profile.launches(stage, q)
             if span_kind(launch) == SPAN_KINDS[kind]]
    if not found:
        return NOT_MEASURED
    copy_ns = 1e6 * profile.copy_ms(stage, q)
    return range_text([float(launch["duration_ns"]) / copy_ns for launch in found], "{:.2f}")


# The stages the repeat table follows, and the experiments that ran each as built: (variant, stage).
REPEATED_AS_BUILT = {"v4_tile": ("1024-thread blocks, 2048-key tile", "v4_half_threads"),
                     "v7_tile": ("16 keys per thread, 8192-key tile", "v7_register_tile"),
                     "v7_padding": ("padded tile", "v7_register_tile")}


def repeat_runs():
    """(stage, log2 n) -> [(run, sort ms)]: the same build of a stage in the tour and in the
    experiments that ran it as built, for the stages of REPEATED_AS_BUILT at the headline sizes,
    where two runs or more hold it."""
    runs = {}
    for (program, q), row in Tour().by_key.items():
        runs.setdefault((program, q), []).append(("tour", float(row["sort_ms"])))
    for name, (variant, program) in REPEATED_AS_BUILT.items():
        for row in recorded_rows(name):
            if row["variant"] == variant:
                runs.setdefault((program, log2(row["n"])), []).append((name, float(row["sort_ms"])))
    stages = [program for _, program in REPEATED_AS_BUILT.values()]
    return {(program, q): runs[(program, q)] for program in dict.fromkeys(stages)
            for q in HEADLINE_SIZES if len(runs.get((program, q), [])) >= 2}


def repeat_spread(found):
    """Largest over smallest time of [(run, sort ms)], minus one."""
    values = [value for _, value in found]
    return (max(values) - min(values)) / min(values)


def repeat_max(q):
    """v:repeat-max:Q: the largest repeat_spread of the repeat table from 2^Q up, in percent."""
    values = [repeat_spread(found) for (_, size), found in repeat_runs().items() if size >= q]
    return f"{100 * max(values):.1f}%" if values else NOT_MEASURED


def repeat_table():
    """The same build of a stage measured in different recorded runs: the tour and the
    experiments that ran the stage as built (the spread between two runs of one program)."""
    body = [[f"`{program}`", f"2^{q}", ", ".join(f"{ms(v)} ({n})" for n, v in found),
             f"{100 * repeat_spread(found):.1f}%"] for (program, q), found in repeat_runs().items()]
    return (table(["stage", "n", "sort ms (run)", "largest / smallest - 1"], body) +
            "\nThe same stage configuration in separate recorded runs, on " +
            record_days([row for name in ("tour",) + tuple(REPEATED_AS_BUILT)
                         for row in recorded_rows(name)]) +
            ": the tour and the experiments in which it ran as built (" +
            data_files("tour", *REPEATED_AS_BUILT) + ").\n")


# ---------------------------------------------------------------------------------------------
# Run-to-run spread at small sizes (experiments.py spread)


def spread_runs(name="spread", column="n"):
    """(program, log2 of the row's `column`: n, or the segment) -> the sort times of the separate
    runs of the spread experiment (or of another recorded in turns the same way), each the median
    of its own timed repetitions."""
    runs = {}
    for row in recorded_rows(name):
        runs.setdefault((row["program"], log2(row[column])), []).append(float(row["sort_ms"]))
    return runs


def spread_sizes():
    return sorted({q for _, q in spread_runs()})


def spread_source(rows):
    runs = len({row["variant"] for row in rows})
    reps = rows[0]["reps"]
    days = {row["date"] for row in rows}
    return (recorded(rows, "tools/experiments.py spread") +
            f"; data: {data_files('spread')}. Each program ran {runs} times, each time "
            f"a separate process that reports the median of {reps} timed sorts after one "
            "warm-up; " + ("the runs of all stages took turns" if len(days) == 1 else
                           "the runs of the stages recorded on one day took turns ("
                           + stages_by_day(rows) + ")") +
            f"; {checked_runs(rows)} checked against std::sort." + skipped_note(rows))


def spread_table():
    rows = recorded_rows("spread")
    if not rows:
        return NOT_MEASURED + "\n"
    runs = spread_runs()
    sizes = spread_sizes()
    body = []
    for stage in course.course_stage_names():
        cells = [f"`{stage}`"]
        for q in sizes:
            values = runs.get((stage, q))
            cells.append(f"{ms(statistics.median(values))} ({spread_percent(values):.0f}%)"
                         if values else NOT_MEASURED)
        body.append(cells)
    return (table(["stage"] + [f"2^{q} ms (spread)" for q in sizes], body) + "\n" +
            "The median of the separate runs, and in brackets their spread: the slowest run's "
            "time over the fastest's, less one. " + spread_source(rows) + "\n")


def neighbours_table():
    """Each stage against the stage before it at the spread experiment's sizes: the ratio of
    their medians, and whether the two sets of runs overlap."""
    rows = recorded_rows("spread")
    if not rows:
        return NOT_MEASURED + "\n"
    runs = spread_runs()
    sizes = spread_sizes()
    stages = course.course_stage_names()
    body = []
    for previous, stage in course.course_stage_pairs():
        cells = [f"`{stage}` against `{previous}`"]
        for q in sizes:
            found = against_previous(runs, stage, previous, q)
            cells.append(f"{found[0]:.2f}x, {found[1]}" if found else NOT_MEASURED)
        body.append(cells)
    return (table(["stage"] + [f"2^{q}" for q in sizes], body) + "\n" +
            "How many times faster the stage's median run is than the previous stage's; "
            "*faster* or *slower* where every run of one was faster than every run of the "
            "other, *overlap* where the runs overlap and the data do not say which is faster. " +
            spread_source(rows) + "\n")


def spread_value(args):
    """v:spread:STAGE:Q (the spread in percent), v:spread-range:STAGE:Q (fastest .. slowest),
    v:spread-max:Q (the largest spread of any stage), v:neighbours:STAGE:PREVIOUS:Q (median
    speedup and verdict), v:neighbours-verdict:STAGE:PREVIOUS:Q (the verdict alone: faster,
    slower or overlap)."""
    kind, stage, *rest = args
    runs = spread_runs()
    if kind == "spread-max":
        # v:spread-max:Q, the largest spread of any stage at 2^Q (here `stage` holds Q).
        q = int(stage)
        values = [spread_percent(v) for (name, size), v in runs.items()
                  if size == q and name in course.course_stage_names()]
        return f"{max(values):.0f}%" if values else NOT_MEASURED
    if kind == "spread":
        values = runs.get((stage, int(rest[0])))
        return f"{spread_percent(values):.0f}%" if values else NOT_MEASURED
    if kind == "spread-range":
        values = runs.get((stage, int(rest[0])))
        return f"{ms(min(values))} .. {ms(max(values))} ms" if values else NOT_MEASURED
    found = against_previous(runs, stage, rest[0], int(rest[1]))
    if kind == "neighbours-verdict":
        return found[1] if found else NOT_MEASURED
    return f"{found[0]:.2f}x ({found[1]})" if found else NOT_MEASURED


# ---------------------------------------------------------------------------------------------
# The input distributions (experiments.py distributions) and the swaps of the network


def distribution_times():
    """(stage, log2 n) -> {distribution: sort ms}."""
    times = {}
    for row in recorded_rows("distributions"):
        times.setdefault((row["program"], log2(row["n"])), {})[row["distribution"]] = float(
            row["sort_ms"])
    return times


def distribution_ratio(stage, q, distribution):
    found = distribution_times().get((stage, q), {})
    if distribution not in found or "uniform" not in found:
        return None
    return found[distribution] / found["uniform"]


def distribution_ratios(first, last, q, distributions=None):
    """Every stage's time from FIRST to LAST (in stages.txt's order) on each of `distributions`
    (by default every one but uniform) over its time on uniform keys, at 2^q."""
    stages = course.stage_names()
    chosen = stages[stages.index(first):stages.index(last) + 1]
    ratios = [distribution_ratio(stage, q, distribution)
              for stage in chosen for distribution in distributions or
              [d for d in distribution_times().get((stage, q), {}) if d != "uniform"]]
    return [value for value in ratios if value is not None]


def distributions_table(stages=None):
    rows = recorded_rows("distributions")
    if not rows:
        return NOT_MEASURED + "\n"
    times = distribution_times()
    stages = stages or course.course_stage_names()
    # The distributions in the order they were recorded, the order of the programs' --dist.
    others = [d for d in dict.fromkeys(row["distribution"] for row in rows) if d != "uniform"]
    body = []
    for q in sorted({q for _, q in times}):
        for stage in stages:
            found = times.get((stage, q))
            if not found:
                continue
            body.append([f"`{stage}`", f"2^{q}", ms(found.get("uniform"))] +
                        [ratio(distribution_ratio(stage, q, d)) for d in others])
    reps = {}
    for row in rows:
        reps.setdefault(log2(row["n"]), set()).add(row["reps"])
    counts = ", ".join(f"{'/'.join(sorted(r))} at 2^{q}" for q, r in sorted(reps.items()))
    return (table(["stage", "n", "uniform ms"] + others, body) + "\n" +
            "Sort time on each distribution over the time on uniform keys (below 1: faster). " +
            recorded(rows, "tools/experiments.py distributions") +
            "; data: " + data_files("distributions") + ". Timed runs after one warm-up "
            f"({counts}; the median where more than one), {checked_runs(rows)} checked against "
            "std::sort; "
            "the distributions are those of `--dist` (`common/keys.h`)." + skipped_note(rows) +
            "\n")


def network_swaps(network_dump, n):
    """distribution -> the share of the network's compare-exchanges whose pair is out of order,
    counted on the host by network_dump on the same keys the programs generate, in the order of
    --dist."""
    output = subprocess.run([network_dump, "swaps", str(n)], capture_output=True, text=True,
                            check=True).stdout
    shares = {}
    for line in output.splitlines():
        name, compares, swaps = line.split()
        shares[name] = int(swaps) / int(compares)
    return shares


def swaps_table(network_dump, sizes=(16, 20)):
    counts = {q: network_swaps(network_dump, 1 << q) for q in sizes}
    body = [[name] + [f"{100 * counts[q][name]:.1f}%" for q in sizes]
            for name in counts[sizes[0]]]
    return (table(["distribution"] + [f"swaps at 2^{q}" for q in sizes], body) + "\n" +
            "The share of the network's compare-exchanges that find their pair out of order, "
            "and so write it, for an ascending sort of the keys that `--dist` generates (seed "
            "1). Counted on the host by `network_dump swaps N` (tools/network_dump.cpp), "
            "which runs the reference network; 2^20 is the largest size it counts.\n")


def tally(tour, predictions):
    """Each stage's predicted speedup at 2^29 (a range) against the measured one."""
    stages = course.course_stage_names()
    rows, counts = [], {"within": 0, "above": 0, "below": 0}
    for previous, stage in course.course_stage_pairs():
        if stage not in predictions:
            continue
        low, high, text = predictions[stage]
        measured = tour.speedup(stage, previous, 29)
        if measured is None:
            verdict = NOT_MEASURED
        else:
            verdict = prediction_verdict(low, high, measured)
            counts[verdict] += 1
        rows.append([f"`{stage}`", text, f"{low:.2f}x .. {high:.2f}x",
                     f"{measured:.2f}x" if measured else NOT_MEASURED,
                     verdict if verdict == NOT_MEASURED else f"{verdict} the prediction"])
    summary = (f"Of {sum(counts.values())} predictions, {counts['within']} held, "
               f"{counts['above']} were beaten and {counts['below']} "
               f"{'was' if counts['below'] == 1 else 'were'} missed.")
    return (table(["stage", "predicted (stage header)", "as a speedup at 2^29",
                   "measured at 2^29", "verdict"], rows, ["l", "l", "r", "r", "l"]) + "\n" +
            summary + " " + tour.source() + "\n")


# ---------------------------------------------------------------------------------------------
# Barriers between steps, the copy at each size, the libraries' launches, occupancy (chapters 2,
# 10 and 11)


BARRIER_METHODS = [("launches", "one launch per step"), ("graph", "CUDA Graph of the launches"),
                   ("grid_sync", "one cooperative launch, grid.sync()")]


def barrier_rows():
    """{(method, log2 n): row} of the barriers experiment."""
    return {(row["method"], log2(row["n"])): row for row in recorded_rows("barriers")}


def barriers_table():
    rows = recorded_rows("barriers")
    if not rows:
        return NOT_MEASURED + "\n"
    found = barrier_rows()
    sizes = sorted({q for _, q in found})
    body = []
    for q in sizes:
        cells = [f"2^{q}", found[("launches", q)]["steps"]]
        for method, _ in BARRIER_METHODS:
            row = found[(method, q)]
            cells.append(f"{ms(float(row['sort_ms']))} ({float(row['us_per_step']):.1f})")
        body.append(cells)
    header = ["n", "steps"] + [f"{label}: ms (us per step)" for _, label in BARRIER_METHODS]
    return (table(header, body) + "\n" + recorded(rows, "tools/experiments.py barriers") +
            "; data: " + data_files("barriers") + ". v0_naive's sort, its own kernel for the "
            "launches and the graph; median of the timed sorts after one warm-up (for the "
            f"graph, the capture), {checked_runs(rows)} checked against std::sort.\n")


def barrier_value(method, q, column):
    row = barrier_rows().get((method, q))
    if row is None:
        return NOT_MEASURED
    if column == "us":
        return f"{float(row['us_per_step']):.1f} us"
    return f"{ms(float(row['sort_ms']))} ms"


def copy_rows():
    return {log2(row["n"]): row for row in recorded_rows("copy")}


def copy_table():
    rows = recorded_rows("copy")
    if not rows:
        return NOT_MEASURED + "\n"
    found = copy_rows()
    sizes = sorted(found)
    largest = float(found[sizes[-1]]["effective_gb_s"])
    body = []
    for q in sizes:
        row = found[q]
        kib = 4 * int(row["n"]) // 2**10
        size = f"{kib} KiB" if kib < 1024 else f"{kib // 1024} MiB"
        speed = float(row["effective_gb_s"])
        body.append([f"2^{q}", size, ms(float(row["sort_ms"])), f"{speed:.0f}",
                     f"{largest / speed:.2f}"])
    header = ["n", "array", "copy ms", "GB/s", f"time over 2^{sizes[-1]}'s bandwidth"]
    return (table(header, body) + "\n" + recorded(rows, "tools/experiments.py copy") +
            "; data: " + data_files("copy") + ". One device-to-device copy of the keys "
            "(`baselines --algo copy`), median of the timed copies after one warm-up; GB/s "
            "counts the bytes read and written.\n")


def copy_value(q, column):
    row = copy_rows().get(q)
    if row is None:
        return NOT_MEASURED
    if column == "gbs":
        return f"{float(row['effective_gb_s']):.0f} GB/s"
    return f"{ms(float(row['sort_ms']))} ms"


SMALL_ARRAYS_RIVALS = ["cub_merge", "cub_radix", "thrust"]
# An experiment that runs programs in turns (spread_runs) to say whether one of them beats the
# others beyond the spread of their runs: the program it judges, its rivals, the column of a row
# that sets its size (n, or the segment), that column's heading, and a word for one rival.
Turns = collections.namedtuple("Turns", "experiment judged rivals column heading rival_word")
SMALL_ARRAYS = Turns("small_arrays", REFERENCE_STAGE, SMALL_ARRAYS_RIVALS, "n", "n", "library")
SEGMENT_SPREAD = Turns("segment_spread", experiments.SHORT_SPREAD_STAGES[0],
                       list(experiments.SHORT_SPREAD_STAGES[1:]),
                       "segment", "array length L", "other stage")
# v22's variants that store keys four to a 16-byte store, against v22 as built and v8 (lab note
# short_arrays): the one whose store is chosen when the kernel is compiled is judged.
V22_STORES = Turns("v22_stores", "v22_store_word_vectors",
                   ["v22_slot_offsets", "v22_store_fours", "v22_store_vectors", "v8_batched"],
                   "segment", "array length L", "other program")
# Its variants whose merges make lane steps on registers after a warp's round (lab note
# short_arrays): the round in every merge with two such steps or more is judged; then the rounds
# with and without their bank conflicts, the best of them judged.
V22_LANES = Turns("v22_lanes", "v22_warp_rounds",
                  ["v22_store_word_vectors", "v22_warp_rounds_blocks6", "v22_warp_rounds3",
                   "v22_slot_offsets", "v8_batched"],
                  "segment", "array length L", "other program")
V22_SWAPS = Turns("v22_swaps", "v22_warp_rounds_swapped3",
                  ["v22_store_word_vectors", "v22_warp_rounds", "v22_warp_rounds_swapped",
                   "v22_warp_rounds3"],
                  "segment", "array length L", "other program")
# The stages from v22 on and v8 (chapters 25 and 26): v24 judged against the others.
STAGE_TURNS = Turns("stage_turns", experiments.STAGE_TURNS[0],
                    list(experiments.STAGE_TURNS[1:] + experiments.SHORT_STAGE_TURNS),
                    "segment", "array length L", "other stage")
# v24's kernel without rounds held to eight blocks an SM, judged against v24 as built and v13,
# whose block_sort of keys fits eight (lab note short_arrays).
V24_BLOCKS = Turns("v24_blocks", "v24_blocks8", ["v24_warp_rounds", "v13_any_bits"],
                   "segment", "array length L", "other program")
# v24 against its store's barriers as chapter 25 left them, judged as V24_BLOCKS.
V24_BARRIER = Turns("v24_barrier", "v24_warp_rounds",
                    ["v24_second_block_barrier", "v24_block_barriers", "v13_any_bits", "v14_span",
                     "v12_key_words"],
                    "segment", "array length L", "other program")
TURNS = {turns.experiment: turns
         for turns in (SMALL_ARRAYS, SEGMENT_SPREAD, V22_STORES, V22_LANES, V22_SWAPS,
                       STAGE_TURNS, V24_BLOCKS, V24_BARRIER)}


def turns_value(name, q, verdict_only=False):
    """How many times faster the judged program of experiment `name` is than its fastest rival
    at 2^q, by their median runs (above 1: the judged program is faster), "1.02x (overlap)"; or
    the verdict alone (faster, slower, overlap)."""
    found = turns_verdicts(TURNS[name]).get(q)
    if found is None:
        return NOT_MEASURED
    return found[2] if verdict_only else f"{found[1]:.2f}x ({found[2]})"


def turns_where(name, verdict):
    """The lengths at which the judged program of experiment `name` got `verdict` (faster, slower,
    overlap) against its fastest rival, as a spoken list: "8, 16 and 32"; "no length" where it
    got it at none, NOT_MEASURED where the experiment has no runs."""
    return lengths_where(name, lambda found: found[2] == verdict)


def turns_behind(name):
    """The lengths at which the judged program of experiment `name` did not have the fastest
    median run (its speedup over the fastest rival's median at most 1, before rounding), as
    turns_where lists them."""
    return lengths_where(name, lambda found: found[1] <= 1)


def lengths_where(name, keep):
    """The lengths whose against_all (rival, speedup, verdict) `keep` accepts, as turns_where
    lists them."""
    verdicts = turns_verdicts(TURNS[name])
    if not verdicts:
        return NOT_MEASURED
    return spoken_list([length_name(q) for q, found in sorted(verdicts.items()) if keep(found)]
                       ) or "no length"


def turns_median(name, program, q):
    """The median of `program`'s runs at 2^q in experiment `name`, run in turns: "0.9661 ms"."""
    found = spread_runs(name, TURNS[name].column).get((program, q))
    return f"{ms(statistics.median(found))} ms" if found else NOT_MEASURED


def turns_slowest(name, program, q):
    """The slowest of `program`'s runs at 2^q in experiment `name`, run in turns: "0.9519 ms"."""
    found = spread_runs(name, TURNS[name].column).get((program, q))
    return f"{ms(max(found))} ms" if found else NOT_MEASURED


def turns_against(name, program, other, q, verdict_only=False):
    """How many times faster `program`'s median run is than `other`'s at 2^q in experiment
    `name`, run in turns (above 1: faster), with the verdict: "0.99x (overlap)"; or the verdict
    alone."""
    found = against_previous(spread_runs(name, TURNS[name].column), program, other, q)
    if found is None:
        return NOT_MEASURED
    return found[1] if verdict_only else f"{found[0]:.2f}x ({found[1]})"


def turns_verdicts(turns):
    """log2 of the row's column -> against_all of the judged program and the rivals that ran at
    that size (stage_turns runs some at the short lengths alone), at each size where the judged
    program and a rival have runs."""
    runs = spread_runs(turns.experiment, turns.column)
    sizes = sorted({size for _, size in runs})
    verdicts = {}
    for q in sizes:
        rivals = [rival for rival in turns.rivals if (rival, q) in runs]
        if (turns.judged, q) in runs and rivals:
            verdicts[q] = against_all(runs, turns.judged, rivals, q)
    return verdicts


def turns_table(turns):
    """Each size's fastest and slowest run of the judged program and of each rival, and the
    judged program against the fastest rival."""
    rows = recorded_rows(turns.experiment)
    if not rows:
        return NOT_MEASURED + "\n"
    runs = spread_runs(turns.experiment, turns.column)
    programs = [turns.judged] + turns.rivals
    body = []
    for q, (fastest, speedup, verdict) in turns_verdicts(turns).items():
        cells = [f"2^{q}"]
        for program in programs:
            values = runs.get((program, q))
            cells.append(f"{ms(min(values))} .. {ms(max(values))}" if values else "not run")
        cells.append(f"{fastest}: {speedup:.2f}x, {verdict}")
        body.append(cells)
    # A stage by its number (v7), a variant by its whole name.
    judged = (turns.judged.split("_")[0] if turns.judged in course.course_stage_names() else
              turns.judged)
    rival = turns.rival_word
    header = ([turns.heading] + [f"{program} ms" for program in programs] +
              [f"{judged} against the fastest {rival}"])
    runs_each = len({row["variant"] for row in rows})
    return (table(header, body) + "\n" +
            recorded(rows, experiment_tool(turns.experiment)) +
            f"; data: {data_files(turns.experiment)}. Each program ran {runs_each} times, "
            f"taking turns, each a separate process reporting the median of {rows[0]['reps']} "
            "timed sorts after one warm-up; the columns give the fastest and the slowest run. "
            f"The last column: how many times faster {judged}'s median run is than the fastest "
            f"{rival}'s, and *faster* where every run of {judged} beat every run of every "
            f"{rival}, *slower* where every run of that {rival} beat every run of {judged}, else "
            "*overlap*.\n")


def small_arrays_faster():
    """The largest 2^q up to which v7 beat every library in every run, from the smallest size
    measured."""
    largest = None
    for q, (_, _, verdict) in turns_verdicts(SMALL_ARRAYS).items():
        if verdict != "faster":
            break
        largest = q
    return f"2^{largest}" if largest is not None else NOT_MEASURED


def library_kernels_table():
    rows = recorded_rows("library_kernels")
    if not rows:
        return NOT_MEASURED + "\n"
    sizes = sorted({log2(row["n"]) for row in rows})
    found = {(row["program"], log2(row["n"])): row for row in rows}
    body = []
    for program in dict.fromkeys(row["program"] for row in rows):
        cells = [program]
        for q in sizes:
            row = found[(program, q)]
            cells.append(f"{row['kernels_per_sort']} ({row['distinct_kernels']})")
        body.append(cells)
    return (table(["library call"] + [f"2^{q}" for q in sizes], body) + "\n" +
            recorded(rows, "tools/ncu_facts.py libraries") +
            "; data: " + data_files("library_kernels") + ". Kernels launched by one call, and "
            "in brackets how many different kernels: Nsight Compute listed every kernel of a "
            "run with one timed sort and of a run with two, and the difference is one call's.\n")


def library_kernels(program, q):
    for row in recorded_rows("library_kernels"):
        if row["program"] == program and log2(row["n"]) == q:
            return row["kernels_per_sort"]
    return NOT_MEASURED


def packed_value(q, column):
    """One column (word_bits, radix_passes, kernels_per_sort) of the record's packed_kernels
    (ncu_facts.py packed): cub_packed_radix sorting arrays of 2^q keys."""
    for row in recorded_rows("packed_kernels"):
        if log2(row["segment"]) == q:
            return row[column]
    return NOT_MEASURED


def occupancy_value(stage, variant, q, instance, column):
    """One column of the record's occupancy: the kernel whose instance name ends with `instance`
    (block_sort, multistep<6>), of that stage and variant at 2^q."""
    for row in recorded_rows("occupancy"):
        if (row["stage"] == stage and row["variant"] == variant and log2(row["n"]) == q and
                row["instance"].endswith("::" + instance)):
            value = float(row[column])
            if column == "theoretical_occupancy_pct":
                return f"{value:g}%"
            return f"{value:.0f}%" if column.endswith("_pct") else f"{value:g}"
    return NOT_MEASURED


def top_times():
    """{(variant, L, K): ms} of the record's tops; the sort of runs of K keys has L = K and K = 0."""
    return {(row["variant"], int(row["segment"]), int(row["top"] or 0)): float(row["sort_ms"])
            for row in recorded_rows("tops")}


def top_table():
    """v10_top_k's --top K against its own full sort and against torch.topk, each (L, K)."""
    rows = recorded_rows("tops")
    times = top_times()
    pairs = sorted((length, top) for variant, length, top in times if variant == "top")
    if not pairs:
        return NOT_MEASURED + "\n"
    body = []
    for length, top in pairs:
        top_ms, full_ms = times[("top", length, top)], times.get(("sort", length, 0))
        runs_ms = times.get(("runs", top, 0))
        rival_ms = times.get(("torch.topk", length, top))
        body.append([length, top, ms(top_ms), ms(times.get(("top keys", length, top))),
                     ms(runs_ms), ms(top_ms - runs_ms) if runs_ms else NOT_MEASURED,
                     ms(full_ms), f"{full_ms / top_ms:.1f}x" if full_ms else NOT_MEASURED,
                     ms(rival_ms), f"{rival_ms / top_ms:.1f}x" if rival_ms else NOT_MEASURED])
    header = ["L", "K", "--top K --values ms", "--top K ms", "runs of K sorted, ms",
              "the rest, ms", "full sort --values ms", "full / top", "torch.topk ms",
              "torch.topk / v10"]
    return (table(header, body) + "\n" +
            recorded(rows, "tools/experiments.py tops") +
            "; data: " + data_files("tops") + ". 2^27 keys in all, uniform over int32; median "
            "of 5 timed runs after one warm-up, all programs in one run; the K keys of each "
            f"array of {checked_runs(rows)} checked against the first K of std::sort's, and their "
            "indices for pointing at them (torch.topk's rows against torch.sort's). Runs of K "
            "sorted: v10_top_k "
            "--segment K --values, the first launches of the top-k alone; the rest: the top-k's "
            "time less that, what block_top costs. torch.topk returns int64 indices." +
            skipped_note(rows) + "\n")


def top_value(kind, length, top):
    """One number of top_table: the full sort's time over the top-k's (speedup), torch.topk's
    over the top-k's (rival), or the top-k's share spent after sorting the runs (rest)."""
    times = top_times()
    top_ms = times.get(("top", length, top))
    other = {"speedup": times.get(("sort", length, 0)),
             "rival": times.get(("torch.topk", length, top)),
             "rest": times.get(("runs", top, 0))}[kind]
    if top_ms is None or other is None:
        return NOT_MEASURED
    if kind == "rest":
        return f"{100 * (top_ms - other) / top_ms:.0f}%"
    return f"{other / top_ms:.1f}x"


def float_times():
    """{(variant, L, K): ms} of the record's floats (variant "float keys", "int argsort", ...,
    torch.sort, torch.topk)."""
    return {(row["variant"], int(row["segment"]), int(row["top"] or 0)): float(row["sort_ms"])
            for row in recorded_rows("floats")}


FLOAT_CASES = [(128, 0), (1024, 0), (4096, 0), (1024, 16)]


def float_table():
    """v11_float_keys on floats against itself and v10_top_k on ints, and torch on float32."""
    rows = recorded_rows("floats")
    times = float_times()
    if not times:
        return NOT_MEASURED + "\n"
    body = []
    for length, top in FLOAT_CASES:
        for what in ("keys", "argsort"):
            floats, ints = times.get((f"float {what}", length, top)), times.get((f"int {what}",
                                                                                length, top))
            v10 = times.get((f"v10 int {what}", length, top))
            rival = times.get(("torch.topk" if top else "torch.sort", length, top))
            body.append([length, top or "all", what,
                         ms(floats), ms(ints), ms(v10),
                         f"{floats / ints:.2f}x" if floats and ints else NOT_MEASURED,
                         f"{floats / v10:.2f}x" if floats and v10 else NOT_MEASURED,
                         ms(rival) if what == "argsort" else "",
                         f"{rival / floats:.1f}x" if what == "argsort" and rival and floats
                         else ""])
    header = ["L", "K kept", "what", "v11 floats ms", "v11 ints ms", "v10 ints ms",
              "floats / v11 ints", "floats / v10", "torch ms", "torch / v11 floats"]
    return (table(header, body) + "\n" +
            recorded(rows, "tools/experiments.py floats") +
            "; data: " + data_files("floats") + ". 2^27 keys in all, median of 5 timed runs "
            "after one warm-up, all programs in one run. v11's floats are uniform over the 2^32 "
            "bit patterns (NaNs included), its ints and v10's uniform over int32; "
            f"{checked_runs(rows)} checked against std::sort (floats in totalOrder, bit for "
            "bit). torch: torch.sort (all kept) "
            "or torch.topk (K = 16) on float32 rows from torch.randn, with int64 indices, set "
            "against v11's argsort." + skipped_note(rows) + "\n")


def float_value(kind, what, length, top):
    """One number of float_table, for `what` (keys or argsort): v11's time on floats over v10's
    on ints (cost) or over its own on ints (type), or torch's over v11's floats (rival)."""
    times = float_times()
    floats = times.get((f"float {what}", length, top))
    other = {"cost": times.get((f"v10 int {what}", length, top)),
             "type": times.get((f"int {what}", length, top)),
             "rival": times.get(("torch.topk" if top else "torch.sort", length, top))}[kind]
    if floats is None or other is None:
        return NOT_MEASURED
    return f"{other / floats:.1f}x" if kind == "rival" else f"{floats / other:.2f}x"


def top_kernel_rows():
    """{(variant, kernel): row} of the record's top_kernels."""
    return {(row["variant"], row["kernel"]): row for row in recorded_rows("top_kernels")}


def top_kernels_table():
    """v10_top_k's two kernels under Nsight Compute, for K = 1, 16 and 64 of arrays of 1024."""
    rows = top_kernel_rows()
    if not rows:
        return NOT_MEASURED + "\n"
    body = []
    for (variant, kernel), row in rows.items():
        body.append([variant.split()[1], kernel, ms(float(row["duration_ns"]) / 1e6),
                     f"{float(row['instructions']) / 1e6:.0f}",
                     f"{float(row['achieved_occupancy_pct']):.0f}%",
                     f"{float(row['dram_read_bytes']) / 2**20:.0f}",
                     f"{float(row['dram_write_bytes']) / 2**20:.0f}",
                     f"{float(row['dram_busy_pct']):.0f}%", f"{float(row['l1_busy_pct']):.0f}%",
                     f"{float(row['shared_wavefronts']) / 1e6:.0f}",
                     f"{float(row['shared_bank_conflicts']) / 1e6:.0f}"])
    header = ["K", "kernel", "ms", "warp instructions (millions)", "achieved occupancy",
              "DRAM MiB read", "DRAM MiB written", "DRAM busy", "L1 / shared busy",
              "shared wavefronts (millions)", "bank conflicts (millions)"]
    return (table(header, body) + "\n" +
            recorded(list(rows.values()), "tools/ncu_facts.py tops") +
            "; data: " + data_files("top_kernels") + ". v10_top_k --log2 27 --segment 1024 "
            f"--top K --values: the second sort's launch of each kernel, {UNDER_NCU}. Busy: the "
            "share of the unit's peak throughput used over the launch.\n")


def top_kernel_value(variant, kernel, column):
    """One column of the record's top_kernels."""
    return metric_text(top_kernel_rows().get((variant, kernel)), column)


def gpus_runs():
    """{(program, GPUs, log2 n): row} of the record's gpus, one process driving its GPUs (those
    of the form with one process a GPU are ranks_runs')."""
    runs = {}
    for row in recorded_rows("gpus"):
        if course.ran_as_ranks(row["variant"]):
            continue
        gpus = int(row["device"].split(" x ")[0]) if " x " in row["device"] else 1
        runs[(row["program"], gpus, log2(row["n"]))] = row
    return runs


def gpus_model():
    """The chapter's time model from the recorded runs: (measured 2^31 on two ms, model ms,
    its parts), or None. Parts: one GPU's sort of 2^30, the exchange of 2^30 keys each way (the
    NCCL exchange alone), keep_half at 1.5 copies (it reads two arrays and writes one) and the
    merge's passes at one copy each, a copy being the copy baseline's time on one GPU."""
    runs = gpus_runs()
    exchange = {int(row["bytes_per_gpu"]): row for row in recorded_rows("exchange")}
    one, two = runs.get((GPUS_STAGE, 1, 30)), runs.get((GPUS_STAGE, 2, 31))
    copy, swap = runs.get(("copy", 1, 30)), exchange.get(4 << 30)
    if not (one and two and copy and swap):
        return None
    merge_passes = int(two["passes"]) - int(one["passes"]) - 1
    parts = {"sort": float(one["sort_ms"]), "exchange": float(swap["exchange_ms"]),
             "keep_half": 1.5 * float(copy["sort_ms"]),
             "merge": merge_passes * float(copy["sort_ms"]), "merge_passes": merge_passes,
             "copy": float(copy["sort_ms"]), "gb_s": float(swap["gb_s_one_way"])}
    model = parts["sort"] + parts["exchange"] + parts["keep_half"] + parts["merge"]
    return float(two["sort_ms"]), model, parts


def gpus_table():
    """The stage across GPUs on one and two GPUs, v7_register_tile, CUB's radix sort and the copy on
    one, and the time model."""
    rows = recorded_rows("gpus")
    found = gpus_model()
    if not rows or found is None:
        return NOT_MEASURED + "\n"
    runs = gpus_runs()
    body = [[f"`{row['program']}`", gpus, f"2^{q}", row["passes"], ms(float(row["sort_ms"])),
             ms(float(row["total_ms"]))] for (program, gpus, q), row in runs.items()]
    measured, model, parts = found
    one = float(runs[(GPUS_STAGE, 1, 30)]["sort_ms"])
    two = runs[(GPUS_STAGE, 2, 31)]
    both = float(runs[(GPUS_STAGE, 2, 30)]["sort_ms"])
    radix = runs.get(("cub_radix", 1, 30))
    against_radix = ""
    if radix:
        # What a user would run on one GPU for 2^30 keys, in copies of the array: a radix sort
        # reads and writes the keys a few times, this stage's network once a pass.
        cub, copy = float(radix["sort_ms"]), parts["copy"]
        faster = "faster" if cub < both else "slower"
        faster_one = "faster" if cub < one else "slower"
        against_radix = (
            f" On one GPU a user would run CUB's radix sort: it sorts 2^30 keys in {ms(cub)} ms "
            f"({cub / copy:.1f} copies of the array), **{both / cub:.2f}x** {faster} than this "
            f"stage on two GPUs ({ms(both)} ms) and {one / cub:.2f}x {faster_one} "
            f"than this stage on one, whose {runs[(GPUS_STAGE, 1, 30)]['passes']} passes take "
            f"{one / copy:.0f} copies. Two GPUs make the network {one / both:.2f}x faster at 2^30 "
            "and let it sort twice the keys; " +
            ("they do not make it a rival of a radix sort on one GPU." if cub < both else
             "at 2^30 they make it faster than a radix sort on one GPU."))
    link = rows[0]["link"]
    joined = (f"NVLink ({link} in `nvidia-smi topo -m`)" if link.startswith("NV") else
              f"{link} in `nvidia-smi topo -m`")
    # NV<k> in `nvidia-smi topo -m`: k NVLinks between the two GPUs. NVLink 3 and 4 (A100,
    # H100, H200) carry 25 GB/s a direction per link, NVIDIA's datasheets: 450 GB/s for NV18.
    links = int(link[2:]) if re.fullmatch(r"NV\d+", link) else 0
    peak = (f", {parts['gb_s'] / (25 * links):.0%} of the {25 * links} GB/s a direction that "
            f"{links} NVLinks carry at most, 25 GB/s each by NVIDIA's datasheets" if links else "")
    inside = (f"This stage's exchange at 2^31, timed inside the sort (the report's `exchange` "
              f"line: CUDA events on the GPU that was ready for it last, median of the timed "
              f"sorts), took {ms(float(two['exchange_ms']))} ms, "
              f"{float(two['exchange_gb_s']):.0f} GB/s one way: "
              f"**{float(two['exchange_gb_s']) / parts['gb_s']:.0%}** of NCCL's speed alone at "
              f"the same size ({parts['gb_s']:.0f} GB/s{peak}; the sort keeps the shorter of the "
              "two GPUs' exchange times, NCCL alone times until both are done, so the ratio can "
              "pass 100%).")
    lines = [table(["program", "GPUs", "n", "passes (per GPU)", "sort ms", "total ms"], body), "",
             f"2^31 keys on two GPUs take **{measured / one:.2f}x** the time of this stage's "
             f"2^30 on one.{against_radix} {inside} The time model: the sort, the "
             "exchange and the copy measured alone, `keep_half` and the merge assumed to cost "
             "the copies their rows say (not timed on their own):",
             "",
             table(["part", "ms"], [
                 ["one GPU's sort of 2^30 keys (`--gpus 1`)", ms(parts["sort"])],
                 [f"the exchange of 4 GiB each way, NCCL alone ({parts['gb_s']:.0f} GB/s one way)",
                  ms(parts["exchange"])],
                 [f"keep_half: 1.5 copies of 2^30 keys (a copy: {ms(parts['copy'])} ms)",
                  ms(parts["keep_half"])],
                 [f"the merge: {parts['merge_passes']} passes at a copy each", ms(parts["merge"])],
                 ["**model**", f"**{ms(model)}**"],
                 ["**measured**", f"**{ms(measured)}** ({measured / model:.3f}x the model)"]]),
             "",
             f"Measured on two {two['device'].split(' x ')[-1]} joined by {joined}, driver "
             f"{rows[0]['nvidia_driver']}, CUDA "
             f"{rows[0]['cuda_runtime']}, NCCL_NVLS_ENABLE={rows[0]['nccl_nvls_enable']}, on "
             f"{record_days(rows + recorded_rows('exchange'))}, by `tools/experiments.py gpus "
             "exchange`; data: " +
             data_files("gpus") + " (each program's median of 5 timed sorts after one "
             "warm-up, validated against std::sort) and " + data_files("exchange") + " "
             "(`build/tools/nccl_exchange --gpus 2 --reps 5`). Across GPUs the sort times are the "
             "host's clock (common/sort_runner.h).\n"]
    return "\n".join(lines)


def gpus_projection():
    """The time model for 2^30 keys on each of P = 2, 4, 8 GPUs, and the data each GPU sends
    against a splitter exchange (each key crosses at most once: (P - 1) / P of a part)."""
    found = gpus_model()
    if found is None:
        return NOT_MEASURED + "\n"
    _, _, parts = found
    body = []
    for gpus in (2, 4, 8):
        levels = gpus.bit_length() - 1
        exchanges = levels * (levels + 1) // 2
        time = parts["sort"] + exchanges * (parts["exchange"] + parts["keep_half"]) + \
            levels * parts["merge"]
        body.append([gpus, exchanges, f"{exchanges * 4} GiB",
                     f"{(gpus - 1) / gpus * 4:.1f} GiB", f"{exchanges * gpus / (gpus - 1):.1f}x",
                     ms(time), f"{time / parts['sort']:.2f}x"])
    return (table(["P", "exchanges", "sent per GPU (bitonic)", "sent per GPU (splitter)",
                   "bitonic / splitter", "model ms", "over one GPU's 2^30"], body) + "\n" +
            "From the model's parts above, with every GPU's link as fast as the measured pair's "
            "(a hypothesis: 4 and 8 GPUs were not measured) and 2^30 keys per GPU, so "
            "P x 2^30 keys in all.\n")


def ranks_runs():
    """{log2 n: row} of the record's gpus: the stage across GPUs as two processes under mpirun."""
    return {log2(row["n"]): row for row in recorded_rows("gpus")
            if row["variant"] == course.ranks_variant(2)}


def ranks_value(kind, q):
    """At 2^q: 'ratio', the two ranks' time over the one process's on two GPUs, or 'over-one',
    the two ranks' time over the one process's 2^(q - 1) on one GPU (twice the keys on twice
    the GPUs)."""
    rank, runs = ranks_runs().get(q), gpus_runs()
    other = (runs.get((GPUS_STAGE, 2, q)) if kind == "ratio" else
             runs.get((GPUS_STAGE, 1, q - 1)))
    if rank is None or other is None:
        return NOT_MEASURED
    return f"{float(rank['sort_ms']) / float(other['sort_ms']):.2f}x"


def ranks_table():
    """The stage across GPUs on two GPUs as one process and as two under mpirun, with CUB's radix sort
    on one GPU, at each size the record ran both forms."""
    ranks, runs = ranks_runs(), gpus_runs()
    body = []
    for q in sorted(ranks):
        one, rank = runs.get((GPUS_STAGE, 2, q)), ranks[q]
        radix = runs.get(("cub_radix", 1, q))
        if one is None:
            continue
        body.append([f"2^{q}", ms(float(one["sort_ms"])), ms(float(rank["sort_ms"])),
                     f"{float(rank['sort_ms']) / float(one['sort_ms']):.2f}x",
                     f"{float(rank['exchange_gb_s']):.0f}" if rank["exchange_gb_s"] else "",
                     ms(float(radix["sort_ms"])) if radix else
                     "- (not run: `baselines` stops at 2^30)"])
    if not body:
        return NOT_MEASURED + "\n"
    return (table(["n", "one process, two GPUs ms", "two ranks ms", "ranks / one process",
                   "two ranks' exchange GB/s one way", "`cub_radix`, one GPU ms"], body) + "\n" +
            f"Measured on two {ranks[max(ranks)]['device'].split(' x ')[-1]} of one machine on "
            f"{record_days(list(ranks.values()))}, in one run of `tools/experiments.py gpus`; "
            "data: " + data_files("gpus") + ". Each row's two forms ran one after the "
            "other, each the median of 5 timed sorts after one warm-up, on the host's clock; the "
            "ranks' from a barrier of both ranks before the sort to one after it. The one "
            "process's sorts are checked against std::sort, the ranks' by their own check "
            "(common/rank_world.cpp: each share in order, each boundary, and a checksum of all "
            "keys)."
            " CUB's radix sort is the `baselines` program's, on one GPU.\n")


# Links between machines, for the time model across nodes: a rank's network bandwidth one way,
# from the links' rated speeds (assumed, not measured by the course): InfiniBand NDR at 400 Gb/s
# and Ethernet at 100 Gb/s, one adapter per GPU.
NODE_LINKS = (("InfiniBand NDR, 400 Gb/s", 50.0), ("Ethernet, 100 Gb/s", 12.5))
# GPUs a machine holds, joined by NVLink: the ranks of one machine are consecutive.
GPUS_PER_NODE = 8


def exchanges_across(gpus, per_node):
    """(exchanges in all, those whose partners are on different machines) of the sort across
    `gpus` GPUs, `per_node` to a machine: merge level l has rank strides 2^(l - 1) .. 1, and a
    stride of per_node or more pairs ranks of two machines."""
    levels, local = gpus.bit_length() - 1, per_node.bit_length() - 1
    across = sum(max(0, level - local) for level in range(1, levels + 1))
    return levels * (levels + 1) // 2, across


def nodes_projection():
    """The time model of 2^30 keys per GPU on 2 .. 64 GPUs, eight to a machine: the exchanges
    within a machine at the measured NVLink speed, those across machines at each NODE_LINKS
    speed."""
    found = gpus_model()
    if found is None:
        return NOT_MEASURED + "\n"
    _, _, parts = found
    # What a GPU sends in an exchange: its 2^30 keys of 4 bytes, in GB.
    sent_gb = 4 * 2 ** 30 / 1e9
    body = []
    for gpus in (2, 4, 8, 16, 32, 64):
        levels = gpus.bit_length() - 1
        exchanges, across = exchanges_across(gpus, GPUS_PER_NODE)
        within = exchanges - across
        base = parts["sort"] + exchanges * parts["keep_half"] + levels * parts["merge"] + \
            within * parts["exchange"]
        times = [base + across * sent_gb / rate * 1000 for _, rate in NODE_LINKS]
        body.append([gpus, exchanges, across] +
                     [f"{ms(time)} ({time / parts['sort']:.1f}x)" for time in times])
    return (table(["P", "exchanges", "of them across machines"] +
                  [f"model ms, {name} ({rate:g} GB/s)" for name, rate in NODE_LINKS], body) +
            "\n" + f"2^30 keys per GPU, {GPUS_PER_NODE} GPUs to a machine joined as the "
            f"measured pair is ({parts['gb_s']:.0f} GB/s one way), consecutive ranks on one "
            "machine; in brackets, over one GPU's sort of 2^30 keys. The links' speeds are their "
            "rated ones, one adapter per GPU, not measured: a hypothesis on paper, like every "
            "row past two GPUs.\n")


# The clusters experiment (tools/cluster_steps.cu, lab note clusters): its sizes, and the methods
# of its table, (method, blocks a cluster, steps) with their labels.
CLUSTER_SIZES = [24, 27, 29]
CLUSTER_METHODS = ([("pass", 1, 0, "read and write, no step")] +
                   [("block", 1, s, f"{s} step{'s' if s > 1 else ''} within a block")
                    for s in range(1, 5)] +
                   [("cluster", 2 ** s, s, f"{s} step{'s' if s > 1 else ''} across a cluster of "
                     f"{2 ** s} blocks") for s in range(1, 5)])


def cluster_rows():
    """{(method, blocks a cluster, steps, log2 n): row} of the clusters experiment."""
    return {(row["method"], int(row["cluster_blocks"]), int(row["steps"]), log2(row["n"])): row
            for row in recorded_rows("clusters")}


def cluster_copies(method, blocks, steps, q):
    """The method's time at 2^q in copies of the array (the copy of the same run), or None."""
    found = cluster_rows()
    row, copy = found.get((method, blocks, steps, q)), found.get(("copy", 1, 0, q))
    if row is None or copy is None:
        return None
    return float(row["kernel_ms"]) / float(copy["kernel_ms"])


def cluster_step(method, blocks, steps, q):
    """What one of the method's steps adds to the pass at 2^q, in copies of the array."""
    with_steps, without = cluster_copies(method, blocks, steps, q), cluster_copies("pass", 1, 0, q)
    if with_steps is None or without is None or steps == 0:
        return None
    return (with_steps - without) / steps


def stage_constant(stage, name):
    """The value of `constexpr unsigned NAME = VALUE;` in the stage's bitonic_index.h, VALUE a
    number or an earlier constant less a number (`kStepsPerPass = kGroupBits - 5`)."""
    with open(os.path.join(course.ROOT, stage, "bitonic_index.h")) as file:
        match = re.search(rf"^constexpr unsigned {name} = (\w+)(?: - (\d+))?;", file.read(),
                          re.M)
    base, less = match.groups()
    value = int(base) if base.isdigit() else stage_constant(stage, base)
    return value - int(less or 0)


def pass_steps(kind):
    """The most compare steps a pass of v15_tile4096 holds: one on a group of neighbouring keys
    (its kGroupBits) or one of global strides (kStepsPerPass)."""
    return stage_constant("v15_tile4096", "kGroupBits" if kind == "group" else "kStepsPerPass")


def merge_steps(q):
    """The compare steps of v15_tile4096's sort of 2^q keys after block_sort: the merges of
    2^(kTileBits + 1) .. 2^q keys, the merge of 2^s keys s steps."""
    return sum(range(stage_constant("v15_tile4096", "kTileBits") + 1, q + 1))


def cluster_step_cost(kind, blocks, q):
    """Copies of the array per compare step of a pass of `kind` (pass_steps) on clusters of
    `blocks` (1: one block, the pass with no step across blocks) at 2^q: the pass's measured
    cost over the steps it would hold, log2 blocks more than one block's. The steps within the
    block are taken as free, so for a cluster it is a floor."""
    extra = blocks.bit_length() - 1
    copies = (cluster_copies("pass", 1, 0, q) if blocks == 1
              else cluster_copies("cluster", blocks, extra, q))
    return None if copies is None else copies / (pass_steps(kind) + extra)


def clusters_table():
    rows = recorded_rows("clusters")
    if not rows:
        return NOT_MEASURED + "\n"
    found = cluster_rows()
    body = []
    for method, blocks, steps, label in CLUSTER_METHODS:
        cells = [label]
        for q in CLUSTER_SIZES:
            copies, step = cluster_copies(method, blocks, steps, q), cluster_step(
                method, blocks, steps, q)
            cells.append(NOT_MEASURED if copies is None else f"{copies:.2f}" +
                         ("" if steps == 0 else f" ({step:+.2f})"))
        row = found.get((method, blocks, steps, CLUSTER_SIZES[-1]))
        cells.append(row["active_clusters"] if row else NOT_MEASURED)
        body.append(cells)
    copies = [found.get(("copy", 1, 0, q)) for q in CLUSTER_SIZES]
    body.append(["copy (cudaMemcpyAsync), ms"] + [
        NOT_MEASURED if row is None else ms(float(row["kernel_ms"])) for row in copies] + [""])
    header = (["one launch over the keys"] +
              [f"2^{q}: copies (a step)" for q in CLUSTER_SIZES] +
              ["clusters at once"])
    return (table(header, body) + "\n" + recorded(rows, "tools/experiments.py clusters") +
            "; data: " + data_files("clusters") + ". Each launch's median of the timed runs "
            "after one warm-up, in copies of the array: its time over the copy's in the same "
            "run. In brackets, what each of its steps adds to the pass without steps. "
            "512 threads a block, 32 keys a thread; the last column, how many clusters the GPU "
            "runs at once (without clusters, how many blocks). Each launch's first run was "
            "checked against the same steps on the host: "
            f"{sum(row['validation'] == 'pass' for row in rows)} of {len(rows)} matched.\n")


def cluster_costs_table():
    if not recorded_rows("clusters"):
        return NOT_MEASURED + "\n"
    body = []
    for blocks in (1, 2, 4, 8, 16):
        cells = ["one block" if blocks == 1 else f"a cluster of {blocks}"]
        for kind in ("group", "global"):
            cells.append(pass_steps(kind) + blocks.bit_length() - 1)
            cells += [ratio(cluster_step_cost(kind, blocks, q), 3) for q in CLUSTER_SIZES[1:]]
        body.append(cells)
    header = ["a pass on", "steps, neighbouring keys"] + [
        f"copies a step, 2^{q}" for q in CLUSTER_SIZES[1:]] + ["steps, global strides"] + [
        f"copies a step, 2^{q}" for q in CLUSTER_SIZES[1:]]
    return (table(header, body) + "\n" + "The most steps a pass of v15_tile4096 holds on one "
            "block (`kGroupBits` on neighbouring keys, `kStepsPerPass` on global strides, "
            "v15_tile4096/bitonic_index.h), and one more for each doubling of the cluster; the "
            "cost a step is the measured pass (above: no step for one block, the steps across "
            "the cluster for a cluster) over those steps. The steps within the block are counted "
            "free, as the table above measures them nearly. Both are floors: a pass that holds "
            "fewer steps, or whose steps within the block cost something, costs more a step.\n")


def cluster_value(args):
    """The prose's values of the clusters experiment, as it prints them:
    METHOD:BLOCKS:STEPS:Q:copies|step, a method's copies or what a step adds (cluster_copies,
    cluster_step); KIND:BLOCKS:Q for KIND group or global, a step's cost in a pass
    (cluster_step_cost); over:KIND:BLOCKS:Q, that over one block's; floor:BLOCKS:Q, the copies of
    v15's merges above block_sort (merge_steps) at a group pass's cost a step on clusters of
    BLOCKS; merge-steps:Q, those merges' steps."""
    if args[0] in ("group", "global"):
        return ratio(cluster_step_cost(args[0], int(args[1]), int(args[2])), 3)
    if args[0] == "over":
        cost, one_block = (cluster_step_cost(args[1], blocks, int(args[3]))
                           for blocks in (int(args[2]), 1))
        return NOT_MEASURED if cost is None or one_block is None else ratio(cost / one_block)
    if args[0] == "floor":
        cost = cluster_step_cost("group", int(args[1]), int(args[2]))
        return NOT_MEASURED if cost is None else f"{cost * merge_steps(int(args[2])):.1f}"
    if args[0] == "merge-steps":
        return str(merge_steps(int(args[1])))
    method, blocks, steps, q, what = args[0], int(args[1]), int(args[2]), int(args[3]), args[4]
    value = (cluster_copies if what == "copies" else cluster_step)(method, blocks, steps, q)
    return ratio(value)
