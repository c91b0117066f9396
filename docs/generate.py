#!/usr/bin/env python3
"""Makes the generated parts of the course text: figures, embedded diffs and code, result tables.

    python3 docs/generate.py --network-dump build/tools/network_dump          write them
    python3 docs/generate.py --network-dump build/tools/network_dump --check  compare only
    python3 docs/generate.py --network-dump build/tools/network_dump --record rtx4090 \
        --out build/docs-rtx4090              the README and chapters from another record

(`meson compile -C build docs` runs the first; the docs test suite runs the second.)

Nothing here is typed by hand: figures come from the reference network and the stages' own
index functions, both printed by tools/network_dump; diffs and code excerpts come from the stage
sources; every measured number comes from a record of docs/results/ (tools/records.py,
docs/tables.py): the default (records.DEFAULT_RECORD) or the one --record names, its chunks that
measured code that has changed since left out whole (one line says which). Where the default
record lacks the runs a block reads, the block reads the fallback record (records.FALLBACK_RECORDS)
if that holds more of them, and a value read there names its GPU ('1.54x (H100)').

A generated block in a Markdown file sits between
    <!-- BEGIN GENERATED name -->  and  <!-- END GENERATED name -->
and is rewritten from scratch; everything outside the markers is prose. A name that ends with
" @RECORD" reads that record alone (a paragraph about one GPU's runs, whichever record the rest
reads), and figure:NAME blocks draw a figure of the results from the record they read. A c: block
(a claim, see CLAIM) keeps its typed sentence while the comparison it names holds on the record
its values read, and is listed where it does not. The lab notes (docs/notes/) are made the same
way; a block of the README or a chapter may not read what only the lab notes' chunks record
(tools/record.py --all). A block the generator cannot make (an unknown name, a malformed claim)
is an error; a bug in the generator is a traceback.

With --check nothing is written: the script lists what is out of date and the claims that do not
hold and exits 1, or exits 0 when all is current; with --record it builds every block from that
record without comparing (the committed files are the default record's), failing on a claim that
does not hold there. With --out the README, the chapters and the figures go under that folder
instead, a claim that does not hold marked in its sentence.
Python 3 standard library only.
"""
import argparse
import difflib
import glob
import os
import re
import sys

DOCS = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(os.path.dirname(DOCS), "tools"))

import course  # noqa: E402
import figures  # noqa: E402
import record as recorder  # noqa: E402
import records  # noqa: E402
import tables  # noqa: E402

ROOT = course.ROOT
FIGURES = os.path.join(DOCS, "figures")

def predictions():
    """Each stage's predicted speedup at 2^29, from the last line of its header's Prediction
    (course.predicted_speedup): {stage: (low, high, summary)}."""
    found = {stage: course.predicted_speedup(stage) for stage in course.course_stage_names()}
    return {stage: prediction for stage, prediction in found.items() if prediction}


class UnknownBlock(Exception):
    """A generated block or inline value the generator cannot make: a name it does not know, a
    malformed claim or marker, or runs the file may not read."""


# ---------------------------------------------------------------------------------------------
# The stages' sources


def read(path):
    with open(path) as file:
        return file.read()


def without_header(text):
    """A stage file without its opening comment (the header is read in the file itself; the
    chapters show the code)."""
    lines = text.splitlines(keepends=True)
    start = 0
    while start < len(lines) and lines[start].startswith("//"):
        start += 1
    return lines[start:]


SECTION_PLACEHOLDER = "// [the {first} .. {last} section: {what}]\n"


def without_section(previous, stage, before, after):
    """The two files' lines with the section the stage's header declares replaced whole cut out
    of each and a one-line placeholder in its place, so that the diff shows what changed around
    it; unchanged where the header declares none."""
    replaced = course.replaced_definitions(previous, stage)
    if not replaced:
        return before, after
    cut = []
    for folder, lines, names, what in ((previous, before, replaced[0], "replaced"),
                                       (stage, after, replaced[1], "listed in full below")):
        path = os.path.join(ROOT, folder, "bitonic_sort.cu")
        start, end = course.section_text(path, names)
        text = "".join(lines)
        offset = len(read(path)) - len(text)
        placeholder = SECTION_PLACEHOLDER.format(first=names[0], last=names[-1], what=what)
        text = text[:start - offset] + placeholder + text[end - offset:].lstrip("\n")
        cut.append(text.splitlines(keepends=True))
    return cut[0], cut[1]


def stage_diff(previous, stage):
    """The unified diff of every file of the stage that differs from the previous stage, the
    header comment of bitonic_sort.cu left out; where the header declares a section replaced
    whole, the diff of bitonic_sort.cu leaves it out too, and the section follows in full."""
    blocks = []
    replaced = course.replaced_definitions(previous, stage)
    for name in ("bitonic_sort.cu", "bitonic_index.h"):
        before = read(os.path.join(ROOT, previous, name))
        after = read(os.path.join(ROOT, stage, name))
        if name == "bitonic_sort.cu":
            before, after = without_section(previous, stage, without_header(before),
                                            without_header(after))
        else:
            before, after = before.splitlines(keepends=True), after.splitlines(keepends=True)
        diff = "".join(difflib.unified_diff(before, after, f"{previous}/{name}",
                                            f"{stage}/{name}", n=2))
        if diff:
            blocks.append(f"`{name}`:\n\n```diff\n{diff}```\n")
        else:
            blocks.append(f"`{name}`: unchanged, byte for byte.\n")
        if name == "bitonic_sort.cu" and replaced:
            path = os.path.join(ROOT, stage, name)
            start, end = course.section_text(path, replaced[1])
            listing = read(path)[start:end]
            blocks.append(f"The section `{replaced[1][0]}` .. `{replaced[1][-1]}` of "
                          f"`{stage}/{name}`, which replaces `{replaced[0][0]}` .. "
                          f"`{replaced[0][-1]}`, in full:\n\n```cpp\n{listing}\n```\n")
    # The tests of each stage (and its main(), if not the usual one) are its entry in
    # stages.txt; meson.build is the same in every stage.
    entries = {entry.name: entry.entry().splitlines(keepends=True) for entry in course.stages()}
    diff = "".join(difflib.unified_diff(entries[previous], entries[stage],
                                        f"stages.txt ({previous})", f"stages.txt ({stage})"))
    blocks.append(f"The entry in `stages.txt`:\n\n```diff\n{diff}```\n")
    return (f"Regenerated from the sources by `docs/generate.py`: the unified diff of "
            f"`{previous}/bitonic_sort.cu` and `{stage}/bitonic_sort.cu` with two lines of "
            f"context, made by Python's difflib (`diff -U2` may cut the hunks apart differently), "
            f"without the header comment (read it in the file), and likewise for the other "
            f"files.\n\n" + "\n".join(blocks))


def code_excerpt(stage, function):
    """The definition of `function` (with the comment above it) from the stage's sources."""
    for name in ("bitonic_sort.cu", "bitonic_index.h"):
        lines = read(os.path.join(ROOT, stage, name)).splitlines()
        for index, line in enumerate(lines):
            declares = re.search(rf"\b{re.escape(function)}\(", line)
            top_level = not line.startswith((" ", "/")) or (
                index > 0 and lines[index - 1].startswith("__global__"))
            if not declares or not top_level or line.rstrip().endswith(";"):
                continue
            start = index
            while start > 0 and lines[start - 1].startswith(("//", "template", "__global__")):
                start -= 1
            end = index
            while not lines[end].startswith("}"):
                end += 1
            body = "\n".join(lines[start:end + 1])
            return f"From `{stage}/{name}`:\n\n```cpp\n{body}\n```\n"
    raise UnknownBlock(f"code:{stage}:{function}: no such function")


# ---------------------------------------------------------------------------------------------
# Generated blocks and inline values


def stage_blocks(tour):
    stages = course.course_stage_names()
    blocks = {}
    for previous, stage in course.course_stage_pairs():
        blocks[f"diff-{stage}"] = lambda p=previous, s=stage: stage_diff(p, s)
        blocks[f"table-{stage}"] = lambda p=previous, s=stage: tables.stage_table(tour, s, p)
    return blocks


def record_seconds(record):
    """(seconds, chunks) of the record's chunks that tools/record.py timed."""
    timed = [entry["seconds"] for entry in record.manifest["chunks"].values()
             if entry.get("seconds")]
    return sum(timed), len(timed)


def record_estimate(record, gpus=1):
    """Minutes of the default record (tools/record.py without --all) on one GPU (gpus=1), of its
    chunks that need two (gpus=2), or of those that need no GPU, the toolkit alone (gpus=0):
    each chunk's seconds in `record` where it was timed, else the catalog's estimate."""
    seconds = 0
    for chunk in recorder.CHUNKS:
        if chunk.optional or chunk.gpus != gpus:
            continue
        entry = record.manifest["chunks"].get(chunk.name) or {}
        seconds += entry.get("seconds") or chunk.seconds
    return seconds / 60


