#!/usr/bin/env python3
"""Records the course on the GPU in this machine: every number the README and the chapters
quote, in chunks that each take a few minutes, into docs/results/RECORD/.

    python3 tools/record.py                      record what is missing or stale, for GPU 0
    python3 tools/record.py --list               what the record holds, chunk by chunk
    python3 tools/record.py --minutes 9          stop at 9 minutes: a chunk still running then is
                                                 stopped and left, whole, for the next run
    python3 tools/record.py --only tour-29,copy  those chunks alone
    python3 tools/record.py --all                also the chunks only the lab notes read

RECORD is the GPU's short name (h200 for an NVIDIA H200, rtx4090 for a GeForce RTX 4090), or
--record NAME. It builds the course into --build (build-record/) if it is not built, then runs
the chunks of CHUNKS below in order, each with the program of tools/ that measures it (the tour,
the experiments, Nsight Compute's profiles and facts, the machine-code and register counts). A
chunk whose rows all measured the code as it is now, made by the same command with the same
definition in the tool that runs it (records.chunk_definition), is skipped: the command can be
stopped and run again, and after a change to a kernel it records exactly the
chunks that ran that kernel (tools/records.py says which sources a row's fingerprint covers).
Each chunk is written when it ends, never in part: its CSV files, with a column `code` (the
fingerprint), and its entry in record.json (the GPU, driver, CUDA version, date, commit,
command and seconds). Chunks that need two GPUs say in one line that they were skipped where
there is one; those that need Nsight Compute or PyTorch, likewise where it is missing (PyTorch's
rows are left out of an experiment, the rest of it recorded). A chunk whose command fails writes
nothing and says so in one line, with its log; the others go on, and the script then exits 1
naming it.

docs/generate.py --record RECORD builds the README and the chapters from a record (README,
"Measure the course on your GPU").
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import course
import records

TOOLS = course.TOOLS
PYTHON = sys.executable


class Chunk:
    """One piece of a record: the commands that make it ({build}, {out}, {arch} filled in),
    the files they write into {out} by experiment, what it covers, the GPUs it needs (0: none,
    the compiler alone) and about how many seconds it takes on an H200 (measured there for the
    registers and the tour, 2026-11-28; guessed from the runs it makes for the rest)."""

    def __init__(self, name, commands, outputs, covers, seconds, gpus=1, program=None,
                 needs=None, every_stage=False, optional=False):
        self.name, self.commands, self.outputs = name, commands, outputs
        self.covers, self.seconds, self.gpus = covers, seconds, gpus
        # The program of rows that do not name one (barriers, transfers, exchange).
        self.program = program
        # A tool the chunk cannot do without (ncu, cuobjdump).
        self.needs = needs
        # Whether it runs every stage of stages.txt: then a stage added or removed since makes
        # it out of date, though no row's code changed.
        self.every_stage = every_stage
        # Whether only the lab notes (docs/notes/) read it: recorded with --all alone, outside
        # the record the README and the chapters need.
        self.optional = optional

    def command_lines(self):
        """The commands as record.json keeps them: the chunk's definition."""
        return [" ".join(command) for command in self.commands]


def tool(name, *arguments):
    return ["{python}", f"tools/{name}"] + list(arguments)


def experiment(name, covers, seconds, program=None, gpus=1, every_stage=False, optional=False):
    return Chunk(name, [tool("experiments.py", "--build", "{build}", "--out", "{out}", name)],
                 {name: f"{name}.csv"}, covers, seconds, gpus=gpus, program=program,
                 every_stage=every_stage, optional=optional)


SERIAL_MAX = 27


def tour(sizes, seconds):
    first, last = sizes[0], sizes[-1]
    name = f"tour-{first}" + (f"-{last}" if last != first else "")
    span = f"2^{first}" + (f" .. 2^{last}" if last != first else "")
    listed = ",".join(str(q) for q in sizes)
    # std::sort on one core takes half a minute from 2^28 on: the tour runs it up to 2^27.
    serial = "std::sort and " if first <= SERIAL_MAX else ""
    return Chunk(name, [tool("tour.py", "--build", "{build}", "--sizes", listed, "--serial-max",
                             str(SERIAL_MAX), "--csv", "{out}/tour.csv")],
                 {"tour": "tour.csv"}, f"every stage, {serial}the libraries at {span}", seconds,
                 every_stage=True)


def segment_stages(half, lengths, seconds):
    """One of the two runs of experiment segment_stages (tools/experiments.py), each within a
    device call of ten minutes: in one run, with v21 among the stages, it ran past ten minutes
    on an H200 (the record's seconds say what each half took)."""
    function = f"segment_stages_{half}"
    return Chunk(f"segment_stages-{half}", [tool("experiments.py", "--build", "{build}", "--out",
                                                  "{out}", function)],
                 {"segment_stages": f"{function}.csv"}, "every stage from v8 on against the "
                 f"rivals, arrays of {lengths} keys, keys, argsorts and top 16", seconds)


def fact(name, experiment_name, covers, seconds, optional=False):
    return Chunk(f"facts-{name}", [tool("ncu_facts.py", "--build", "{build}", "--out", "{out}",
                                        name)],
                 {experiment_name: f"{experiment_name}.csv"}, covers, seconds, needs="ncu",
                 optional=optional)