def tour_huge_pages(record):
    """Which of the tour's chunks that time std::sort ran with malloc's huge pages (their
    entries' huge_pages, which tools/record.py writes): 'its chunks at 2^21 .. 2^25 and 2^26 ..
    2^27 ran with the huge pages; the one at 2^10 .. 2^20 without'."""
    found = {True: [], False: [], None: []}
    for chunk in recorder.CHUNKS:
        entry = record.manifest["chunks"].get(chunk.name)
        if entry is not None and chunk.name.startswith("tour-") and "std::sort" in chunk.covers:
            first, _, last = chunk.name[len("tour-"):].partition("-")
            found[entry.get("huge_pages")].append(f"2^{first}" + (f" .. 2^{last}" if last else ""))
    parts = []
    for kept, how in ((True, "ran with the huge pages"), (False, "without them"),
                      (None, "with no record of it")):
        if found[kept]:
            which = " and ".join(found[kept])
            parts.append(f"{'its chunks' if not parts else 'those'} at {which} {how}"
                         if len(found[kept]) > 1 else
                         f"{'its chunk' if not parts else 'the one'} at {which} {how}")
    return "; ".join(parts) or tables.NOT_MEASURED


def chunk_sorting(record, name):
    """'S s of its T s': the seconds the timed sorts of chunk `name` took on the GPU (each row's
    median sort times its timed runs and the warm-up), against the seconds the chunk took."""
    entry = record.manifest["chunks"][name]
    sorting = 0.0
    for experiment in entry["files"]:
        for row in record.rows(experiment):
            if row.get("chunk", name) == name and row.get("reps") and row.get("sort_ms"):
                sorting += (int(row["reps"]) + 1) * float(row["sort_ms"]) / 1000
    return f"{sorting:.0f} s of its {entry['seconds']} s"


def record_status():
    """The chunks of the record the tables read, and those of tools/record.py's catalog it
    lacks: what each covers, the GPUs it needs, when it was recorded (or that it is left out,
    code it measured having changed since) and the seconds it took; then the minutes that the
    chunks tools/record.py timed took."""
    record = tables.RECORD
    stale = {chunk for chunk, _, _ in record.stale_rows()}
    catalog = {chunk.name: chunk for chunk in recorder.CHUNKS}
    names = list(record.manifest["chunks"]) + [name for name in catalog
                                                if name not in record.manifest["chunks"]]
    body = []
    for name in names:
        entry = record.manifest["chunks"].get(name)
        covers = entry["covers"] if entry else catalog[name].covers
        if name in catalog and catalog[name].optional:
            covers += "; read by the lab notes alone, recorded with `--all`"
        gpus = {0: "none", 1: "one", 2: "two"}[entry["gpus"] if entry else catalog[name].gpus]
        if entry is None:
            state = "not recorded"
        elif name in stale:
            state = f"left out: code changed since {entry['date']}"
        else:
            state = f"recorded {entry['date']}"
        took = entry.get("seconds") if entry else None
        body.append([f"`{name}`", covers, gpus, state, f"{took}" if took else ""])
    seconds, count = record_seconds(record)
    return (tables.table(["chunk", "what it measures", "GPUs", f"record {record.name}",
                          "seconds"], body, ["l", "l", "l", "l", "r"]) +
            f"\nRecord {record.name} ({record.gpu()}, `docs/results/{record.name}/record.json`), "
            "its chunks in order, then those of `tools/record.py` it lacks. A chunk is left out "
            "where code it measured has changed since. " + (f"The {count} chunks that `tools/record.py` timed took "
                           f"{seconds / 60:.1f} minutes (the build before them not counted; a "
                           "chunk recorded before `tools/record.py` has no seconds).\n"
                           if count else
                           f"No chunk of record {record.name} was timed by `tools/record.py`.\n"))


def generated_blocks(tour, profile, network_dump):
    stages = course.course_stage_names()
    blocks = {
        "readme-results": lambda: tables.readme_results(tour),
        "v0-table": lambda: tables.v0_table(tour),
        "passes-v13_any_bits": lambda: tables.passes_table(
            tour, ["v7_register_tile", "v12_key_words", "v13_any_bits"]),
        "crossover": lambda: tables.crossover(tour),
        "totals": lambda: tables.totals(tour),
        "transfers": tables.transfers_table,
        "banks-ncu": lambda: tables.banks_table(
            ["v2_shared", "v3_warp", "v4_half_threads", "v5_bank_free"]),
        "banks-register-tile": lambda: tables.banks_table(
            ["v7_register_tile", "v7_unpadded", "v8_batched", "v8_unpadded"]),
        "banks-items": lambda: tables.banks_table(
            ["v8_batched", "v9_argsort", "v12_key_words"]),
        "sass-register-tile": lambda: tables.sass_kernels_table(
            ["v7_register_tile", "v7_unpadded"], ["block_sort", "block_merge"],
            ("STS", "STS.128", "LDS", "LDS.128", "BAR.SYNC.DEFER")),
        "sass-tile": lambda: tables.sass_table(
            "block_sort", ["v2_shared", "v3_warp", "v4_half_threads", "v5_bank_free"],
            ("LDG.E", "STS", "STS.64", "LDS", "LDS.64", "STG.E", "SHFL.BFLY", "BAR.SYNC.DEFER")),
        "sass-lanes": lambda: tables.sass_kernels_table(
            ["v8_batched", "v8_lanes_mad", "v8_round256"], ["block_sort"],
            ("VIMNMX", "SEL", "SHFL.BFLY", "LDS", "STS", "BAR.SYNC.DEFER")),
        "sass-compare": lambda: tables.sass_kernels_table(
            ["v9_argsort", "v9_minmax_lanes", "v9_swap_source", "v9_one_compare",
             "v9_double_minmax", "v9_split_items"], ["block_sort"],
            ("ISETP", "ISETP.EX", "SEL", "DSETP.MIN", "DSETP.MAX", "FSEL", "VIMNMX.U32",
             "SHFL.BFLY")),
        "sass-items": lambda: tables.sass_kernels_table(
            ["v8_batched", "v8_keys8", "v9_argsort"], ["block_sort"],
            ("VIMNMX", "ISETP", "ISETP.EX", "SEL", "SHFL.BFLY", "LDS", "LDS.64")),
        "lower-partner-examples": lambda: tables.lower_partner_examples(network_dump),
        "repeat": tables.repeat_table,
        "spread": tables.spread_table,
        "neighbours": tables.neighbours_table,
        "distributions": tables.distributions_table,
        "distributions-v0": lambda: tables.distributions_table(["v0_naive"]),
        "swaps": lambda: tables.swaps_table(network_dump),
        "tally": lambda: tables.tally(tour, predictions()),
        "written-v0": lambda: tables.written_table(profile, "v0_naive", 27, "bitonic_step"),
        "stride-classes": lambda: tables.stride_table(profile, ["v0_naive"]),
        "profile-in-block": lambda: tables.profile_table(
            profile, ["v1_fused", "v2_shared", "v3_warp", "v4_half_threads"]),
        "v4-tile": lambda: tables.experiment_table(
            "v4_tile", baseline="1024-thread blocks, 2048-key tile"),
        "v6-steps": lambda: tables.experiment_table("v6_steps", baseline="6 steps per pass"),
        "v7-tile": lambda: tables.experiment_table(
            "v7_tile", baseline="16 keys per thread, 8192-key tile"),
        "v7-padding": lambda: tables.experiment_table(
            "v7_padding", sizes=[20, 27], baseline="padded tile"),
        "registers-multistep": lambda: tables.registers_table("v6_multistep"),
        "words-registers": tables.words_registers_table,
        "segments": tables.segments_table,
        "argsorts": tables.argsorts_table,
        "argsort-stage": tables.argsort_stage_table,
        "word-argsorts": tables.word_argsorts_table,
        "items": tables.items_table,
        "top-stage": tables.top_table,
        "top-kernels": tables.top_kernels_table,
        "float-stage": tables.float_table,
        "gpus-stage": tables.gpus_table,
        "gpus-projection": tables.gpus_projection,
        "gpus-ranks": tables.ranks_table,
        "gpus-nodes": tables.nodes_projection,
        "v8-mapping": tables.mapping_table,
        "v9-mapping": lambda: tables.mapping_table("v9_mapping"),
        "v9-compare": lambda: tables.mapping_table("v9_compare"),
        "v15-tops": lambda: tables.mapping_table("v15_tops"),
        "v16-tops": lambda: tables.mapping_table("v16_tops"),
        "v20-rounds": lambda: tables.mapping_table("v20_rounds"),
        "v20-round-argsorts": lambda: tables.mapping_table("v20_round_argsorts"),
        "v21-keys": lambda: tables.mapping_table("v21_keys"),
        "v21-slots": lambda: tables.mapping_table("v21_slots"),
        "v20-warp-tiles": lambda: tables.mapping_table("v20_warp_tiles"),
        "v17-argsorts": tables.v17_argsorts_table,
        "mirrored-stages": lambda: tables.stage_pair_table("v18_mirrored", "v17_prefix_argsort"),
        "coalesced-stages": lambda: tables.stage_pair_table("v19_coalesced_store", "v18_mirrored"),
        "fixup-stages": lambda: tables.stage_pair_table("v20_register_fixup",
                                                        "v19_coalesced_store"),
        "warp-tiles-stages": lambda: tables.stage_pair_table("v21_warp_tiles",
                                                             "v20_register_fixup"),
        "slot-offsets-stages": lambda: tables.stage_pair_table("v22_slot_offsets",
                                                               "v21_warp_tiles"),
        "directions": lambda: tables.flips_table("directions"),
        "mirrored": lambda: tables.flips_table("mirrored"),
        "v8-pipes": tables.pipes_table,
        "v13-groups": lambda: tables.experiment_table(
            "v13_groups", sizes=[16, 18, 20, 22, 24, 27, 29],
            baseline="2^14-key groups, 512 threads of 32 keys",
            baseline_label="the stage as built"),
        "v13-groups-profile": lambda: tables.groups_profile_table(profile),
        "v19-groups": lambda: tables.experiment_table(
            "v19_groups", sizes=[16, 18, 20, 22, 24, 27, 29],
            baseline="2^14-key groups, 512 threads of 32 keys",
            baseline_label="v19 as built"),
        "v19-groups-profile": tables.v19_groups_profile_table,
        "v13-passes": lambda: tables.experiment_table(
            "v13_passes", sizes=[20, 24, 27, 29],
            baseline="as built (bits 0 .. 4 kept, 9 global steps a pass)",
            baseline_label="the stage as built"),
        "v13-passes-profile": lambda: tables.passes_profile_table(profile),
        "passes-v14_span": lambda: tables.span_passes_table(network_dump, tour),
        # What to use, by workload (chapter 28).
        "which-sort": lambda: tables.which_sort_table(tour),
        # What v14_span's rule for a merge's last pass costs in passes (chapter 16).
        "tail-rule-passes": lambda: tables.tail_rule_text(network_dump),
        "v14-span": lambda: tables.experiment_table(
            "v14_span", sizes=[16, 20, 24, 27, 29], baseline="v14_span",
            baseline_label="v14_span's"),
        "v14-span-profile": lambda: tables.span_profile_table(profile),
        "v14-argsorts": lambda: tables.experiment_table(
            "v14_argsorts", sizes=[20, 24, 27], baseline="v14_span --values",
            baseline_label="v14's argsort"),
        "v15-tile": lambda: tables.experiment_table(
            "v15_tile", sizes=[16, 20, 24, 27, 29], baseline="v15_tile4096",
            baseline_label="v15_tile4096's"),
        "v15-tile-profile": lambda: tables.span_profile_table(profile, "v15_tile4096"),
        "segment-stages": lambda: tables.segment_stages_table(),
        "segment-stages-argsorts": lambda: tables.segment_stages_table(values=True),
        "v15-argsorts": lambda: tables.experiment_table(
            "v15_argsorts", sizes=[20, 24, 27], baseline="v15_tile4096 --values",
            baseline_label="v15's argsort"),
        "long-argsorts": lambda: tables.experiment_table(
            "long_argsorts", sizes=[20, 24, 27], baseline="v13_any_bits --values",
            baseline_label="v13's argsort"),
        "barriers": tables.barriers_table,
        "clusters": tables.clusters_table,
        "cluster-costs": tables.cluster_costs_table,
        "copy-sizes": tables.copy_table,
        "small-arrays": lambda: tables.turns_table(tables.SMALL_ARRAYS),
        "segment-spread": lambda: tables.turns_table(tables.SEGMENT_SPREAD),
        "v22-stores": lambda: tables.turns_table(tables.V22_STORES),
        "v22-lanes": lambda: tables.turns_table(tables.V22_LANES),
        "v22-swaps": lambda: tables.turns_table(tables.V22_SWAPS),
        "stage-turns": lambda: tables.turns_table(tables.STAGE_TURNS),
        "v24-blocks": lambda: tables.turns_table(tables.V24_BLOCKS),
        "v24-barrier": lambda: tables.turns_table(tables.V24_BARRIER),
        "warp-round-kernels": tables.warp_round_kernels_table,
        "short-block-kernels": tables.short_block_kernels_table,
        "library-kernels": tables.library_kernels_table,
        "record-status": record_status,
    }
    for stage in stages:
        blocks[f"profile-{stage}"] = lambda s=stage: tables.profile_table(profile, [s])
    for q in tour.sizes():
        blocks[f"progression-{q}"] = lambda q=q: tables.progression(tour, q)
    blocks.update(stage_blocks(tour))
    return blocks


def from_tour(value):
    """A value read from the tour at n = 2^q for the program args[0], q the last argument:
    value(tour, row, program, args, q); "not measured" where the tour has no such run."""
    def read(args, tour, profile):
        program, q = args[0], int(args[-1])
        row = tour.get(program, q)
        return tables.NOT_MEASURED if row is None else value(tour, row, program, args, q)
    return read


def metric_row(profile, args):
    """The profiled launch of STAGE:Q:KERNEL[:STRIDE]: the kernel's first, or that stride's."""
    rows = profile.metric_rows(args[0], int(args[1]), args[2])
    return [row for row in rows if len(args) < 4 or row["stride"] == args[3]][0]


def metric_share(column):
    return lambda args, tour, profile: f"{float(metric_row(profile, args)[column]):.0f}%"


def copies_range(profile, args):
    """STAGE:Q:KERNEL[:STRIDE]: the shortest and the longest of its launches (those whose largest
    stride is STRIDE), in copies of the array."""
    launches = [row for row in profile.launches(args[0], int(args[1]))
                if row["kernel"] == args[2] and (len(args) < 4 or int(row["stride"]) == int(args[3]))]
    if not launches:
        raise ValueError(f"copies-range:{':'.join(args)}: no such launch was profiled")
    return tables.copies_range_text(launches, 1e6 * profile.copy_ms(args[0], int(args[1])))


def steps_copies(profile, args, pick=None):
    """STAGE:Q:KERNEL:FIRST:LAST: the cheapest and the dearest of its launches of FIRST .. LAST
    steps, in copies of the array ('0.97 .. 1.06'), or with pick (max) the one of them it picks."""
    first, last = int(args[3]), int(args[4])
    launches = [row for row in profile.launches(args[0], int(args[1]))
                if row["kernel"] == args[2] and first <= int(row["steps"]) <= last]
    if not launches:
        raise ValueError(f"steps-copies:{':'.join(args)}: no such launch was profiled")
    copy_ns = 1e6 * profile.copy_ms(args[0], int(args[1]))
    if pick:
        return f"{pick(float(row['duration_ns']) / copy_ns for row in launches):.2f}"
    return tables.copies_range_text(launches, copy_ns)


def dram_range(profile, args):
    """STAGE:Q:KERNEL: the lowest and highest DRAM share of peak over its profiled launches."""
    shares = [float(row["dram_pct_of_peak"])
              for row in profile.metric_rows(args[0], int(args[1]), args[2])]
    return f"{min(shares):.0f}% to {max(shares):.0f}%"


def comparisons(q):
    """Compare-exchanges of the bitonic network, n log2(n)^2 / 4 (q(q+1)/2 steps of n/2),
    against the n log2(n) of a good comparison sort, for n = 2^q."""
    return f"{(q * (q + 1) / 2 * 2**q / 2) / (q * 2**q):.2f}"


def kernel_build(args):
    """STAGE:KERNEL[:ARGUMENTS[:words]] -> the label tools/registers.py gives that build:
    KERNEL<ARGUMENTS> (KERNEL alone for empty ARGUMENTS: block_sort::words), with
    " (32-bit words)" for `words`."""
    name = with_steps(args[1], args, 2) if args[2:3] != [""] else args[1]
    return name + (" (32-bit words)" if args[3:] == ["words"] else "")


def with_steps(name, args, steps_at):
    """KERNEL, or KERNEL<STEPS> (multistep) when args holds a STEPS at index steps_at."""
    return name + (f"<{args[steps_at]}>" if len(args) > steps_at else "")


def experiment_ratio(args):
    """EXPERIMENT:VARIANT:BASELINE:Q: VARIANT's time over BASELINE's."""
    experiment, variant, baseline, q = args[0], args[1], args[2], int(args[3])
    return tables.ratio(tables.experiment_time(experiment, variant, q) /
                        tables.experiment_time(experiment, baseline, q))


def group_copies(profile, args):
    """PROGRAM:KIND:min|max of tables.group_pass_copies, or "not measured"."""
    copies = tables.group_pass_copies(profile, args[0], args[1])
    if not copies:
        return tables.NOT_MEASURED
    return f"{(min if args[2] == 'min' else max)(copies):.2f}"


def recorded_text(value):
    """A recorded count as the prose gives it, or "not measured" for None."""
    return tables.NOT_MEASURED if value is None else str(value)