def distributions():
    """Every stage on every distribution at 2^24, in one chunk: 119 runs of about a second each
    (the question, whether the keys change a stage's time, needs no larger array; at 2^27 the
    keys made and sorted by std::sort for the check took most of 5 s a run, 11 minutes in all)."""
    return Chunk("distributions", [tool("experiments.py", "--build", "{build}", "--out", "{out}",
                                        "--distribution-sizes", "24", "distributions")],
                 {"distributions": "distributions.csv"},
                 "every stage on every distribution at 2^24", 150, every_stage=True)


def profile_27(name, programs, covers, seconds, optional=False, kind="kernel"):
    """A chunk of profile_kernels.py at 2^27: its files are the chapters' kernel_times and
    kernel_metrics, or a lab note's own KIND_times and KIND_metrics (docs/tables.py's Profile)."""
    return Chunk(name, [tool("profile_kernels.py", "--build", "{build}", "--out", "{out}",
                             "--sizes", "27", *programs)],
                 {f"{kind}_times": "kernel_times.csv", f"{kind}_metrics": "kernel_metrics.csv"},
                 covers, seconds, needs="ncu", optional=optional)


# The variants whose machine code the sass chunk counts beside the stages' (chapters 8 to 11).
SASS_VARIANTS = ("v7_unpadded,v8_unpadded,v8_keys8,v8_lanes_mad,v8_round256,v9_minmax_lanes,"
                 "v9_swap_source,v9_one_compare,v9_double_minmax,v9_split_items,v8_directions,"
                 "v9_directions,v8_mirrored,v9_mirrored")
# The variants that chapters 15 to 17 profile beside the stages (at 2^27), and those only the
# lab notes on groups, passes and v14's levers read (profile-27-notes, --all; until 2026-11-29
# they were 11 of the 19 programs of profile-27, whose record took 388 s).
PROFILE_VARIANTS = "v13_span,v14_padded,v15_padded"
PROFILE_NOTES_VARIANTS = ("v13_group13,v13_group15,v13_group15_keys64,v13_fused,v13_low3,"
                          "v13_low3_store3,v13_tile4096,v13_tile4096_fused,v13_span_tile4096,"
                          "v14_tile4096,v14_padded_tile4096")
# The stages and variants whose registers or spills the chapters quote (registers.py compiles
# any other on its own: `python3 tools/registers.py --stages NAME`).
REGISTER_PROGRAMS = ("v6_multistep,v8_batched,v8_blocks6,v8_keys32,v12_key_words,v13_fused,"
                     "v13_group15,v13_keys16,v13_span,v14_padded,v14_span,v14_tail6,v15_padded,"
                     "v15_tile4096,v16_register_top,v17_prefix_argsort,v17_vote_first,"
                     "v18_mirrored,v19_coalesced_store,v19_group15,v20_register_fixup,v20_round512,"
                     "v20_round256,v20_warp_tiles,v21_warp_tiles,v21_keys32,v21_keys32_blocks7,"
                     "v21_keys32_rounds,v21_slot_sums,v21_slot_sums_blocks6,v22_slot_offsets,"
                     "v22_store_fours,v22_store_vectors,v22_store_word_vectors,v22_warp_rounds,"
                     "v22_warp_rounds_blocks6,v23_vector_stores,v24_warp_rounds,v24_blocks8")
# At 2^20: the stages whose profile the chapters read at that size, and the variant of the lab
# note on groups.
PROFILE_20_STAGES = ("v0_naive,v1_fused,v2_shared,v3_warp,v4_half_threads,v6_multistep,"
                     "v7_register_tile,v13_any_bits,v14_span,v15_tile4096")
# At 2^27: the stages the chapters read a profile of at that size (v8 .. v12 and v25 are read at
# 2^20 alone), in two chunks, each well inside a device call of ten minutes (profile-20's eleven
# programs took 113 s at 2^20): v0 .. v5, whose hundreds of launches take one Nsight Compute pass
# apiece, and the rest with the variants chapters 15 to 17 read.
PROFILE_27_EARLY = "v0_naive,v1_fused,v2_shared,v3_warp,v4_half_threads,v5_bank_free"
PROFILE_27_STAGES = "v6_multistep,v7_register_tile,v13_any_bits,v14_span,v15_tile4096"
# Where the docs read more of a profile than each kernel's first and last launch of the last merge
# (profile_kernels.py), and where they read only the durations: chapters 2 and 3 tabulate every
# launch of v0's and v1's last merge, chapters 4 to 6 compare v2 .. v4 at stride 2048, the passes
# note tabulates the last merge of v13 and its variants; v0 at 2^20, v5, the padded variants of
# chapters 16 and 17, and v14 and v15 at 2^16 are read for their durations alone.
PROFILE_27_EARLY_OPTIONS = ["--whole-merge", "v0_naive,v1_fused", "--strides", "2048",
                            "--durations-only", "v5_bank_free"]
PROFILE_27_OPTIONS = ["--whole-merge", "v13_any_bits,v13_span", "--durations-only",
                      "v14_padded,v15_padded"]
PROFILE_NOTES_OPTIONS = ["--whole-merge", "v13_group13,v13_group15,v13_group15_keys64,v13_fused,"
                         "v13_low3,v13_low3_store3,v13_tile4096,v13_tile4096_fused,"
                         "v13_span_tile4096"]