def segment_copies(name, program, s):
    """'1.52', PROGRAM's time for arrays of 2^s keys in the experiment `name` over the copy
    baseline's time for 2^27 keys, or "not measured"."""
    mine, copy = tables.segment_times(name).get(program, {}).get(s), tables.segment_copy_ms()
    return tables.NOT_MEASURED if mine is None or not copy else f"{mine / copy:.2f}"


def ms_text(value):
    """'2.36 ms', or "not measured" for None."""
    return tables.NOT_MEASURED if value is None else tables.ms(value) + " ms"


def times_text(value):
    """'2.38x', or "not measured" for None."""
    return tables.NOT_MEASURED if value is None else f"{value:.2f}x"


def spread_value(kind):
    return lambda args, tour, profile: tables.spread_value([kind] + args)


def distribution_bound(pick):
    """The value v:distribution-low or -high: `pick` (min or max) of tables.distribution_ratios."""
    return lambda args, tour, profile: tables.ratio(pick(tables.distribution_ratios(
        args[0], args[1], int(args[2]), args[3].split(",") if len(args) > 3 else None)))


# v:KIND:ARGS, one number for the prose: KIND -> a function of (ARGS, tour, profile).
INLINE_VALUES = {
    # The copy bandwidth of the tour's runs (one in each of its chunks): 'N GB/s' or 'N to M GB/s'.
    "copy": lambda args, tour, profile: (
        tables.range_text(tour.copies, "{:.0f}").replace(" .. ", " to ") + " GB/s"
        if tour.copies else tables.NOT_MEASURED),
    "crossover": lambda args, tour, profile: tables.crossover_size(tour, args[0], args[1]),
    # Q: the stage with the shortest sort of 2^Q keys in the tour.
    "fastest-stage": lambda args, tour, profile: f"`{tables.fastest_stage(tour, int(args[0]))}`",
    # PROGRAM:Q: how many times faster PROGRAM is than that stage.
    "over-fastest-stage": lambda args, tour, profile: times_text(
        tables.over_fastest_stage(tour, args[0], int(args[1]))),
    # METHOD:Q:us (microseconds per step) or METHOD:Q:ms (the sort).
    "barrier": lambda args, tour, profile: tables.barrier_value(args[0], int(args[1]), args[2]),
    # The clusters experiment's values: METHOD:BLOCKS:STEPS:Q:copies|step, group|global:BLOCKS:Q,
    # over:KIND:BLOCKS:Q, floor:BLOCKS:Q, merge-steps:Q (tables.cluster_value).
    "cluster": lambda args, tour, profile: tables.cluster_value(args),
    # Q:gbs or Q:ms, the copy baseline at 2^Q.
    "copy-at": lambda args, tour, profile: tables.copy_value(int(args[0]), args[1]),
    "small-arrays-faster": lambda args, tour, profile: tables.small_arrays_faster(),
    # NAME:Q: how many times faster the program an experiment run in turns judges (tables.TURNS)
    # is than its fastest rival at 2^Q, by median runs, "0.98x (overlap)" (below 1: slower);
    # turns-verdict: the verdict alone (faster, slower, overlap).
    "turns": lambda args, tour, profile: tables.turns_value(args[0], int(args[1])),
    "turns-verdict": lambda args, tour, profile: tables.turns_value(args[0], int(args[1]), True),
    # NAME:VERDICT, the lengths where the judged program got that verdict: "8, 16 and 32".
    "turns-where": lambda args, tour, profile: tables.turns_where(args[0], args[1]),
    # NAME, the lengths where the judged program's median run was not the fastest.
    "turns-behind": lambda args, tour, profile: tables.turns_behind(args[0]),
    # EXPERIMENT:PROGRAM:OTHER:Q, two programs of an experiment run in turns, as turns gives.
    "turns-against": lambda args, tour, profile: tables.turns_against(args[0], args[1], args[2],
                                                                      int(args[3])),
    "turns-against-verdict": lambda args, tour, profile: tables.turns_against(
        args[0], args[1], args[2], int(args[3]), verdict_only=True),
    # EXPERIMENT:PROGRAM:Q, the median of the program's runs there; turns-slowest: the slowest.
    "turns-median": lambda args, tour, profile: tables.turns_median(args[0], args[1],
                                                                    int(args[2])),
    "turns-slowest": lambda args, tour, profile: tables.turns_slowest(args[0], args[1],
                                                                      int(args[2])),
    "library-kernels": lambda args, tour, profile: tables.library_kernels(args[0], int(args[1])),
    # STAGE:KERNEL, the bank conflicts of the kernel's loads and stores (measure_banks.py).
    "bank-conflicts": lambda args, tour, profile: tables.bank_conflicts(args[0], args[1]),
    # EXPERIMENT[:EXPERIMENT...]: the record's files that hold their runs.
    "data": lambda args, tour, profile: (
        tables.data_files(*args) if all(tables.recorded_rows(name) for name in args)
        else tables.NOT_MEASURED),
    # The minutes the chunks of the record that tools/record.py timed took, and how many.
    "record-minutes": lambda args, tour, profile: (
        f"{record_seconds(tables.RECORD)[0] / 60:.0f} minutes"),
    "record-chunks": lambda args, tour, profile: str(record_seconds(tables.RECORD)[1]),
    # The chunks whose many arrays were checked at each program's first array length alone.
    "first-length-only": lambda args, tour, profile: tables.first_length_only(
        notes_only_experiments()),
    "record-estimate": lambda args, tour, profile: (
        f"{record_estimate(tables.RECORD):.0f} minutes"),
    # The same for the chunks that need the toolkit alone (the registers, the machine code), and
    # for those that need two GPUs.
    "record-estimate-toolkit": lambda args, tour, profile: (
        f"{record_estimate(tables.RECORD, 0):.0f} minutes"),
    "record-estimate-two": lambda args, tour, profile: (
        f"{record_estimate(tables.RECORD, 2):.0f} minutes"),
    # Which of the tour's chunks with std::sort ran with malloc's huge pages.
    "tour-huge-pages": lambda args, tour, profile: tour_huge_pages(tables.RECORD),
    # NAME: the seconds chunk NAME's timed sorts took on the GPU, of the chunk's seconds.
    "chunk-sorting": lambda args, tour, profile: chunk_sorting(tables.RECORD, args[0]),
    # S:COLUMN of the record's packed_kernels: cub_packed_radix on arrays of 2^S keys.
    "packed": lambda args, tour, profile: tables.packed_value(int(args[0]), args[1]),
    # STAGE:VARIANT:Q:KERNEL:COLUMN[:STEPS] of the record's occupancy.
    "occupancy-fact": lambda args, tour, profile: tables.occupancy_value(
        args[0], args[1], int(args[2]), with_steps(args[3], args, 5), args[4]),
    "cpu-crossover": lambda args, tour, profile: tables.cpu_crossover_size(tour),
    "segments-crossover": lambda args, tour, profile: tables.segments_crossover(),
    "argsort-crossover": lambda args, tour, profile: tables.segments_crossover(
        "argsorts", "v9_argsort", tables.ARGSORT_RIVALS),
    "comparisons": lambda args, tour, profile: comparisons(int(args[0])),
    # STAGE:KERNEL[:ARGUMENTS[:words]] for the next two: KERNEL<ARGUMENTS> (group_steps:14,0 for
    # group_steps<14,0>, block_sort:0 for block_sort<0>), its build for 32-bit words with `words`.
    # Registers per thread:
    "registers": lambda args, tour, profile: recorded_text(
        tables.registers(args[0], kernel_build(args))),
    # bytes a thread spills to local memory:
    "spills": lambda args, tour, profile: recorded_text(
        tables.registers(args[0], kernel_build(args), "spill_bytes")),
    # STAGE:Q:KERNEL for the next two: its time in copies of the array, its share of the sort.
    "kernel-copies": lambda args, tour, profile: (
        f"{profile.kernels(args[0], int(args[1]))[args[2]][2]:.2f}"),
    # STAGE:Q:KERNEL[:STRIDE]: its cheapest and its dearest launch (of that largest stride), in
    # copies of the array.
    "copies-range": lambda args, tour, profile: copies_range(profile, args),
    # STAGE:Q:KERNEL:FIRST:LAST: its launches of FIRST .. LAST steps (multistep), cheapest ..
    # dearest in copies of the array; -max: the dearest alone, for a claim.
    "steps-copies": lambda args, tour, profile: steps_copies(profile, args),
    "steps-copies-max": lambda args, tour, profile: steps_copies(profile, args, max),
    # KIND[:STAGE[:Q]]: v14_span's (or that stage's or variant's) launches of that kind (an
    # index of tables.SPAN_KINDS) at 2^27 (or 2^Q), in copies.
    "span-copies": lambda args, tour, profile: tables.span_copies(
        profile, int(args[0]), args[1] if len(args) > 1 else "v14_span",
        int(args[2]) if len(args) > 2 else 27),
    "kernel-share": lambda args, tour, profile: (
        f"{100 * profile.kernels(args[0], int(args[1]))[args[2]][1]:.0f}%"),
    # STAGE:Q:KERNEL[:STRIDE] for the next five (metric_row).
    "dram": metric_share("dram_pct_of_peak"),
    "occupancy": metric_share("achieved_occupancy_pct"),
    "sm": metric_share("sm_pct_of_peak"),
    "l2-hit": metric_share("l2_hit_pct"),
    "dram-read": lambda args, tour, profile: (
        f"{float(metric_row(profile, args)['dram_read_bytes']):,.0f} bytes"),
    "dram-range": lambda args, tour, profile: dram_range(profile, args),
    # STAGE:Q:KERNEL[:STRIDE], bytes written over read in the last merge: the launch of that
    # stride, or all of the merge's launches.
    "written": lambda args, tour, profile: "{:.0f}%".format(100 * tables.written_share(
        profile, args[0], int(args[1]), args[2], int(args[3]) if len(args) > 3 else None)),
    "spread": spread_value("spread"),
    "spread-range": spread_value("spread-range"),
    "spread-max": spread_value("spread-max"),
    # Q: the largest difference between two runs of one build in the repeat table from 2^Q up.
    "repeat-max": lambda args, tour, profile: tables.repeat_max(int(args[0])),
    "neighbours": spread_value("neighbours"),
    "neighbours-verdict": spread_value("neighbours-verdict"),
    # ratio:Q or over-one:Q: the two ranks' time at 2^Q over the one process's (tables.py).
    "ranks": lambda args, tour, profile: tables.ranks_value(args[0], int(args[1])),
    # The measured time of 2^31 keys on two GPUs over chapter 27's model of it.
    "gpus-model-ratio": lambda args, tour, profile: (
        tables.NOT_MEASURED if tables.gpus_model() is None else
        f"{tables.gpus_model()[0] / tables.gpus_model()[1]:.3f}x"),
    # EXPERIMENT: which stages' records of EXPERIMENT come from which day.
    "stages-by-day": lambda args, tour, profile: tables.stages_by_day(
        tables.recorded_rows(args[0])),
    # STAGE:Q:DISTRIBUTION: its time over the time on uniform keys.
    "distribution": lambda args, tour, profile: tables.ratio(
        tables.distribution_ratio(args[0], int(args[1]), args[2])),
    # FIRST:LAST:Q[:DIST,DIST]: the least and the most of the stages FIRST .. LAST's times on
    # those distributions (all but uniform) over their time on uniform keys at 2^Q.
    "distribution-low": distribution_bound(min),
    "distribution-high": distribution_bound(max),
    "experiment": lambda args, tour, profile: tables.ms(
        tables.experiment_time(args[0], args[1], int(args[2]))) + " ms",
    "experiment-ratio": lambda args, tour, profile: experiment_ratio(args),
    # PROGRAM:KIND:min|max: its cheapest or dearest pass of that kind at 2^27, in copies
    # (tables.group_pass_copies: after, global, ends), from the groups note's own profile.
    "group-copies": lambda args, tour, profile: group_copies(tables.GROUPS_PROFILE, args),
    # EXPERIMENT:VARIANT:Q: the passes VARIANT made at 2^Q there.
    "experiment-passes": lambda args, tour, profile: recorded_text(
        tables.experiment_passes(args[0], args[1], int(args[2]))),
    # NAME:V:S: variant V of the mapping experiment NAME (v8_mapping, v8_pipes, v9_mapping,
    # v9_compare) over its first, the stage as built, for arrays of 2^S keys.
    "mapping-ratio": lambda args, tour, profile: tables.ratio(
        tables.mapping_ratio(int(args[2]), args[0], int(args[1]))),
    # NAME:V:B:S: variant V of the mapping experiment NAME over its variant B, arrays of 2^S keys.
    "mapping-over": lambda args, tour, profile: tables.ratio(
        tables.mapping_ratio(int(args[3]), args[0], int(args[1]), int(args[2]))),
    # PROGRAM:S, arrays of 2^S keys (the segments experiment).
    "segment": lambda args, tour, profile: tables.ms(
        tables.segment_times().get(args[0], {}).get(int(args[1]))) + " ms",
    # S: the fastest rival of v8_batched for arrays of 2^S keys, and its time over v8's.
    "segment-rival": lambda args, tour, profile: tables.SEGMENT_RIVALS[
        tables.fastest_rival(tables.segment_times(), int(args[0]))[0]],
    "segment-rival-speedup": lambda args, tour, profile: "{:.1f}x".format(
        tables.fastest_rival(tables.segment_times(), int(args[0]))[1] /
        tables.segment_times()["v8_batched"][int(args[0])]),
    # EXPERIMENT:PROGRAM:S, PROGRAM's time for arrays of 2^S keys in EXPERIMENT.
    "segment-time": lambda args, tour, profile: ms_text(
        tables.segment_times(args[0]).get(args[1], {}).get(int(args[2]))),
    # PROGRAM:S, arrays of 2^S keys, from the argsorts experiment.
    "argsort": lambda args, tour, profile: tables.ms(
        tables.segment_times("argsorts").get(args[0], {}).get(int(args[1]))) + " ms",
    # PROGRAM:OTHER:S, PROGRAM's time over OTHER's in the argsorts experiment.
    "argsort-ratio": lambda args, tour, profile: "{:.1f}x".format(
        tables.segment_times("argsorts")[args[0]][int(args[2])] /
        tables.segment_times("argsorts")[args[1]][int(args[2])]),
    # EXPERIMENT:PROGRAM:OTHER:S, PROGRAM's time over OTHER's for arrays of 2^S keys.
    "segment-ratio": lambda args, tour, profile: times_text(
        tables.segment_ratio(args[0], args[1], args[2], int(args[3]))),
    # The copy baseline's time for 2^27 keys in the record.
    "segment-copy-ms": lambda args, tour, profile: tables.ms(tables.segment_copy_ms()) + " ms",
    # EXPERIMENT:PROGRAM:S, PROGRAM's time for arrays of 2^S keys (2^27 keys in all) over that
    # of a copy of the 2^27 keys.
    "experiment-copies": lambda args, tour, profile: segment_copies(args[0], args[1], int(args[2])),
    # NAME:PROGRAM:S:FIELD, a column of PROGRAM's record for arrays of 2^S keys (launches, ...).
    "segment-field": lambda args, tour, profile: recorded_text(
        tables.segment_field(args[0], args[1], int(args[2]), args[3])),
    # PROGRAM[:values][:earlier]: the lengths at which PROGRAM is segment_stages' fastest stage
    # (with `earlier`, of the stages up to it: a stage's chapter names no later one).
    "segment-stages-fastest-at": lambda args, tour, profile: tables.segment_stages_fastest_at(
        args[0], values="values" in args[1:], earlier="earlier" in args[1:]),
    # PROGRAM:LO:HI[:earlier]: PROGRAM's time over the fastest stage's of segment_stages at the
    # length from 2^LO to 2^HI keys per array where it is largest (1.00x: the fastest at every
    # one).
    "segment-stages-behind": lambda args, tour, profile: times_text(
        tables.segment_stages_behind(args[0], int(args[1]), int(args[2]),
                                     earlier=args[3:] == ["earlier"])),
    # PROGRAM:LO:HI[:earlier]: the stages faster than PROGRAM from 2^LO to 2^HI keys per array,
    # and where.
    "segment-stages-beaten": lambda args, tour, profile: tables.segment_stages_beaten(
        args[0], int(args[1]), int(args[2]), earlier=args[3:] == ["earlier"]),
    # [values]: the largest L up to which the fastest stage of segment_stages (its argsorts)
    # beats the fastest rival at every length measured.
    "segment-stages-faster-up-to": lambda args, tour, profile:
        tables.segment_stages_faster_up_to(values=args == ["values"]),
    # PROGRAM:OTHER:Q: the tour size from which PROGRAM is faster than OTHER, among 2^Q and up.
    "tour-faster-from": lambda args, tour, profile: tables.tour_overtaking_size(
        tour, args[0], args[1], int(args[2])),
    # PROGRAM:OTHER:LO:HI: the tour sizes from 2^LO to 2^HI at which PROGRAM took longer.
    "tour-slower-at": lambda args, tour, profile: tables.tour_slower_sizes(
        tour, args[0], args[1], int(args[2]), int(args[3])),
    # EXPERIMENT:PROGRAM:OTHER[:S], the array length from which PROGRAM beats OTHER (slower at
    # every shorter one), among the lengths from 2^S up (all of them without S).
    "faster-from": lambda args, tour, profile: str(
        tables.overtaking_length(*args[:3], *map(int, args[3:])) or "(no single crossover)"),
    # S: the fastest library argsort for arrays of 2^S keys, and its time over v9_argsort's.
    "argsort-rival": lambda args, tour, profile: tables.ARGSORT_RIVALS[
        tables.fastest_rival(tables.segment_times("argsorts"), int(args[0]),
                             tables.ARGSORT_RIVALS)[0]],
    "argsort-rival-speedup": lambda args, tour, profile: "{:.2f}x".format(
        tables.fastest_rival(tables.segment_times("argsorts"), int(args[0]),
                             tables.ARGSORT_RIVALS)[1] /
        tables.segment_times("argsorts")["v9_argsort"][int(args[0])]),
    # STAGE:VARIANT:L:COLUMN of the record's items, and COLUMN:L, v9's keys over v8's there.
    "item": lambda args, tour, profile: tables.item_value(args[0], args[1], int(args[2]),
                                                          args[3]),
    "item-ratio": lambda args, tour, profile: tables.item_ratio(args[0], int(args[1])),
    # STAGE:COLUMN:L of the record's words, and its value over v8_batched's keys there.
    "word": lambda args, tour, profile: tables.word_value(args[0], args[1], int(args[2])),
    "word-ratio": lambda args, tour, profile: tables.word_ratio(args[0], args[1], int(args[2])),
    # STAGE:L of the record's words: its instructions over v8's, over its issue rate over v8's.
    "word-issue-ratio": lambda args, tour, profile: tables.word_issue_ratio(args[0],
                                                                            int(args[1])),
    # VARIANT:KERNEL:WHAT[:STAGE] of v13's (or its variant STAGE's) launches of one long array
    # (the record's long_items), and KERNEL:WHAT[:STAGE], keys and indices over keys alone.
    "long-items": lambda args, tour, profile: tables.long_items_value(*args),
    "long-items-ratio": lambda args, tour, profile: tables.long_items_ratio(*args),
    # STAGE:flips|directions|mirrored:L:COLUMN of the record's directions, and
    # STAGE:L:COLUMN[:directions|mirrored], the variant (directions unless named) over flips.
    "direction": lambda args, tour, profile: tables.direction_value(args[0], args[1],
                                                                    int(args[2]), args[3]),
    "direction-ratio": lambda args, tour, profile: tables.direction_ratio(args[0], int(args[1]),
                                                                          *args[2:]),
    # PROGRAM:KERNEL:OPCODE, its count in the machine code (the record's sass_memory).
    "sass": lambda args, tour, profile: tables.sass_count(args[0], args[1], args[2]),
    # VARIANT:L:COLUMN of the record's pipes.
    "pipe": lambda args, tour, profile: tables.pipe_value(args[0], int(args[1]), args[2]),
    # NAME:KEY:ROW:L:COLUMN, one column of the row whose KEY column is ROW for arrays of L keys
    # in the ncu_facts.py experiment NAME (short_stages, say); and NAME:KEY:ROW:BASE:L:COLUMN,
    # that over row BASE's.
    "fact": lambda args, tour, profile: tables.metric_text(
        tables.fact_rows(args[0], args[1]).get((args[2], int(args[3]))), args[4]),
    "fact-over": lambda args, tour, profile: times_text(tables.fact_over(
        args[0], args[1], args[2], args[3], int(args[4]), args[5])),
    # VARIANT:L:COLUMN of the record's pipes over the stage's as built.
    "pipe-ratio": lambda args, tour, profile: tables.pipe_ratio(args[0], int(args[1]), args[2]),
    # KIND:L:K of the record's tops (tables.top_value), and VARIANT:KERNEL:COLUMN of
    # the record's top_kernels.
    "top": lambda args, tour, profile: tables.top_value(args[0], int(args[1]), int(args[2])),
    "top-kernel": lambda args, tour, profile: tables.top_kernel_value(args[0], args[1], args[2]),
    # KIND:WHAT:L:K of the record's floats (tables.float_value).
    "float": lambda args, tour, profile: tables.float_value(args[0], args[1], int(args[2]),
                                                            int(args[3])),
    "segment-copies": lambda args, tour, profile: "{:.1f}".format(
        tables.segment_times()["v8_batched"][int(args[0])] / tables.segment_copy_ms()),
    # PROGRAM[:OTHER]:Q, from the tour.
    "time": from_tour(lambda tour, row, program, args, q: (
        f"{tables.ms(tour.time(program, q))} ms")),
    "total": from_tour(lambda tour, row, program, args, q: (
        f"{tables.ms(float(row['total_ms']))} ms")),
    "floor": from_tour(lambda tour, row, program, args, q: (
        f"{tables.ms(tour.floor(program, q))} ms")),
    "xfloor": from_tour(lambda tour, row, program, args, q: (
        tables.ratio(tour.over_floor(program, q)))),
    # The sort's time in copies of the array: its passes times its time over the floor.
    "copies": from_tour(lambda tour, row, program, args, q: (
        f"{int(row['passes']) * tour.over_floor(program, q):.1f}")),
    "percent": from_tour(lambda tour, row, program, args, q: (
        f"{100 * tour.of_copy(program, q):.0f}%")),
    "launches": from_tour(lambda tour, row, program, args, q: row["launches"]),
    # How many times faster PROGRAM is than OTHER at n = 2^q.
    "speedup": from_tour(lambda tour, row, program, args, q: (
        f"{tour.speedup(program, args[1], q):.2f}x")),
    # PROGRAM's time as a share of OTHER's at n = 2^q.
    "ratio": from_tour(lambda tour, row, program, args, q: (
        f"{tour.time(program, q) / tour.time(args[1], q):.2f}")),
}


def inline_value(name, tour, profile):
    """v:KIND:ARGS, one number for the prose, e.g. v:time:v5_bank_free:29."""
    kind, *args = name.split(":")[1:]
    if kind not in INLINE_VALUES:
        raise UnknownBlock(name)
    return INLINE_VALUES[kind](args, tour, profile)


# A block's name may hold spaces (an experiment's variant: v:experiment:v4_tile:512-thread
# blocks, 1024-key tile:29), not a line break or the marker's end.
BLOCK = re.compile(r"(<!-- BEGIN GENERATED ([^\n>]+?) -->\n?)(.*?)(<!-- END GENERATED \2 -->)",
                   re.S)
MARKER = re.compile(r"<!--\s*(?:BEGIN|END)\s+GENERATED\b[^>]*-->|<!--\s*(?:BEGIN|END)\s+GENERATED\b")


class Build:
    """What the blocks of one record are made from: the record (tables.use_record), its tour and
    profile, and the generated blocks over them."""

    def __init__(self, record, network_dump):
        self.record = tables.use_record(record)
        self.tour, self.profile = tables.Tour(), tables.Profile()
        self.blocks = generated_blocks(self.tour, self.profile, network_dump)
        # The experiments the blocks built from this record read.
        self.asked = set()


class Builds:
    """One Build per record the Markdown reads: the chosen one, and those blocks name with
    " @RECORD"; the figures that figure:NAME blocks ask for, by file."""

    def __init__(self, record, network_dump):
        self.record, self.network_dump = record, network_dump
        self.built = {}
        self.figures = {}
        # The records a block of the default build falls back to, and {record: the blocks
        # that did}.
        self.fallbacks = ([name for name in records.FALLBACK_RECORDS if name != record]
                          if record == records.DEFAULT_RECORD else [])
        self.fell_back = {}
        # The Markdown file being filled, the claims (c: blocks) that do not hold, and those no
        # record could check.
        self.path = None
        self.false_claims, self.unchecked_claims = [], []

    def use(self, record=None):
        """The Build of `record` (the chosen one when None), the tables reading it."""
        record = record or self.record
        if record not in self.built:
            if not os.path.exists(os.path.join(records.RESULTS, record, records.MANIFEST)):
                raise UnknownBlock(f"@{record}: there is no record docs/results/{record}/")
            self.built[record] = Build(record, self.network_dump)
        build = self.built[record]
        tables.RECORD = build.record
        return build

    def notes(self):
        notes = [note for build in self.built.values()
                 for note in [build.record.stale_note()] if note]
        for other, keys in self.fell_back.items():
            notes.append(f"note: {len(keys)} blocks read record {other} "
                         f"({self.built[other].record.gpu()}), which has runs that record "
                         f"{self.record} lacks (records.FALLBACK_RECORDS)")
        return notes