# The record, in the order it is made: what the README and the chapters quote first. Each
# chunk's seconds are its estimate until it is recorded; for the experiments not yet recorded on
# the H200 they count about 5.7 s a run of 2^27 keys (3.7 s with --segment; more for argsorts,
# whose check also reads the positions) and 22 s at 2^29, as one program took on the H200, the
# keys made and checked on the host taking most of a run; that was before the check's std::sort
# merged on every thread, the keys and their reference were kept from one program to the next
# (common/reference_cache.h) and most runs of a chunk skipped the check (course.validated_once),
# so a chunk recorded since may take less than its estimate.
CHUNKS = [
    Chunk("registers", [tool("registers.py", "--arch", "{arch}", "--stages", REGISTER_PROGRAMS,
                             "--csv", "{out}/registers.csv")],
          {"registers": "registers.csv"},
          "registers, spills and shared memory of every kernel of the stages and variants the "
          "chapters quote, as nvcc reports them for this GPU's architecture (no GPU needed)", 60,
          gpus=0),
    experiment("copy", "the copy baseline at 2^10 .. 2^29, the floor's unit", 60),
    tour(list(range(10, 21)), 92),
    tour(list(range(21, 26)), 114),
    tour([26, 27], 203),
    tour([29], 480),
    Chunk("transfers", [tool("tour.py", "--build", "{build}", "--sizes", "29",
                             "--transfers-only", "--transfers-csv", "{out}/transfers.csv")],
          {"transfers": "transfers.csv"}, "host <-> device copies of 2^29 keys, pageable and "
          "pinned", 30, program="transfers"),
    Chunk("sass", [tool("measure_banks.py", "--build", "{build}", "--sass-only", "--sass-csv",
                        "{out}/sass_memory.csv", "--variants", SASS_VARIANTS)],
          {"sass_memory": "sass_memory.csv"}, "the machine code's memory, shuffle, barrier, "
          "min/max, select, compare and logic instructions of every stage's kernels and of the "
          "variants of chapters 8 to 11 (cuobjdump; no GPU needed)", 60, gpus=0,
          needs="cuobjdump", every_stage=True),
    distributions(),
    experiment("spread", "every stage in five separate runs at 2^15, 2^17 and 2^20", 240,
               every_stage=True),
    experiment("small_arrays", "v7 and the libraries at 2^10 .. 2^14, five runs each", 120),
    experiment("barriers", "v0's launches, a CUDA Graph and grid.sync() at 2^10 .. 2^24", 60,
               program="barriers"),
    experiment("segments", "v8 against the libraries' segmented sorts and torch.sort, arrays "
               "of 2 .. 2^27 keys", 370),
    segment_stages("short", "8 .. 512", 250),
    segment_stages("long", "1024 .. 2^20", 330),
    experiment("segment_spread", "v22 and the fastest stages at 8, 16 and 32 keys per array, "
               "five separate runs each (lab note many_arrays)", 100, optional=True),
    experiment("argsorts", "v9's argsort against the libraries' and torch.sort, arrays of "
               "2 .. 2^16 keys", 420),
    experiment("word_argsorts", "the lab's argsorts against v9's, arrays of 2 .. 2^12 keys",
               220),
    experiment("tops", "v10's top-k against torch.topk and its full sort", 120),
    experiment("floats", "v11 on floats against ints and torch", 90),
    experiment("v4_tile", "v4's tile halved (chapter 6)", 30),
    experiment("v6_steps", "v6 with 3 .. 6 steps a pass (chapter 8)", 60),
    experiment("v7_tile", "v7's tile and keys per thread (chapter 9)", 45),
    experiment("v7_padding", "v7 with and without its tile's padding (chapter 9)", 20),
    experiment("v8_mapping", "v8's tile and keys per thread on many arrays (chapter 10)", 130),
    experiment("v8_pipes", "v8's pipe variants on many arrays (lab note pipes)", 270,
               optional=True),
    experiment("v9_mapping", "v9's items per thread on many arrays (chapter 11)", 90),
    experiment("v9_compare", "v9's compares on many arrays (lab note lane_compare)", 200,
               optional=True),
    experiment("v8_directions", "v8's flips against directions (chapter 10)", 80),
    experiment("v9_directions", "v9's flips against directions (lab note flips)", 80,
               optional=True),
    experiment("v8_mirrored", "v8's flips against the mirrored network (chapter 10)", 80),
    experiment("v9_mirrored", "v9's flips against the mirrored network (lab note flips)", 80,
               optional=True),
    experiment("v13_groups", "v13's group sizes (lab note groups)", 170),
    experiment("v19_groups", "v19's group of 2^14 keys against 2^15, with CUB's merge sort (lab "
               "note groups)", 120),
    experiment("v20_rounds", "v20 against variants whose merges of 128 to 512 keys make a round "
               "through shared memory (lab note short_arrays)", 110, optional=True),
    experiment("v20_round_argsorts", "the same for v20's argsort (lab note short_arrays)", 110,
               optional=True),
    experiment("v20_warp_tiles", "v20's argsort in 512-key tiles of one warp for arrays of 512 "
               "keys or fewer (chapter 22, lab note short_arrays)", 40),
    experiment("v21_keys", "v21's keys against variants with 32 keys a thread (lab note "
               "short_arrays)", 120, optional=True),
    experiment("v21_slots", "v21 against its variants whose exchanges add a constant for each "
               "register to a base for each thread (lab note short_arrays)", 90, optional=True),
    experiment("v22_stores", "v22's keys stored four to a 16-byte store, against v22 and v8 in "
               "turns (lab note short_arrays)", 190, optional=True),
    experiment("v22_lanes", "v22's lane steps on registers after a round of each warp, against "
               "v22, its 16-byte stores and v8 in turns (lab note short_arrays)", 230,
               optional=True),
    experiment("v22_swaps", "v22's warp's rounds with and without their bank conflicts, in turns "
               "(lab note short_arrays)", 110, optional=True),
    experiment("stage_turns", "v24, v23, v22 and v8 on many arrays' keys in turns, 8 .. 4096 "
               "keys an array, with v12, v13, v14 and v21 at 8 and 16 (chapters 25 and 26)", 360),
    experiment("v24_blocks", "v24's kernel without rounds held to eight blocks an SM, against "
               "v24 and v13 in turns, 8 .. 128 keys an array (lab note short_arrays)", 120,
               optional=True),
    experiment("v24_barrier", "v24 against its store's barriers as chapter 25 left them, one or "
               "both the block's, and v13, v14 and v12 in turns, 8 .. 128 keys an array (lab "
               "note short_arrays)", 240, optional=True),
    experiment("v13_passes", "v13's variants with fewer passes (lab note passes)", 260),
    experiment("long_argsorts", "v13's argsort of one long array (chapter 15)", 90),
    experiment("v14_span", "v14 and its variants against CUB (chapter 16)", 200),
    experiment("v14_argsorts", "v14's argsort of one long array (chapter 16)", 60),
    experiment("v15_tile", "v15 and its padded variant against CUB (chapter 17)", 150),
    experiment("v15_argsorts", "v15's argsort of one long array (chapter 17)", 60),
    experiment("v15_tops", "v15's top-k of keys on 64-bit items against 32-bit words and its "
               "full sort (lab note top_keys)", 60, optional=True),
    experiment("v16_tops", "v16's top-k against v15's, its full sort and torch.topk (chapter 18)",
               60),
    experiment("v17_argsorts", "v17's argsort against v16's, its keys, its variants with range "
               "digits and with the vote first, and torch.sort, on four distributions (chapter 19)",
               140),
    experiment("clusters", "a compare step across the blocks of a cluster against one within a "
               "block, 2^24 .. 2^29 (lab note clusters)", 60, program="cluster_steps",
               optional=True),
    Chunk("profile-20", [tool("profile_kernels.py", "--build", "{build}", "--out", "{out}",
                              "--sizes", "20", "--stages", PROFILE_20_STAGES, "--variants",
                              "v13_group13", "--durations-only", "v0_naive")],
          {"kernel_times": "kernel_times.csv", "kernel_metrics": "kernel_metrics.csv"},
          "every launch of the stages the chapters profile at 2^20 (and of the groups note's "
          "variant) under Nsight Compute", 120, needs="ncu"),
    profile_27("profile-27-early", ["--stages", PROFILE_27_EARLY, *PROFILE_27_EARLY_OPTIONS],
               "v0 .. v5 at 2^27, every launch, under Nsight Compute (chapters 2 to 7)", 300),
    profile_27("profile-27", ["--stages", PROFILE_27_STAGES, "--variants", PROFILE_VARIANTS,
                              *PROFILE_27_OPTIONS],
               "v6, v7, v13, v14 and v15 at 2^27 under Nsight Compute, with the variants of "
               "chapters 15 to 17", 170),
    # --stages runs any program of the build by name, a variant too: build() has built them all.
    profile_27("profile-27-notes", ["--stages", PROFILE_NOTES_VARIANTS, *PROFILE_NOTES_OPTIONS],
               "the variants of the lab notes on groups, passes and v14's levers at 2^27 under "
               "Nsight Compute (lab notes groups, passes and span_levers)", 230, optional=True),
    profile_27("profile-27-groups", ["--stages", "v19_coalesced_store,v19_group15"],
               "v19 and its variant with 2^15-key groups at 2^27 under Nsight Compute (lab note "
               "groups)", 60, optional=True, kind="groups_kernel"),
    Chunk("profile-16", [tool("profile_kernels.py", "--build", "{build}", "--out", "{out}",
                              "--sizes", "16", "--stages", "v14_span,v15_tile4096",
                              "--timeline-only")],
          {"kernel_times": "kernel_times.csv"},
          "v14 and v15 at 2^16 under Nsight Compute (chapter 17)", 30, needs="ncu"),
    Chunk("banks", [tool("measure_banks.py", "--build", "{build}", "--csv",
                         "{out}/bank_conflicts.csv", "--variants", "v7_unpadded,v8_unpadded")],
          {"bank_conflicts": "bank_conflicts.csv"}, "shared-memory bank conflicts of the "
          "in-block kernels (chapters 7 and 9)", 60, needs="ncu"),
    fact("libraries", "library_kernels", "the kernels of one library sort", 60),
    fact("occupancy", "occupancy", "occupancy of v7's and v8's kernels", 60),
    fact("pipes", "pipes", "the pipes of v8's block_sort (lab note pipes)", 90, optional=True),
    fact("directions", "directions", "what v8's and v9's flips cost (lab note flips)", 60,
         optional=True),
    fact("items", "items", "what v9's 64-bit items cost", 45),
    fact("words", "words", "what the lab's argsorts cost (lab note word_argsorts)", 45,
         optional=True),
    fact("prefix", "prefix_kernels", "what v17's argsort of words costs against v16's items "
         "(chapter 19)", 50),
    fact("mirror", "mirror_kernels", "what v18's mirrored block_sort saves against v17's "
         "(chapter 20)", 60),
    fact("store", "store_kernels", "what v19's store through the tile saves against v18's "
         "thread-major store (chapter 21)", 60),
    fact("fixup", "fixup_kernels", "what v20's runs of two settled in registers save against "
         "v19's fix-up through shared memory (chapter 22)", 60),
    fact("rounds", "round_kernels", "what a round through shared memory saves in v20's smaller "
         "merges (lab note short_arrays)", 45, optional=True),
    fact("slots", "slot_kernels", "what a base and constants for the tile's words change in v21's "
         "sort of keys (chapter 24, lab note short_arrays)", 45),
    fact("keys32", "keys32_kernels", "what 32 keys a thread change in v21's sort of keys (lab "
         "note short_arrays)", 45, optional=True),
    fact("vector_stores", "vector_store_kernels", "what storing keys alone four to a 16-byte "
         "store changes in v22's block_sort (chapter 25, lab note short_arrays)", 45),
    fact("warp_rounds", "warp_round_kernels", "what a warp's round in place of lane steps "
         "changes in v22's block_sort (chapter 26, lab note short_arrays)", 60),
    fact("round_stages", "round_stage_kernels", "what v24's rounds change against v23 in the "
         "stages as built, keys and argsorts (chapter 26)", 60),
    fact("warp_tiles", "warp_tile_kernels", "v20's argsort in 512-key tiles of one warp, with "
         "the waits (lab note short_arrays, chapter 23)", 30),
    fact("tiles", "tile_kernels", "what v21's tiles of one warp save against v20's tiles of "
         "eight (chapter 23)", 30),
    fact("long_items", "long_items", "v13's argsort of one long array, launch by launch", 120),
    fact("tops", "top_kernels", "where v10's top-k spends its time", 30),
    fact("packed", "packed_kernels", "the kernels of the packed radix sort", 45),
    fact("short_stages", "short_stages", "why v15 sorts short arrays more slowly than v8 (lab "
         "note many_arrays)", 45, optional=True),
    fact("short_blocks", "short_block_kernels", "v24's kernel without rounds, as built and "
         "held to eight blocks an SM, against v13's at 16 keys and v22's at 64 (lab note "
         "short_arrays)", 50, optional=True),
    experiment("gpus", "v25 on one GPU and on two, in one process and as two under mpirun, "
               "2^29 .. 2^31 keys", 310, gpus=2),
    experiment("exchange", "NCCL's exchange between two GPUs alone", 30, program="nccl_exchange",
               gpus=2),
]