def block_text(key, build, folder=DOCS):
    """The generated text of the block `key` (its name without a record) from one build, and
    the figures it draws {path: svg}."""
    if key.startswith("v:"):
        return inline_value(key, build.tour, build.profile), {}
    if key.startswith("code:"):
        _, stage, function = key.split(":")
        return code_excerpt(stage, function), {}
    if key.startswith("figure:"):
        return figure_block(key[len("figure:"):], build, folder)
    if key not in build.blocks:
        raise UnknownBlock(key)
    return build.blocks[key](), {}


# What a block that reads runs its record lacks raises: the data are not there. On complete data
# the same errors are bugs of the generator, and stop it.
MISSING_DATA = (TypeError, KeyError, IndexError, ValueError, ZeroDivisionError)


def notes_only_experiments():
    """The experiments that only chunks of tools/record.py's catalog marked optional write: a
    record made without --all lacks them, so only the lab notes may read them."""
    written = {}
    for chunk in recorder.CHUNKS:
        for experiment in chunk.outputs:
            written.setdefault(experiment, set()).add(chunk.optional)
    return {experiment for experiment, kinds in written.items() if kinds == {True}}


def in_record(builds, record, compute):
    """(compute(build) for the build of `record`, or None where it failed for want of runs, what
    the record lacked of what it read: records.Record.shortfall, the worst where it failed, and
    the build). A block of the README or a chapter that reads an experiment only the lab notes
    may read (notes_only_experiments) stops the generator."""
    build = builds.use(record)
    chosen = build.record
    chosen.touched = []
    in_notes = bool(builds.path) and builds.path.startswith(os.path.join("docs", "notes"))
    chosen.with_notes = in_notes
    try:
        result = compute(build)
    except MISSING_DATA:
        if not chosen.lacking(chosen.touched):
            raise
        result = None
    finally:
        build.asked.update(chosen.touched)
        builds.use()
    outside = sorted(set(chosen.touched) & notes_only_experiments())
    if outside and builds.path and not in_notes:
        raise UnknownBlock(f"a block reads {', '.join(outside)}, which only "
                           "`tools/record.py --all` records: the README and the chapters read "
                           "what the default record holds (move it to a lab note)")
    shortfall = (float("inf"), 0) if result is None else chosen.shortfall(chosen.touched)
    return result, shortfall, build


def from_best_record(builds, pinned, compute):
    """in_record of the record that holds the most of the runs a block reads: the pinned one;
    else the chosen one, or (the default build's alone, records.FALLBACK_RECORDS) a fallback
    that lacks less of them."""
    tried = []
    for record in [pinned or None] + ([] if pinned else builds.fallbacks):
        tried.append(in_record(builds, record, compute))
        if tried[-1][1] == (0, 0):
            break
    # The first of the least short: the chosen record where the others do no better.
    return min(tried, key=lambda found: found[1])


def missing_text(build):
    """'not measured (record h200: no current runs of segments)', or of 'kernel_times from
    profile-27' where the record has made some chunks of an experiment and not others."""
    return (f"{tables.NOT_MEASURED} (record {build.record.name}: no current runs of "
            f"{build.record.gap(build.record.touched)})")


def generated_text(key, pinned, builds):
    """The text of the generated block `key` (a value, a table, code or a figure), from the
    record that holds the most of what it reads; a value read from a fallback record names it
    ('1.54x (H100)'), since the sentence around it may be about the chosen one."""
    # The folder of the Markdown file, which a figure's link is relative to.
    folder = os.path.dirname(os.path.join(ROOT, builds.path)) if builds.path else DOCS
    found, shortfall, build = from_best_record(builds, pinned,
                                               lambda build: block_text(key, build, folder))
    value = key.startswith("v:")
    if found is None:
        return missing_text(build) + ("" if value else "\n")
    text, drawn = found
    builds.figures.update(drawn)
    # A value not measured where the record lacks what it reads (chunks left out or not made,
    # or made before a stage the value names was added) says which.
    if value and text.startswith(tables.NOT_MEASURED) and (
            shortfall > (0, 0) or build.record.lacking(build.record.touched)):
        return missing_text(build)
    if build.record.name != builds.record and not pinned:
        builds.fell_back.setdefault(build.record.name, set()).add(key)
        if value and not key.startswith("v:data:"):
            text += f" ({build.record.name.upper()})"
    return text


# c:LEFT OP RIGHT, a sentence of the prose whose claim rests on a measurement, kept as written
# while it holds: LEFT and RIGHT are a value (v:KIND:ARGS, as inline values) or a literal (a
# number, 2^Q, or words), compared as numbers where both read as one; OP is a word (a marker's
# name cannot hold '>'): eq, ne, lt, le, gt, ge, near (within 1%). Several comparisons joined by ' & ' must all
# hold.
CLAIM = re.compile(r"^c:(.+?) (eq|ne|lt|le|gt|ge|near) (.+)$")
COMPARE = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
           "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
           # Within 1% of each other: two counts of machine code the same but for a few.
           "near": lambda a, b: abs(a - b) <= 0.01 * max(abs(a), abs(b))}


def claim_number(text):
    """The number a value or literal states ('2^21' 2097152, '2.38x' 2.38, '658.1 ms' 658.1,
    '12%' 12, '1,024' 1024), or None for words ('no size'). A value is compared as the prose
    prints it, rounded: a ratio of 0.996 reads 1.00, so a bound at 1 is set with that in mind."""
    power = re.match(r"\s*2\^(\d+)\b", text)
    if power:
        return 2 ** int(power.group(1))
    number = re.match(r"\s*(-?\d+(?:\.\d+)?)", text.replace(",", ""))
    return float(number.group(1)) if number else None


def check_claim(key, build):
    """(whether the claim c:LEFT OP RIGHT [& LEFT OP RIGHT ...] holds in one build, what it
    compared: the first comparison that fails, else all of them); KeyError where a value it
    reads is not measured there."""
    found = [check_comparison("c:" + part, build) for part in key[len("c:"):].split(" & ")]
    failed = [compared for holds, compared in found if not holds]
    return not failed, "; ".join(failed[:1] or [compared for _, compared in found])


def check_comparison(key, build):
    """(whether c:LEFT OP RIGHT holds in one build, what it compared)."""
    match = CLAIM.match(key)
    if not match:
        raise UnknownBlock(f"{key}: a claim is c:LEFT OP RIGHT, OP one of {' '.join(COMPARE)}")
    left, operator, right = match.groups()
    sides = [inline_value(side, build.tour, build.profile) if side.startswith("v:") else side
             for side in (left, right)]
    if any(side.startswith(tables.NOT_MEASURED) for side in sides):
        raise KeyError("not measured")
    numbers = [claim_number(side) for side in sides]
    if None not in numbers:
        holds = COMPARE[operator](*numbers)
    elif operator in ("eq", "ne"):
        holds = COMPARE[operator](*(side.strip() for side in sides))
    else:
        raise UnknownBlock(f"{key}: {sides[0]!r} {operator} {sides[1]!r} compares words")
    return holds, f"{sides[0]} {operator} {sides[1]}"


def claim(key, pinned, text, builds):
    """The sentence of a c: block as written, checked in the record that holds the most of the
    runs its values read (from_best_record); where it does not hold, the claim is listed in
    builds.false_claims and the sentence marked. A claim no record holds the runs of (a value
    it reads wants runs: tables.tour_times, say, where the tour is held in part) is listed as
    unchecked and says so after its sentence."""
    if MARKER.search(text):
        raise UnknownBlock(f"{key}: a claim's sentence holds a generated block, which would not "
                           "be regenerated")
    # The marks of an earlier build are not part of the sentence: one mark, or none once it
    # holds.
    text = UNCHECKED_MARK.sub("", FALSE_MARK.sub("", text))
    found, shortfall, build = from_best_record(builds, pinned,
                                               lambda build: check_claim(key, build))
    if found is None or shortfall[0] > 0:
        builds.unchecked_claims.append(f"{builds.path}: {key}")
        return text + unchecked_mark(builds.path)
    holds, compared = found
    if holds:
        return text
    sentence = " ".join(text.split())
    name = build.record.name
    builds.false_claims.append(f"{builds.path}: on record {name}, {compared}: {sentence!r}")
    return f"[Not so on record {name}: {compared}.] " + text


# What claim() puts before a sentence that does not hold, and after one no record could check:
# a small link to what that means (docs/results/README.md, "Claims not yet checked").
FALSE_MARK = re.compile(r"^(?:\[Not so on record [^\]]*\.\] )+")
UNCHECKED_MARK = re.compile(r"(?:<sup>\[unchecked\]\([^)]*\)</sup>)+$")


def unchecked_mark(path):
    """The mark after an unchecked claim in the Markdown file `path`, linking from there."""
    folder = os.path.dirname(path or "README.md")
    target = os.path.relpath(os.path.join("docs", "results", "README.md"), folder or ".")
    return f"<sup>[unchecked]({target}#claims-not-yet-checked)</sup>"


def fill_markdown(text, builds):
    def replace(match):
        name = match.group(2)
        key, _, pinned = name.partition(" @")
        if key.startswith("c:"):
            return match.group(1) + claim(key, pinned, match.group(3), builds) + match.group(4)
        opening = match.group(1).rstrip("\n") if key.startswith("v:") else match.group(1)
        return opening + generated_text(key, pinned, builds) + match.group(4)

    unparsed = MARKER.findall(BLOCK.sub("", text))
    if unparsed:
        # A marker that is not one well-formed BEGIN/END pair (a space in its name, a missing
        # or misspelt END) would be neither regenerated nor checked: refuse it.
        raise UnknownBlock(f"a marker that is not one BEGIN/END pair: {unparsed[0]!r}")
    return BLOCK.sub(replace, text)


def record_label(build):
    """The GPU of a build's record as a figure's title names it: the record's name, upper case."""
    return build.record.name.upper()