def chunk_named(name):
    return next((chunk for chunk in CHUNKS if chunk.name == name), None)


def record_name(gpu):
    """The short name of a GPU: 'NVIDIA H200' -> h200, 'NVIDIA H100 80GB HBM3' -> h100,
    'NVIDIA GeForce RTX 4090' -> rtx4090, 'Tesla T4' -> t4."""
    words = [word for word in re.split(r"[\s_-]+", gpu.lower())
             if word not in ("nvidia", "geforce", "tesla", "quadro") and word]
    words = [word for word in words if not re.fullmatch(r"\d+gb|hbm\w*|pcie|sxm\w*|nvl", word)]
    return re.sub(r"[^a-z0-9]", "", "".join(words)) or "gpu"


def gpu_count():
    result = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                            capture_output=True, text=True) if shutil.which("nvidia-smi") else None
    if result is None or result.returncode != 0:
        return 0
    return len([line for line in result.stdout.splitlines() if line.strip()])


def compute_capability():
    return course.nvidia_smi("compute_cap").replace(".", "")


def nvcc_release():
    """'13.0', the CUDA release of the nvcc that builds the course, or 'unknown'."""
    try:
        output = subprocess.run([course.find_tool("nvcc"), "--version"], capture_output=True,
                                text=True).stdout
    except SystemExit:
        return "unknown"
    match = re.search(r"release (\d+\.\d+)", output)
    return match.group(1) if match else "unknown"