def time_figure(build):
    tour = build.tour
    names = ["std_sort"] + course.course_stage_names() + course.DEVICE_BASELINES
    series = {}
    for program in names:
        points = [(q, tour.time(program, q)) for q in tour.sizes() if tour.time(program, q)]
        if points:
            series[program] = points
    return figures.stage_plot(series, f"Sort time against n ({record_label(build)})",
                              "sort time (ms)", names)


def floor_figure(build):
    tour = build.tour
    names = ["std_sort"] + course.course_stage_names() + course.DEVICE_BASELINES
    floors = {}
    for stage in course.course_stage_names():
        points = [(q, tour.over_floor(stage, q)) for q in tour.sizes()
                  if q >= 18 and tour.over_floor(stage, q)]
        if points:
            floors[stage] = points
    return figures.stage_plot(floors, "Time over the stage's own floor (dashed: at the floor)",
                              "time / floor", names, reference=1.0,
                              y_ticks=[0.5, 0.8, 1, 1.5, 2, 3, 5, 8])


def segments_figure(build):
    segments = {name: sorted(times.items()) for name, times in tables.segment_times().items()}
    names = ["v8_batched"] + course.SEGMENTED_BASELINES + ["torch.sort"]
    return figures.stage_plot(
        {name: segments[name] for name in names if name in segments},
        f"Sorting 2^27 keys in arrays of L keys ({record_label(build)})", "time (ms)", names,
        x_label="L (keys per array)")


def segment_stages_figure(build):
    """The stages from v8 on (segment_stages): their keys and the rivals."""
    segments = {name: sorted(times.items()) for name, times in
                tables.segment_times(tables.SEGMENT_STAGES).items()}
    names = tables.STAGE_KEYS + list(tables.STAGE_KEY_RIVALS)
    return figures.stage_plot(
        {name: segments[name] for name in names if name in segments},
        f"Sorting 2^27 keys in arrays of L keys: the stages from v8 on ({record_label(build)})",
        "time (ms)", names, x_label="L (keys per array)")


# figure:NAME blocks: the figure's file in docs/figures/, its caption, what draws it and the
# experiment it reads (no figure where the record lacks that).
RESULT_FIGURES = {
    "results_time": ("Sort time against n", time_figure, "tour"),
    "results_floor": ("Time over floor", floor_figure, "tour"),
    "segments": ("Time against the array length", segments_figure, "segments"),
    "segment_stages": ("The stages from v8 on against the rivals, by array length",
                       segment_stages_figure, "segment_stages"),
}


def figure_block(name, build, folder=DOCS):
    """The Markdown of a figure:NAME block in a file of `folder` and {its file: the figure drawn
    from the build's record}."""
    if name not in RESULT_FIGURES:
        raise UnknownBlock(f"figure:{name}")
    caption, draw, experiment = RESULT_FIGURES[name]
    if not build.record.rows(experiment):
        raise KeyError(experiment)
    link = os.path.relpath(os.path.join(FIGURES, f"{name}.svg"), folder)
    return (f"![{caption}]({link})\n",
            {os.path.join(FIGURES, f"{name}.svg"): draw(build)})


def missing_experiments(builds):
    """One line per record built that lacks experiments the Markdown reads, or []: which."""
    lines = []
    for build in builds.built.values():
        missing = sorted(name for name in build.asked if not build.record.rows(name) and
                         name not in build.record.stale)
        if missing:
            lines.append(f"note: record {build.record.name} has no runs of {', '.join(missing)}"
                         f" (tools/record.py --record {build.record.name} records them)")
    return lines


def expected_files(network_dump, record=records.DEFAULT_RECORD, out=None):
    """{path: content} of every generated file (under `out` instead of the tree, when given),
    and the notes to print."""
    builds = Builds(record, network_dump)
    build = builds.use()
    files = {
        "network16.svg": figures.network_figure(network_dump),
        "mirrored16.svg": figures.mirrored_figure(network_dump),
        "kernels_v1.svg": figures.kernels_figure(network_dump, False),
        "kernels_v2.svg": figures.kernels_figure(network_dump, True),
        "shuffle_xor.svg": figures.shuffle_figure(),
        "register_top.svg": figures.register_top_figure(),
        "lower_partner.svg": figures.lower_partner_figure(network_dump),
        "warp_slot.svg": figures.warp_slot_figure(),
        "store_sectors.svg": figures.store_figure(),
        "banks.svg": figures.banks_figure(),
        "multistep.svg": figures.multistep_figure(network_dump),
        "groups.svg": figures.group_figure(network_dump),
        "span.svg": figures.span_figure(network_dump),
    }
    files = {os.path.join(FIGURES, name): content for name, content in files.items()}
    markdown = [os.path.join(ROOT, "README.md"), os.path.join(DOCS, "results", "README.md")] + \
        sorted(os.path.join(DOCS, name) for name in os.listdir(DOCS) if name.endswith(".md")) + \
        sorted(glob.glob(os.path.join(DOCS, "notes", "*.md")))
    for path in markdown:
        builds.path = os.path.relpath(path, ROOT)
        try:
            files[path] = fill_markdown(read(path), builds)
        except UnknownBlock as unknown:
            sys.exit(f"{os.path.relpath(path, ROOT)}: a generated block that cannot be made: "
                     f"{unknown}")
    files.update(builds.figures)
    notes = builds.notes() + missing_experiments(builds)
    if builds.unchecked_claims:
        per_file = {}
        for where in builds.unchecked_claims:
            name = where.split(":", 1)[0]
            per_file[name] = per_file.get(name, 0) + 1
        notes.append(f"note: {len(builds.unchecked_claims)} claims no record could check (the runs "
                     "they read are missing): " +
                     ", ".join(f"{name} {count}" for name, count in per_file.items()))
    for stage in course.stages():
        if stage.chapter and not os.path.exists(os.path.join(DOCS, stage.chapter)):
            sys.exit(f"stages.txt names docs/{stage.chapter} for {stage.name}, which does not exist")
        if not stage.chapter:
            notes.append(f"note: {stage.name} has no chapter (stages.txt says -): the course's "
                         "tables leave it out")
        elif build.tour.rows and not build.tour.get(stage.name, 20):
            notes.append(f"note: {stage.name} has no measurements in record {record}: its table "
                         f"rows say '{tables.NOT_MEASURED}' (tools/record.py records them)")
    if out:
        files = {os.path.join(out, os.path.relpath(path, ROOT)): content
                 for path, content in files.items()}
    return files, notes, builds.false_claims


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network-dump",
                        help="the network_dump program (default: build/tools/network_dump, or "
                        "build-record/tools/network_dump, which tools/record.py builds)")
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--record", default=records.DEFAULT_RECORD,
                        help="the record the README and chapters read (docs/results/RECORD/; "
                        f"default {records.DEFAULT_RECORD})")
    parser.add_argument("--out", help="write the README, chapters and figures under this folder "
                        "instead of the tree")
    arguments = parser.parse_args()
    if arguments.record != records.DEFAULT_RECORD and not (arguments.out or arguments.check):
        # The README and chapters in the tree are the default record's.
        sys.exit(f"generate.py: --record {arguments.record} writes with --out DIR (or compares "
                 "with --check), never into the tree")
    dumps = ([arguments.network_dump] if arguments.network_dump else
             [os.path.join(ROOT, folder, "tools", "network_dump")
              for folder in ("build", "build-record")])
    found = [dump for dump in dumps if os.access(dump, os.X_OK)]
    if not found:
        sys.exit(f"generate.py: no network_dump program at {' or '.join(dumps)}: build the course "
                 "first (README, \"Quick start\") or name it with --network-dump")
    arguments.network_dump = found[0]
    if not os.path.exists(os.path.join(records.RESULTS, arguments.record, records.MANIFEST)):
        names = ", ".join(records.record_names()) or "none"
        sys.exit(f"generate.py: no record docs/results/{arguments.record}/ (records: {names})")
    files, notes, false_claims = expected_files(arguments.network_dump, arguments.record,
                                                arguments.out)
    for note in notes:
        print(note)
    for line in false_claims:
        print(f"a claim that does not hold: {line}")
    # A false claim fails the check and the default build; a build for another record (--out)
    # marks the sentence and goes on.
    failed = 1 if false_claims and (arguments.check or not arguments.out) else 0
    if arguments.check and (arguments.out or arguments.record != records.DEFAULT_RECORD):
        # The committed files are the default record's: another is built, not compared.
        print(f"{len(files)} generated files and blocks built from record {arguments.record}")
        return failed
    stale = []
    for path, content in files.items():
        current = read(path) if os.path.exists(path) else None
        if current != content:
            stale.append(os.path.relpath(path, ROOT))
            if not arguments.check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as file:
                    file.write(content)
    if arguments.check:
        for path in stale:
            print("out of date:", path)
        if stale:
            print("run: meson compile -C build docs (or python3 docs/generate.py "
                  "--network-dump build/tools/network_dump)")
            return 1
        print(f"{len(files)} generated files and blocks are current")
        return failed
    print(f"wrote {len(stale)} of {len(files)} files" + (f": {', '.join(stale)}" if stale else ""))
    return failed


if __name__ == "__main__":
    sys.exit(main())