def tree_code():
    """A hash of the code of the stages, common/ and tools/ (records.code_text of each file):
    what a chunk measures must not change while it runs."""
    digest = hashlib.sha256()
    folders = course.stage_names() + ["common", "tools"]
    for folder in folders:
        for path in sorted(glob.glob(os.path.join(course.ROOT, folder, "*"))):
            if os.path.isfile(path) and path.endswith((".cu", ".cuh", ".h", ".cpp", ".py", ".txt")):
                digest.update(records.code_text(path, open(path).read()).encode())
    return digest.hexdigest()


def commit():
    """The commit the working tree is at, '+' when it has changes besides docs/results/; from
    COURSE_COMMIT where the tree is a copy without git."""
    if os.environ.get("COURSE_COMMIT"):
        return os.environ["COURSE_COMMIT"]
    head = subprocess.run(["git", "-C", course.ROOT, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    if head.returncode != 0:
        return "unknown"
    changes = subprocess.run(["git", "-C", course.ROOT, "status", "--porcelain", "--", ".",
                              ":!docs/results"], capture_output=True, text=True).stdout.strip()
    return head.stdout.strip() + ("+" if changes else "")


class ChunkFailed(Exception):
    """A chunk's command failed or left an output empty: the chunk writes nothing and the record
    goes on with the next (its message says why, and where the log is)."""


class Recorder:
    def __init__(self, arguments, gpu):
        self.arguments = arguments
        self.name = arguments.record
        self.folder = os.path.join(records.RESULTS, self.name)
        self.record = records.Record(self.name)
        self.gpu = gpu
        self.gpus = gpu_count()

    def status(self, chunk):
        """'current', 'not recorded', 'made by another command', 'made for other files' (the
        chunk's outputs are named otherwise now), 'its tool measures otherwise now', 'made for
        other stages' or 'stale: PROGRAMS'."""
        entry = self.record.manifest["chunks"].get(chunk.name)
        if entry is None:
            return "not recorded"
        if entry.get("commands") != chunk.command_lines():
            return "made by another command"
        if set(entry.get("files", {})) != set(chunk.outputs):
            return "made for other files"
        if redefined(entry, chunk):
            return "its tool measures otherwise now"
        if chunk.every_stage and entry.get("stages") != course.stage_names():
            return "made for other stages"
        stale = sorted(self.record.changed_programs(chunk.name))
        return f"stale: {', '.join(stale)}" if stale else "current"

    def estimate(self, chunk):
        """Seconds the chunk took when last recorded here, else in the default record (an
        H200's), else the catalog's figure."""
        for record in (self.record, records.Record(records.DEFAULT_RECORD)):
            entry = record.manifest["chunks"].get(chunk.name)
            if entry and entry.get("seconds"):
                return entry["seconds"]
        return chunk.seconds

    def measured(self, chunk):
        """Whether estimate() is the chunk's own time on this record's GPU, not a guess."""
        entry = self.record.manifest["chunks"].get(chunk.name)
        return bool(entry and entry.get("seconds"))

    def missing_need(self, chunk):
        """Why the chunk cannot run here, or None."""
        if chunk.gpus > self.gpus:
            return f"it needs {chunk.gpus} GPUs, this machine has {self.gpus}"
        if chunk.needs and not (shutil.which(chunk.needs) or os.access(
                os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", chunk.needs),
                os.X_OK)):
            return f"{chunk.needs} (Nsight Compute / the CUDA toolkit) is not found"
        return None

    def run(self, chunk, deadline=None):
        """Runs the chunk's commands into a scratch folder and writes its files and its entry;
        returns the seconds it took, or None where it ran past `deadline` (time.time()), was
        stopped and wrote nothing. Raises ChunkFailed, writing nothing of the chunk, if a command
        fails or an output is missing; stops the script if the code changed while it ran."""
        code = tree_code()
        scratch = os.path.join(self.arguments.build, "record-scratch", chunk.name)
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(scratch)
        values = {"build": self.arguments.build, "out": scratch, "python": PYTHON,
                  "arch": self.arguments.arch or compute_capability()}
        log_path = os.path.join(self.arguments.build, "record-scratch", f"{chunk.name}.log")
        start = time.time()
        with open(log_path, "w") as log:
            for command in chunk.commands:
                filled = [part.format(**values) for part in command]
                log.write("$ " + " ".join(filled) + "\n")
                log.flush()
                code_or_none = run_until(filled, log, deadline)
                if code_or_none is None:
                    return None
                if code_or_none != 0:
                    raise ChunkFailed(f"{' '.join(filled)} exited {code_or_none}; its log: "
                                      f"{log_path}")
        seconds = time.time() - start
        if tree_code() != code:
            sys.exit(f"record.py: the code changed while chunk {chunk.name} ran; nothing of it "
                     "was written")
        produced = {experiment: records.read_csv(os.path.join(scratch, file))
                    for experiment, file in chunk.outputs.items()}
        empty = [experiment for experiment, rows in produced.items() if not rows]
        if empty:
            raise ChunkFailed(f"it wrote no rows of {', '.join(empty)}; its log: {log_path}")
        fingerprints = records.Fingerprints()
        files = {}
        os.makedirs(self.folder, exist_ok=True)
        for experiment, rows in produced.items():
            for row in rows:
                row["code"] = fingerprints.of_row(row, chunk.program)
            files[experiment] = (f"{chunk.name}.csv" if len(chunk.outputs) == 1
                                 else f"{chunk.name}.{experiment}.csv")
            course.write_csv(os.path.join(self.folder, files[experiment]), rows)
        first = next(iter(produced.values()))[0]
        entry = {"files": files, "covers": chunk.covers, "commands": chunk.command_lines(),
                 "gpus": chunk.gpus, "program": chunk.program,
                 "gpu": self.gpu, "nvidia_driver": course.nvidia_driver(),
                 "cuda_runtime": first.get("cuda_runtime", ""), "nvcc": nvcc_release(),
                 "date": course.today(), "commit": commit(), "seconds": round(seconds),
                 "huge_pages": "hugetlb=1" in RECORD_ENVIRONMENT.get("GLIBC_TUNABLES", ""),
                 "definition": records.chunk_definition(chunk.command_lines())}
        if chunk.every_stage:
            entry["stages"] = course.stage_names()
        self.write_entry(chunk.name, entry)
        return seconds

    def write_entry(self, name, entry):
        """record.json with the chunk's entry, in the catalog's order, replaced in one step; the
        files its last entry named and this one does not (a chunk that writes fewer) removed."""
        manifest = self.record.manifest
        # A chunk of the toolkit alone, recorded on a machine without a GPU, names none.
        if self.gpu != "unknown" and manifest.get("gpu") in (None, "unknown"):
            manifest["gpu"] = self.gpu
        chunks = dict(manifest["chunks"])
        dropped = set(chunks.get(name, {}).get("files", {}).values()) - set(
            entry["files"].values())
        chunks[name] = entry
        order = [chunk.name for chunk in CHUNKS]
        manifest["chunks"] = dict(sorted(chunks.items(), key=lambda item: (
            order.index(item[0]) if item[0] in order else len(order), item[0])))
        path = os.path.join(self.folder, records.MANIFEST)
        with open(path + ".tmp", "w") as file:
            json.dump(manifest, file, indent=1)
            file.write("\n")
        os.replace(path + ".tmp", path)
        for file in dropped:
            os.remove(os.path.join(self.folder, file))
        self.record = records.Record(self.name)


# What the chunks' programs see beside the environment:
# - COURSE_REFERENCE_CACHE: the folder where one program leaves its keys and their std::sort
#   reference for the next that sorts the same keys (common/reference_cache.h), named by main()
#   for one record.py command; emptied before each chunk (the programs of a chunk share keys,
#   those of two chunks seldom; the 2^30 and 2^31 keys of the gpus chunk and their sorts take
#   24 GB) and after the command.
# - COURSE_VALIDATE_ONCE: each tool checks a program against std::sort at its first run of each
#   form in the chunk and at its first of that form on arrays of 1024 keys or more, and skips
#   the check on its other runs (course.validated_once): the check is host work after the timed
#   sorts, no part of any time recorded, and it was most of a run's seconds (the rows' column
#   `validation` says which runs were checked).
# - GLIBC_TUNABLES=glibc.malloc.hugetlb=1: malloc asks the kernel for 2 MB pages for the host's
#   large arrays (madvise; where transparent huge pages are not `never`), fewer page faults when
#   a program fills them (in a probe, not a recorded run, a run of v15 at 2^27 keys took 3.4 s in
#   all with it, 4.1 without, on the H200's machine, 2026-11-29). The host's memory, not the
#   GPU's: no part of a GPU's timed sort; std::sort's own timed rows run with it too.
# NVLink multicast (NVLS) is off for the sort across GPUs, as the H200 record's two-GPU runs had it,
# unless the environment sets it; each of their rows records the setting.
RECORD_ENVIRONMENT = {"COURSE_VALIDATE_ONCE": "1",
                      "NCCL_NVLS_ENABLE": os.environ.get("NCCL_NVLS_ENABLE", "0")}


def tunables():
    """GLIBC_TUNABLES as the environment has it, with malloc's huge pages added."""
    present = os.environ.get("GLIBC_TUNABLES", "")
    return ":".join(part for part in (present, "glibc.malloc.hugetlb=1") if part)


def empty_cache():
    folder = RECORD_ENVIRONMENT.get("COURSE_REFERENCE_CACHE")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)


def run_until(command, log, deadline):
    """The exit code of `command` (its output into `log`), or None where it was still running
    at `deadline` (time.time(); None: no limit): then it is stopped, with every process it
    started."""
    process = subprocess.Popen(command, cwd=course.ROOT, stdout=log, stderr=log,
                               start_new_session=True, env=dict(os.environ, **RECORD_ENVIRONMENT))
    try:
        return process.wait(timeout=None if deadline is None else max(1, deadline - time.time()))
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return None
    except KeyboardInterrupt:
        # Ctrl-C reaches record.py alone (the command has a session of its own): stop the
        # command too, so that no program goes on using the GPU after the script has ended.
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise


def redefined(entry, chunk, sources=None):
    """Whether the chunk's tool measures otherwise than when its record.json `entry` was made
    (records.chunk_definition: an experiment now runs other sizes or rivals): the definition
    the entry keeps, or for an entry made before entries kept one, the definition at the commit
    it names (the last, where runs of several were merged: "e9009bf, 4925e87"). False where
    neither can be known (a copy of the tree without git)."""
    recorded = entry.get("definition")
    if recorded is None:
        commits = re.findall(r"[0-9a-f]{7,40}", entry.get("commit", ""))
        if not commits:
            return False
        recorded = records.chunk_definition(entry["commands"], records.Sources(
            sources.root if sources else course.ROOT, commits[-1]))
        if recorded is None:
            return False
    return recorded != records.chunk_definition(chunk.command_lines(), sources)


def list_chunks(recorder, chunks):
    # Seconds of the default record on one GPU, of its chunks that need two, of those that need
    # no GPU (the toolkit alone: they can be recorded on another machine, --arch), and of
    # --all's; and of the first, those measured here (the rest are the catalog's estimates,
    # marked ~).
    total = {"one": 0, "two": 0, "none": 0, "all": 0, "measured": 0}
    for chunk in chunks:
        estimate = recorder.estimate(chunk)
        kind = ("all" if chunk.optional else "two" if chunk.gpus > 1 else
                "none" if chunk.gpus == 0 else "one")
        total[kind] += estimate
        if kind == "one" and recorder.measured(chunk):
            total["measured"] += estimate
        mark = " (--all)" if chunk.optional else ""
        guess = " " if recorder.measured(chunk) else "~"
        print(f"{chunk.name:20} {guess}{estimate:4.0f} s  {recorder.status(chunk):28} "
              f"{chunk.covers}{mark}")
    optional = sum(chunk.optional for chunk in chunks)
    print(f"{len(chunks) - optional} chunks, about {total['one'] / 60:.0f} minutes on one of "
          f"this record's GPUs ({recorder.record.gpu()}), {total['measured'] / 60:.0f} of them "
          f"measured here, {total['two'] / 60:.0f} on two and {total['none'] / 60:.0f} that need "
          f"no GPU; {optional} that only the lab notes read (--all), about "
          f"{total['all'] / 60:.0f} more (~: where this record has not measured the chunk, its "
          f"time in record {records.DEFAULT_RECORD}, or the catalog's estimate)")


def build(folder, gpus, arch=None):
    """Configures and compiles the course into `folder` (for the compute capability `arch`,
    where given, also a folder configured before), with every variant of tools/variants.txt where a GPU is
    here to run them (all at once: on many cores that is quicker than one at a time as the
    experiments ask for them)."""
    made = os.path.exists(os.path.join(folder, "build.ninja"))
    if not made or arch:
        # A folder built before is configured again for the compute capability asked for.
        setup = ["meson", "configure" if made else "setup", folder]
        result = subprocess.run(setup + ([f"-Dgpu_arch={arch}"] if arch else []), cwd=course.ROOT,
                                capture_output=True, text=True)
        if result.returncode != 0:
            output = (result.stdout + result.stderr)[-3000:]
            sys.exit(f"record.py: {' '.join(setup)} failed:\n{output}")
    targets = ["all"] + ([f"tools/{name}" for name in course.variants()] if gpus else [])
    result = subprocess.run(["ninja", "-C", folder] + targets, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"record.py: the build failed:\n{result.stdout[-3000:]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--record", help="the record's name (default: GPU 0's short name)")
    parser.add_argument("--build", default=os.path.join(course.ROOT, "build-record"),
                        help="the Meson build folder it builds and runs (default build-record)")
    parser.add_argument("--minutes", type=float,
                        help="stop this many minutes after the start: a chunk still running "
                        "then is stopped, writes nothing and is left for the next run")
    parser.add_argument("--only", help="comma-separated chunks to record, current or not")
    parser.add_argument("--all", action="store_true",
                        help="record the chunks only the lab notes read too (--list marks them)")
    parser.add_argument("--list", action="store_true",
                        help="list the chunks, their state and seconds, and record nothing")
    parser.add_argument("--arch", help="the compute capability the registers chunk compiles "
                        "for, and the build folder is configured for (default: GPU 0's); with "
                        "--record, the chunks that need no GPU record on a machine without one")
    arguments = parser.parse_args()
    only = arguments.only.split(",") if arguments.only else None
    unknown = [name for name in only or [] if not chunk_named(name)]
    if unknown:
        parser.error(f"--only: no chunk named {', '.join(unknown)} (--list lists them)")
    if course.arguments_only():
        return
    gpu = course.gpu_name()
    if not arguments.record:
        if gpu == "unknown":
            sys.exit("record.py: no GPU found here (nvidia-smi); name the record with --record")
        arguments.record = record_name(gpu)
    recorder = Recorder(arguments, gpu)
    recorded_gpu = recorder.record.manifest.get("gpu")
    if gpu == "unknown":
        recorder.gpu = recorded_gpu or "unknown"
    elif recorded_gpu not in (None, "unknown", gpu):
        sys.exit(f"record.py: record {arguments.record} was made on an {recorded_gpu}, this is "
                 f"an {gpu}: name another record with --record")
    if arguments.list:
        list_chunks(recorder, [chunk_named(name) for name in only] if only else CHUNKS)
        return
    start = time.time()
    build(arguments.build, recorder.gpus, arguments.arch)
    print(f"record {arguments.record} ({recorder.gpu}): built in {time.time() - start:.0f} s",
          flush=True)
    # The same keys are made and checked in many programs (the tour's 2^29 keys in every stage
    # and library): made and sorted by std::sort once, they serve the chunk's runs.
    cache = os.path.join(arguments.build, "record-scratch", "reference")
    RECORD_ENVIRONMENT["COURSE_REFERENCE_CACHE"] = os.path.abspath(cache)
    RECORD_ENVIRONMENT["GLIBC_TUNABLES"] = tunables()
    try:
        record_chunks(arguments, recorder, start)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def record_chunks(arguments, recorder, start):
    """Records the chunks main() was asked for, as --only, --all and --minutes say."""
    only = arguments.only.split(",") if arguments.only else None
    chunks = ([chunk_named(name) for name in only] if only else
              [chunk for chunk in CHUNKS if arguments.all or not chunk.optional])
    skipped, left, failed = [], [], []
    for chunk in chunks:
        state = recorder.status(chunk)
        if state == "current" and not only:
            continue
        why = recorder.missing_need(chunk)
        if why:
            skipped.append(f"{chunk.name} ({why})")
            continue
        estimate = recorder.estimate(chunk)
        deadline = start + 60 * arguments.minutes if arguments.minutes else None
        # A chunk is started while time is left; one whose seconds were measured here is left
        # for later where they would not fit, and any chunk still running at the limit is
        # stopped, writing nothing.
        if deadline and (time.time() + 20 > deadline or
                         (recorder.measured(chunk) and time.time() + estimate > deadline)):
            left.append(chunk)
            continue
        print(f"{chunk.name}: {state}; recording (about {estimate:.0f} s)", flush=True)
        empty_cache()
        try:
            seconds = recorder.run(chunk, deadline)
        except ChunkFailed as error:
            print(f"{chunk.name}: failed, nothing written ({error})", flush=True)
            failed.append(chunk.name)
            continue
        if seconds is None:
            print(f"{chunk.name}: still running at the limit, stopped; nothing written",
                  flush=True)
            left.append(chunk)
            continue
        print(f"{chunk.name}: recorded in {seconds:.0f} s", flush=True)
    for line in skipped:
        print(f"skipped: {line}")
    if left:
        print(f"left for the next run ({sum(recorder.estimate(c) for c in left) / 60:.0f} "
              f"minutes or so): {', '.join(chunk.name for chunk in left)}")
    print(f"record {arguments.record}: done in {time.time() - start:.0f} s")
    if failed:
        sys.exit(f"record.py: {len(failed)} chunk(s) failed, the others went on: "
                 f"{', '.join(failed)} (each one's log is in {arguments.build}/record-scratch/)")


if __name__ == "__main__":
    main()
