#!/usr/bin/env python3
"""The course's recorded experiments: the runs behind the chapters' claims that the tour alone
does not make.

    python3 tools/experiments.py --build build --out results v6_steps segments

  v4_tile        v4_half_threads as built (1024-thread blocks, a 2048-key tile) against the same
                 stage with 512-thread blocks (a 1024-key tile): how much of v4's gain is its
                 doubled tile (chapter 6)
  v6_steps       v6_multistep with 3, 4, 5 and 6 compare steps per multistep pass (chapter 8)
  v7_tile        v7_register_tile as built, 16 keys per thread and an 8192-key tile, against the
                 same kernels with v6's 2048-key tile at 16 and at 8 keys per thread (chapter 9)
  v7_padding     v7_register_tile with and without the padding of its shared-memory tile
                 (chapter 9)
  v8_mapping     v8_batched as built, 16 keys per thread in a 4096-key tile, against v7's
                 8192-key tile and against v9's 8 keys per thread in a 2048-key tile, for arrays
                 of 2 .. 2^14 keys, the lengths the docs quote (chapter 10)
  v8_pipes       v8_batched as built against two variants that move integer work from the ALU
                 pipe to the FMA pipe (flip_keys as a multiply-add; each lane step as one min of
                 keys flipped by multiply-adds), one with 32 keys per thread, one whose merges
                 of 256 and 512 keys trade keys through shared memory instead of shuffles, one
                 whose block_sort is capped at 40 registers so that six blocks fit an SM, and
                 one whose block_sort stores its tile straight from the registers, as v7 does,
                 for arrays of 2 .. 2^14 keys (lab note pipes)
  v9_mapping     v9_argsort's argsort (--values) as built, 8 items per thread in a 2048-item
                 tile, against v8's 16 in a 4096-item tile, for arrays of 2 .. 2^14 keys
                 (chapter 11)
  v9_compare     v9_argsort's argsort (--values) as built, one 64-bit compare in each lane
                 step, against v8's min and max there, one 64-bit compare a pair everywhere
                 (order_pair in PTX), fmin and fmax of its items read as doubles, and each key
                 and its position in two 32-bit registers with keys compared alone (ties in
                 either order), for arrays of 2 .. 2^14 keys (lab note lane_compare)
  v8_directions  v8_batched as built, whose threads flip their keys (~x) so that every compare
                 is ascending, against the same network with no flips, every compare a min or a
                 max picked by its direction, for arrays of 2 .. 2^14 keys (lab note flips)
  v9_directions  the same for v9_argsort's argsort (--values): flips of its 64-bit items
                 against compares that take their direction (lab note flips)
  v8_mirrored    v8_batched as built against the network's other form (exercise 1): the first
                 step of each merge pairs key i with i ^ (size - 1), so every compare is
                 ascending and no thread flips, for arrays of 2 .. 2^14 keys (lab note flips)
  v9_mirrored    the same for v9_argsort's argsort (--values) (lab note flips)
  v13_groups     v13_any_bits as built, 2^14-key groups of 512 threads, against 2^13-key groups
                 and two forms of 2^15-key groups (1024 threads of 32 keys, 512 of 64; 128 KB of
                 shared memory a block), with v12_key_words, at 2^16 .. 2^29 keys (lab note groups)
  v19_groups     v19_coalesced_store as built, 2^14-key groups, against its variant with 2^15-key
                 groups (1024 threads of 32 keys, 128 KB of shared memory a block, one block a
                 multiprocessor), with CUB's merge sort, at 2^16 .. 2^29 keys (lab note groups)
  v20_rounds     v20_register_fixup as built, whose merges of 32 to 512 keys pair lanes by
                 shuffles (a lane step: a min and a max a key, the max predicated), against
                 variants whose merges from 512, 256 or 128 keys on make their round through
                 shared memory instead, for arrays of 8 .. 4096 keys (lab note short_arrays)
  v20_round_argsorts  the same for v20's argsort (--values) (lab note short_arrays)
  v20_warp_tiles v20_register_fixup's argsort (--values) as built, 4096-key tiles of eight warps,
                 against its variant whose arrays of 512 keys or fewer go in 512-key tiles, one
                 warp a block, so that a barrier waits for one warp, with v20's keys alone, at
                 8 .. 1024 keys an array (lab note short_arrays)
  v21_keys       v21_warp_tiles's keys alone as built, 16 keys a thread, against its variants
                 with 32 keys a thread (128 threads a 4096-key tile; one warp holds an array of
                 1024 keys), the same capped at 72 registers so that seven blocks fit an SM, and
                 the same with a round through shared memory in every merge from 128 keys on,
                 behind a warp's barrier where the round stays in one warp, for arrays of
                 8 .. 4096 keys (lab note short_arrays)
  v21_slots      v21_warp_tiles as built, whose exchanges through the tile compute each word's
                 place from the thread and the register together, against its variant that adds
                 a constant for each register to a base for each thread, as it is and held to six
                 blocks an SM, keys and argsorts (--values) on arrays of 8 .. 4096 keys (lab note
                 short_arrays)
  v22_stores     v22_slot_offsets as built, its variants that store keys alone four to a 16-byte
                 store, as v8 does (its tile read block-wide) and from a layout of the warp whose
                 tile words are a base and constants (that store chosen at run time, and when
                 the kernel is compiled), and v8_batched, each in five separate runs
                 taken in turns, keys on arrays of 8, 16, 32, 128, 1024 and 4096 keys, 2^27 in
                 all (lab note short_arrays)
  v22_lanes      v22_store_word_vectors against its variants whose merges make their lane
                 steps on tile bits 4 .. 7 on registers, after a round through each warp's own
                 part of the tile behind a warp's barrier (as it is, held to six blocks an SM,
                 and only in merges with three such steps or more), with v22_slot_offsets and
                 v8_batched, in turns as v22_stores, on the same lengths (lab note short_arrays)
  v22_swaps      v22_store_word_vectors against v22_warp_rounds and v22_warp_rounds3 and their
                 variants whose warp's round goes through the tile's words with tile bits 4 and
                 8 swapped (no bank conflicts), in turns as v22_stores, keys on arrays of 128,
                 1024 and 4096 keys (lab note short_arrays)
  stage_turns    v24_warp_rounds, v23_vector_stores, v22_slot_offsets and v8_batched, keys on
                 arrays of every power of two from 8 to 4096 keys, in turns as v22_stores, with
                 v13_any_bits, v14_span, v12_key_words and v21_warp_tiles at 8 and 16 keys
                 (chapters 25 and 26)
  v24_blocks     v24_warp_rounds against v24_blocks8, its kernel without rounds held to eight
                 blocks an SM, and v13_any_bits, keys on arrays of 8 .. 128 keys, in turns as
                 v22_stores (lab note short_arrays)
  v24_barrier    v24_warp_rounds against its store's barriers as chapter 25 left them:
                 v24_second_block_barrier (store_fours' second barrier the block's again) and
                 v24_block_barriers (both the block's, the first also in the kernel without
                 rounds), with v13_any_bits, v14_span and v12_key_words, keys on arrays of
                 8 .. 128 keys, in turns as v22_stores (lab note short_arrays)
  v13_passes     v13_any_bits as built against variants that make fewer passes: groups
                 that keep index bits 0 .. 2 (32-byte sectors) and so 11 global steps a pass,
                 their passes storing from layout 5 or from their last one; block_sort on v8's
                 4096-key tile; the merges of 2^12 .. 2^14 keys in one launch; the last two
                 together; passes that span two merges (the pass that ends a merge runs the
                 next merge's largest strides in its group's free bits), alone and with the
                 4096-key tile; at 2^20 .. 2^29 keys (lab note passes)
  v14_span       v14_span against the stage before it, two variants of it (block_sort on
                 v8's 4096-key tile, v14_tile4096; the group's words padded, v14_padded) and
                 the libraries' sorts a user would pick, CUB's merge sort (a comparison sort)
                 and radix sort, in one run, at 2^16 .. 2^29 keys (chapter 16)
  v14_argsorts   v14_span's argsort of one long array (--values) and its keys alone, against
                 v13_any_bits's and cub::DeviceRadixSort's SortPairs and SortKeys (cub_radix),
                 at 2^20, 2^24 and 2^27 keys (chapter 16)
  v15_tile       v15_tile4096 against the stage before it, a variant of it with the group's
                 words padded (v15_padded) and CUB's merge and radix sorts, in one run, at
                 2^16 .. 2^29 keys (chapter 17)
  v15_argsorts   v15_tile4096's argsort of one long array (--values) and its keys alone,
                 against v14_span's and cub_radix's, at 2^20, 2^24 and 2^27 keys (chapter 17)
  v15_tops       v15_tile4096's top 16 of keys alone against its variant v15_top_words
                 (block_top on 32-bit words) and its full sort, arrays of 128 .. 2^14 keys,
                 2^27 keys in all (lab note top_keys)
  v16_tops       v16_register_top's top 16 against v15_tile4096's, its own full sort, its
                 top 16 with positions (--values) and torch.topk on the same rows, arrays of
                 128 .. 4096 keys, 2^27 keys in all (chapter 18)
  v17_argsorts   v17_prefix_argsort's argsort against v16_register_top's, v17's keys alone,
                 the variants v17_range_digits and v17_vote_first and torch.sort, arrays of
                 64 .. 4096 keys, and
                 the argsorts on few-unique, sorted and extremes keys, 2^27 keys in all
                 (chapter 19)
  long_argsorts  v13_any_bits, its variant with 16 keys a thread (v13_keys16) and
                 v12_key_words, with and without --values (an argsort of the whole input, each
                 key's position carried in a 64-bit item), against cub::DeviceRadixSort's
                 SortPairs and SortKeys (cub_radix), at 2^20, 2^24 and 2^27 keys (chapter 15)
  segments       v8_batched against cub::DeviceSegmentedSort, DeviceSegmentedRadixSort (from
                 32 keys per array), one DeviceRadixSort of packed 64-bit words
                 (cub_packed_radix) and, up to 2^16 keys per array, torch.sort on rows
                 (tools/torch_rows.py; skipped with one line where PyTorch cannot be imported),
                 for arrays of 2 .. 2^27 keys, 2^27 keys in all (chapter 10)
  segment_stages every stage from v8 on (v8_batched .. v24_warp_rounds) on many arrays, keys
                 alone, against v8's fastest rivals (cub_segmented, cub_packed_radix,
                 torch.sort up to 2^16 keys per array), at every power of two from 8 to 4096
                 keys per array and at 2^14, 2^16, 2^18 and 2^20; and the argsorts
                 (--values) of v9_argsort, v15_tile4096, v17_prefix_argsort .. v24_warp_rounds
                 and cub_packed_radix at 8, 128, 1024, 4096 and the four longer lengths,
                 v19's to v24's at every length of the keys; the top 16 (--top 16) of
                 v16_register_top .. v24_warp_rounds at 128 .. 4096 keys per array; 2^27 keys
                 in all (chapters 20 to 26 and 28). It takes more than ten minutes on an H200:
                 segment_stages_short (arrays of 8 .. 512 keys) and segment_stages_long (1024
                 .. 2^20) make the same runs in two halves, each shorter, and write
                 segment_stages_short.csv and segment_stages_long.csv
  segment_spread v22_slot_offsets against the fastest stages at those lengths, v8_batched,
                 v13_any_bits, v14_span and v19_coalesced_store, at 8, 16 and 32 keys per
                 array, each in five separate runs taken in turns, 2^27 keys in all (lab note
                 many_arrays)
  argsorts       v9_argsort with and without --values, v8_batched, the argsorts (--values) of
                 cub_segmented and cub_packed_radix, and torch.sort, for arrays of 2 .. 2^16
                 keys, 2^27 keys in all (chapters 10 and 11)
  word_argsorts  the lab's argsorts on v8's network, tools/word_argsort (two sorts of 32-bit
                 words), tools/rank_argsort (a sort of the keys, then a search) and
                 tools/prefix_argsort (one sort of words, then a fix-up), against
                 v9_argsort's (--values), v8_batched's keys and torch.sort, for arrays of
                 2 .. 2^12 keys, 2^27 keys in all (lab note word_argsorts)
  tops           v10_top_k's --top K with and without --values, the sort of its runs of K keys
                 alone, its full sort, and torch.topk and torch.sort on the same rows, for K = 1
                 .. 256 of arrays of 1024 keys and K = 16 of arrays of 128 .. 2^16, 2^27 keys in
                 all (chapter 12)
  floats         v11_float_keys's sort, argsort and top-k of floats (--type float) against the same
                 of ints, v10_top_k's of ints, and torch.sort and torch.topk on float32 rows,
                 for arrays of 128, 1024 and 4096 keys, 2^27 keys in all (chapter 13)
  gpus           v25_multi_gpu on one GPU (2^30 keys) and on two (2^29, 2^30 and 2^31),
                 v7_register_tile, CUB's radix sort (2^29, 2^30) and the copy baseline on one
                 (2^30): the sort across GPUs against what a user would run on one GPU, its last
                 exchange as the program times it, and the parts of the time model; where the
                 build made it, the same sort as two processes under mpirun beside each two-GPU
                 run; needs two GPUs (chapter 27)
  exchange       tools/nccl_exchange on GPUs 0 and 1: the grouped ncclSend and ncclRecv of
                 v25_multi_gpu alone, 256 KiB to 4 GiB each way (chapter 27)
  spread         every stage in five separate runs (--spread-runs) at 2^15, 2^17 and 2^20:
                 how far apart two measurements of one program fall (chapter 28)
  distributions  every stage on every distribution at 2^24 (lab note inputs, chapter 28)
                 spread and distributions take --stages: only those stages, to measure again
                 the stages whose code changed; with --replace-in RECORDED.csv the output is
                 that record with those rows replaced (same variant, program and size)
  barriers       v0_naive's sort with one launch per step, the same launches as a CUDA Graph,
                 and one cooperative launch with grid.sync() between steps (tools/
                 barriers.cu), at 2^10 .. 2^24 (lab note barriers)
  clusters       one pass over the keys with 1 .. 4 compare steps within a block and across the
                 blocks of a thread block cluster of 2 .. 16, against a pass with none and a
                 copy (tools/cluster_steps.cu), at 2^24, 2^27 and 2^29 (lab note clusters)
  copy           the copy baseline at every size from 2^10 to 2^29: what one isolated copy of
                 the array costs at each size, the floor's unit (chapter 28)
  small_arrays   v7_register_tile and every library call at 2^10 .. 2^14, in five separate runs
                 each, taking turns: which is faster beyond the spread of the runs (chapter 28)

A variant of a stage is one of tools/variants.txt: the stage's own code but for the lines of its
bitonic_index.h or bitonic_sort.cu that the entry edits (constants, the tile's padding, a launch
bound), each matched exactly as the stage declares it, built by Meson with the stage's flags
when an experiment asks for it (`meson compile -C build v7_unpadded`). Each experiment writes
OUT/EXPERIMENT.csv: the programs' own CSV records (common/report.cpp) with the experiment, the
variant, the NVIDIA driver and the date; docs/generate.py makes the chapters' tables from
them.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys

import course

SIZES = [20, 24, 27, 29]
# v13_groups: from the smallest array with a pass of global strides for every group size (2^16:
# a merge of 2^16 keys has strides of 2^15 or more) up.
GROUP_SIZES = [16, 18, 20, 22, 24, 27, 29]


class Runner:
    def __init__(self, arguments):
        self.build = arguments.build
        self.driver = course.nvidia_driver()
        self.date = course.today()
        self.spread_runs = arguments.spread_runs
        self.distribution_sizes = [int(q) for q in arguments.distribution_sizes.split(",")]
        self.stages = (arguments.stages.split(",") if arguments.stages
                       else course.stage_names())
        self.torch_missing = False

    def variant(self, name):
        """The command of the variant `name` of tools/variants.txt, built through Meson."""
        program = course.variant_program(self.build, name)
        print(f"built {name}", file=sys.stderr, flush=True)
        return [program]

    def torch_records(self, experiment, arguments):
        """[the record of torch.sort on rows, or with --top of torch.topk] (tools/torch_rows.py
        ARGUMENTS), or [] where PyTorch cannot be imported: the first try says so in one line,
        later ones do not run."""
        if self.torch_missing:
            return []
        variant = "torch.topk" if "--top" in arguments else "torch.sort"
        command = [sys.executable, os.path.join(course.TOOLS, "torch_rows.py")] + arguments
        code, record, errors = course.run_record(command)
        if code == 77:
            print(f"{experiment}|{variant}|{errors.strip()}", file=sys.stderr, flush=True)
            self.torch_missing = True
            return []
        return [self.checked(experiment, variant, command, code, record, errors)]

    def record(self, experiment, variant, command):
        return self.checked(experiment, variant, command, *course.run_record(command))

    def checked(self, experiment, variant, command, code, record, errors):
        """The program's record with the experiment's fields; stops the experiment if the
        program failed."""
        if code != 0 or record is None:
            sys.exit(f"{' '.join(command)} failed with exit code {code}:\n{errors}")
        record = {"experiment": experiment, "variant": variant, **record,
                  "nvidia_driver": self.driver, "date": self.date}
        print(f"{experiment}|{variant}|{record['n']}|{record['segment']}|"
              f"{record['distribution']}|{float(record['sort_ms']):.4f}|{record['validation']}",
              file=sys.stderr, flush=True)
        return record


def stage_program(build, stage):
    return course.program_command(build, stage)


# tools/torch_rows.py for one argument list a line (JSON) of its input, each answered by one line
# of [exit code, stdout, stderr]: PyTorch is imported once for them all.
# The answers go out on a copy of the worker's stdout; what a library writes to the stdout file
# itself goes to stderr, so that it cannot break a line.
TORCH_WORKER = """
import contextlib, io, json, os, sys
answers = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
sys.path.insert(0, sys.argv[1])
import torch_rows
for line in sys.stdin:
    sys.argv = ["torch_rows.py"] + json.loads(line) + ["--csv"]
    out, err, code = io.StringIO(), io.StringIO(), 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            torch_rows.main()
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
            if isinstance(stop.code, str):
                print(stop.code, file=sys.stderr)
    print(json.dumps([code, out.getvalue(), err.getvalue()]), file=answers, flush=True)
"""


def torch_batch(runner, experiment, argument_lists):
    """runner.torch_records of each of `argument_lists`, one after another in one Python process
    (TORCH_WORKER): importing PyTorch took 6.6 of the 9.7 s of a row run on its own on the
    H200's machine. [] where PyTorch cannot be imported, said once, as torch_records does."""
    if runner.torch_missing or not argument_lists:
        return []
    worker = subprocess.Popen([sys.executable, "-c", TORCH_WORKER, course.TOOLS],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    records = []
    try:
        for arguments in argument_lists:
            variant = "torch.topk" if "--top" in arguments else "torch.sort"
            worker.stdin.write(json.dumps(arguments) + "\n")
            worker.stdin.flush()
            answer = worker.stdout.readline()
            if not answer:
                sys.exit(f"{experiment}|{variant}: the PyTorch worker stopped")
            code, output, errors = json.loads(answer)
            if code == 77:
                print(f"{experiment}|{variant}|{errors.strip()}", file=sys.stderr, flush=True)
                runner.torch_missing = True
                return []
            lines = output.strip().splitlines()
            found = list(csv.DictReader(lines)) if len(lines) >= 2 else []
            command = [sys.executable, os.path.join(course.TOOLS, "torch_rows.py")] + arguments
            records.append(runner.checked(experiment, variant, command, code,
                                          found[-1] if found else None, errors))
    finally:
        worker.stdin.close()
        worker.wait()
    return records


def sweep(runner, experiment, programs, sizes=SIZES):
    """Every program of {variant: command} at every log2 size, each size with its repetitions."""
    return [runner.record(experiment, variant, command + ["--log2", str(q), "--reps",
                                                          str(course.repetitions(q))])
            for q in sizes for variant, command in programs.items()]


def v4_tile(runner):
    return sweep(runner, "v4_tile", {
        "1024-thread blocks, 2048-key tile": stage_program(runner.build, "v4_half_threads"),
        "512-thread blocks, 1024-key tile": runner.variant("v4_tile1024"),
    })


def v6_steps(runner):
    programs = {f"{steps} steps per pass": runner.variant(f"v6_steps{steps}")
                for steps in (3, 4, 5)}
    programs["6 steps per pass"] = stage_program(runner.build, "v6_multistep")
    return sweep(runner, "v6_steps", programs)


def v7_tile(runner):
    return sweep(runner, "v7_tile", {
        "16 keys per thread, 8192-key tile": stage_program(runner.build, "v7_register_tile"),
        "16 keys per thread, 2048-key tile": runner.variant("v7_tile2048"),
        "8 keys per thread, 2048-key tile": runner.variant("v7_keys8"),
    })


def v7_padding(runner):
    return sweep(runner, "v7_padding", {
        "padded tile": stage_program(runner.build, "v7_register_tile"),
        "no padding": runner.variant("v7_unpadded"),
    }, sizes=[20, 27])


def mapping_sweep(runner, experiment, programs, options=(), lengths=range(1, 15)):
    """Every program of {variant: command}, the stage as built first (tables.mapping_ratio
    divides by it), on arrays of 2^L keys for L in `lengths` (default 2 .. 2^14), 2^27 keys in
    all. Each experiment below runs the lengths its chapter or note quotes and the ends of its
    table, which keeps the record short; a length quoted later and not run reads "not
    measured", and the docs tests fail on it."""
    records = []
    for log2_segment in lengths:
        for variant, command in programs.items():
            records.append(runner.record(experiment, variant, command + list(options) + [
                "--log2", "27", "--segment", str(1 << log2_segment), "--reps", "5"]))
    return records


def v8_mapping(runner):
    return mapping_sweep(runner, "v8_mapping", {
        "16 keys per thread, 4096-key tile": stage_program(runner.build, "v8_batched"),
        "16 keys per thread, 8192-key tile": runner.variant("v8_tile8192"),
        "8 keys per thread, 2048-key tile": runner.variant("v8_keys8"),
    }, lengths=[1, 4, 5, 7, 8, 10, 12, 13, 14])


def v8_pipes(runner):
    return mapping_sweep(runner, "v8_pipes", {
        "as built": stage_program(runner.build, "v8_batched"),
        "flips as multiply-adds": runner.variant("v8_flip_mad"),
        "lane steps as one min": runner.variant("v8_lanes_mad"),
        "32 keys per thread": runner.variant("v8_keys32"),
        "lane steps through shared memory": runner.variant("v8_round256"),
        "six blocks an SM": runner.variant("v8_blocks6"),
        "stores from the registers": runner.variant("v8_thread_store"),
    }, lengths=[1, 2, 4, 7, 8, 9, 10, 12, 14])


def v9_mapping(runner):
    return mapping_sweep(runner, "v9_mapping", {
        "8 items per thread, 2048-item tile": stage_program(runner.build, "v9_argsort"),
        "16 items per thread, 4096-item tile": runner.variant("v9_keys16"),
    }, ["--values"], lengths=[1, 4, 5, 6, 7, 10, 11, 12, 14])


def v9_compare(runner):
    """v9_argsort's lane step as built (one 64-bit compare) against v8's min and max in it, one
    compare a pair everywhere (order_pair in PTX), fmin and fmax of the items read as doubles,
    and each key and its position in two 32-bit registers, keys compared alone, with --values."""
    return mapping_sweep(runner, "v9_compare", {
        "one compare a lane step (as built)": stage_program(runner.build, "v9_argsort"),
        "a 64-bit min and max a lane step": runner.variant("v9_minmax_lanes"),
        "one compare a lane step and a pair": runner.variant("v9_one_compare"),
        "fmin and fmax of doubles": runner.variant("v9_double_minmax"),
        "keys and positions in two registers": runner.variant("v9_split_items"),
    }, ["--values"], lengths=[1, 4, 5, 6, 7, 8, 10, 12, 14])


def v15_tops(runner):
    """v15_tile4096's top 16 of keys alone as built (block_top on 64-bit items) against its
    variant v15_top_words (block_top on 32-bit words) and the stage's full sort of the same
    arrays."""
    stage = stage_program(runner.build, "v15_tile4096")
    return mapping_sweep(runner, "v15_tops", {
        "top 16, items (as built)": stage + ["--top", "16"],
        "top 16, 32-bit words": runner.variant("v15_top_words") + ["--top", "16"],
        "the full sort": stage,
    }, lengths=[7, 8, 10, 12, 14])


def v16_tops(runner):
    """v16_register_top's top 16 (one register_top launch) against v15_tile4096's (block_sort of
    the runs, then block_top), against v16's full sort of the same arrays, against v16's top 16
    with positions (--values), and against torch.topk on the same rows (keys and int64 indices),
    arrays of 128 .. 4096 keys."""
    stage = stage_program(runner.build, "v16_register_top")
    lengths = [7, 8, 9, 10, 11, 12]
    records = mapping_sweep(runner, "v16_tops", {
        "top 16, v16": stage + ["--top", "16"],
        "top 16, v15": stage_program(runner.build, "v15_tile4096") + ["--top", "16"],
        "the full sort, v16": stage,
        "top 16 with positions, v16": stage + ["--top", "16", "--values"],
    }, lengths=lengths)
    return records + torch_batch(runner, "v16_tops", [
        ["--log2", "27", "--segment", str(1 << length), "--reps", "5", "--top", "16"]
        for length in lengths])


def v17_argsorts(runner):
    """v17_prefix_argsort's argsort (--values, one sort of words and a fix-up) against
    v16_register_top's (64-bit items), against v17's sort of the keys alone and against the
    variants v17_range_digits and v17_vote_first, on arrays of 64 .. 4096 uniform keys; the four
    argsorts again on keys few-unique, sorted and extremes at 128, 1024 and 4096 keys an array,
    where v17's tiles fall back; and torch.sort on the uniform rows; 2^27 keys in all
    (chapter 19)."""
    stage = stage_program(runner.build, "v17_prefix_argsort")
    argsorts = {
        "argsort, v17": stage + ["--values"],
        "argsort, v16": stage_program(runner.build, "v16_register_top") + ["--values"],
        "argsort, v17_range_digits": runner.variant("v17_range_digits") + ["--values"],
        "argsort, v17_vote_first": runner.variant("v17_vote_first") + ["--values"],
    }
    lengths = [6, 7, 8, 9, 10, 11, 12]
    records = mapping_sweep(runner, "v17_argsorts", dict(argsorts, **{"keys, v17": stage}),
                            lengths=lengths)
    for distribution in ("few-unique", "sorted", "extremes"):
        records += mapping_sweep(runner, "v17_argsorts", {
            f"{name}, {distribution}": command for name, command in argsorts.items()
        }, ["--dist", distribution], lengths=[7, 10, 12])
    return records + torch_batch(runner, "v17_argsorts", [
        ["--log2", "27", "--segment", str(1 << length), "--reps", "5"] for length in lengths])


def flips_sweep(runner, stage, variant, options=()):
    """STAGE as built, which flips its keys, against VARIANT, which does without the flips
    (course.FLIP_VARIANTS says how); recorded under the variant's name."""
    return mapping_sweep(runner, variant, {
        "flips (as built)": stage_program(runner.build, stage),
        course.FLIP_VARIANTS[stage][variant]: runner.variant(variant),
    }, options, lengths=[1, 4, 8, 10, 12, 14])


def v8_directions(runner):
    return flips_sweep(runner, "v8_batched", "v8_directions")


def v9_directions(runner):
    return flips_sweep(runner, "v9_argsort", "v9_directions", ["--values"])


def v8_mirrored(runner):
    return flips_sweep(runner, "v8_batched", "v8_mirrored")


def v9_mirrored(runner):
    return flips_sweep(runner, "v9_argsort", "v9_mirrored", ["--values"])


def v13_groups(runner):
    return sweep(runner, "v13_groups", {
        "2^14-key groups, 512 threads of 32 keys": stage_program(runner.build, "v13_any_bits"),
        "2^13-key groups, 256 threads of 32 keys": runner.variant("v13_group13"),
        "2^15-key groups, 1024 threads of 32 keys": runner.variant("v13_group15"),
        "2^15-key groups, 512 threads of 64 keys": runner.variant("v13_group15_keys64"),
        "v12_key_words": stage_program(runner.build, "v12_key_words"),
    }, sizes=GROUP_SIZES)


def v19_groups(runner):
    return sweep(runner, "v19_groups", {
        "2^14-key groups, 512 threads of 32 keys": stage_program(runner.build,
                                                                  "v19_coalesced_store"),
        "2^15-key groups, 1024 threads of 32 keys": runner.variant("v19_group15"),
        "CUB's merge sort": course.program_command(runner.build, "cub_merge"),
    }, sizes=GROUP_SIZES)


def v20_rounds(runner, experiment="v20_rounds", options=()):
    """v20_register_fixup as built against its variants whose smaller merges make a round
    through shared memory: from 512, 256 or 128 keys on, where the stage starts at 1024."""
    programs = {"as built (a round from 1024 keys on)":
                stage_program(runner.build, "v20_register_fixup")}
    for size in (512, 256, 128):
        programs[f"a round from {size} keys on"] = runner.variant(f"v20_round{size}")
    return mapping_sweep(runner, experiment, programs, options, lengths=[3, 6, 7, 8, 10, 12])


def v20_round_argsorts(runner):
    return v20_rounds(runner, "v20_round_argsorts", ["--values"])


def v20_warp_tiles(runner):
    """v20's argsort as built against its variant with one-warp tiles for arrays of up to 512
    keys, and v20's keys alone in the same run, so that the argsorts' times over the keys' are
    ratios of one run."""
    lengths = [3, 6, 7, 8, 9, 10]
    stage = stage_program(runner.build, "v20_register_fixup")
    return (mapping_sweep(runner, "v20_warp_tiles", {
        "4096-key tiles, eight warps a block (as built)": stage,
        "512-key tiles, one warp a block": runner.variant("v20_warp_tiles"),
    }, ["--values"], lengths=lengths) +
            mapping_sweep(runner, "v20_warp_tiles", {"keys alone (as built)": stage},
                          lengths=lengths))


def v21_keys(runner):
    """v21's keys alone as built against its variants with 32 keys a thread."""
    return mapping_sweep(runner, "v21_keys", {
        "16 keys a thread (as built)": stage_program(runner.build, "v21_warp_tiles"),
        "32 keys a thread": runner.variant("v21_keys32"),
        "32 keys a thread, seven blocks an SM": runner.variant("v21_keys32_blocks7"),
        "32 keys a thread, rounds from 128 keys on": runner.variant("v21_keys32_rounds"),
    }, lengths=[3, 6, 7, 8, 10, 12])


def v21_slots(runner):
    """v21 as built against its variants whose exchanges add a constant for each register to a
    base for each thread: keys for all three, then the argsorts of the stage and the first."""
    lengths = [3, 6, 7, 8, 10, 12]
    stage = stage_program(runner.build, "v21_warp_tiles")
    return (mapping_sweep(runner, "v21_slots", {
        "keys, as built": stage,
        "keys, a base and constants": runner.variant("v21_slot_sums"),
        "keys, a base and constants, six blocks an SM": runner.variant("v21_slot_sums_blocks6"),
    }, lengths=lengths) +
            mapping_sweep(runner, "v21_slots", {
                "argsort, as built": stage,
                "argsort, a base and constants": runner.variant("v21_slot_sums"),
            }, ["--values"], lengths=lengths))


def v22_stores(runner):
    """v22 as built, its three variants whose keys leave the tile four to a 16-byte store (v8's
    stores; the same from a layout of each warp; and that, chosen when the kernel is compiled),
    and v8, in separate runs taken in turns: whether v8's lead over v22 on arrays of 8 to 32
    keys (segment_spread) is in the stores."""
    programs = [stage_program(runner.build, "v22_slot_offsets"), runner.variant("v22_store_fours"),
                runner.variant("v22_store_vectors"), runner.variant("v22_store_word_vectors"),
                stage_program(runner.build, "v8_batched")]
    return [runner.record("v22_stores", f"run {repeat + 1}", program + [
                "--log2", "27", "--segment", str(1 << log2_segment), "--reps", "5"])
            for log2_segment in (3, 4, 5, 7, 10, 12) for repeat in range(runner.spread_runs)
            for program in programs]


def v22_lanes(runner):
    """v22_store_word_vectors against its variants whose merges trade lane steps on tile bits 4 ..
    7 for steps on registers after a round through each warp's own part of the tile (as it is,
    held to six blocks an SM, and only where a merge has three such steps or more), with v22 and
    v8, in separate runs taken in turns."""
    programs = [stage_program(runner.build, "v22_slot_offsets"),
                runner.variant("v22_store_word_vectors"), runner.variant("v22_warp_rounds"),
                runner.variant("v22_warp_rounds_blocks6"), runner.variant("v22_warp_rounds3"),
                stage_program(runner.build, "v8_batched")]
    return [runner.record("v22_lanes", f"run {repeat + 1}", program + [
                "--log2", "27", "--segment", str(1 << log2_segment), "--reps", "5"])
            for log2_segment in (3, 4, 5, 7, 10, 12) for repeat in range(runner.spread_runs)
            for program in programs]


def v22_swaps(runner):
    """v22_store_word_vectors against the two warp's rounds of v22_lanes (in every merge with two
    lane steps on tile bits 4 .. 7 or more, and with three or more) and their variants whose
    round goes through the warp's words with tile bits 4 and 8 swapped, free of the round's bank
    conflicts, in separate runs taken in turns, where the rounds run: 128 keys and more."""
    programs = [runner.variant("v22_store_word_vectors"), runner.variant("v22_warp_rounds"),
                runner.variant("v22_warp_rounds_swapped"), runner.variant("v22_warp_rounds3"),
                runner.variant("v22_warp_rounds_swapped3")]
    return [runner.record("v22_swaps", f"run {repeat + 1}", program + [
                "--log2", "27", "--segment", str(1 << log2_segment), "--reps", "5"])
            for log2_segment in (7, 10, 12) for repeat in range(runner.spread_runs)
            for program in programs]


def in_turns(runner, experiment, programs, log2_segments):
    """Each program's keys on arrays of 2^log2_segments keys, 2^27 keys in all, in separate runs
    taken in turns (every program once before any runs again), as many runs as the runner's
    spread_runs."""
    return [runner.record(experiment, f"run {repeat + 1}", program + [
                "--log2", "27", "--segment", str(1 << log2_segment), "--reps", "5"])
            for log2_segment in log2_segments for repeat in range(runner.spread_runs)
            for program in programs]


# The stages of many arrays' keys from v22 on, and v8, the fastest stage at 8 .. 32 keys in
# segment_stages of 2026-12-02.
STAGE_TURNS = ("v24_warp_rounds", "v23_vector_stores", "v22_slot_offsets", "v8_batched")
# The stages ahead of all those in the run of segment_stages recorded at commit 778f9a7, at 8
# keys an array (v13, then v21) or at 16 (v14 and v12), one run each: they join the turns at 8
# and 16 alone.
SHORT_STAGE_TURNS = ("v13_any_bits", "v14_span", "v12_key_words", "v21_warp_tiles")


def stage_turns(runner):
    """STAGE_TURNS on arrays of every power of two from 8 to 4096 keys, in turns, with
    SHORT_STAGE_TURNS at 8 and 16: what each of v23's and v24's changes buys beyond the spread of
    the runs, and whether v24 is the fastest stage at every length (chapters 25 and 26)."""
    def commands(stages):
        return [course.program_command(runner.build, stage) for stage in stages]
    return (in_turns(runner, "stage_turns", commands(STAGE_TURNS + SHORT_STAGE_TURNS), (3, 4)) +
            in_turns(runner, "stage_turns", commands(STAGE_TURNS), range(5, 13)))


def v24_blocks(runner):
    """v24 against its variant whose kernel without rounds (arrays of 8 to 128 keys) is held to
    eight blocks an SM, and v13, whose block_sort of keys fits eight, in turns at 8 .. 128 keys:
    whether more warps an SM would speed v24's kernel (lab note short_arrays)."""
    programs = [stage_program(runner.build, "v24_warp_rounds"), runner.variant("v24_blocks8"),
                stage_program(runner.build, "v13_any_bits")]
    return in_turns(runner, "v24_blocks", programs, range(3, 8))


def v24_barrier(runner):
    """v24, whose store_fours waits for the warp alone between its writes and its reads and, in
    the kernel without rounds (arrays of 8 to 128 keys), not before them, against its variants
    with the second barrier the block's again and with both, as chapter 25 left them, and v13,
    v14 and v12, in turns at 8 .. 128 keys (lab note short_arrays)."""
    stages = [stage_program(runner.build, stage)
              for stage in ("v13_any_bits", "v14_span", "v12_key_words")]
    programs = [stage_program(runner.build, "v24_warp_rounds"),
                runner.variant("v24_second_block_barrier"), runner.variant("v24_block_barriers")]
    return in_turns(runner, "v24_barrier", programs + stages, range(3, 8))


def v13_passes(runner):
    return sweep(runner, "v13_passes", {
        "as built (bits 0 .. 4 kept, 9 global steps a pass)":
            stage_program(runner.build, "v13_any_bits"),
        "bits 0 .. 2 kept, 11 global steps a pass": runner.variant("v13_low3"),
        "bits 0 .. 2 kept, 11 steps, stored from the last layout":
            runner.variant("v13_low3_store3"),
        "block_sort on a 4096-key tile, 16 keys a thread": runner.variant("v13_tile4096"),
        "the merges of 2^12 .. 2^14 keys in one launch": runner.variant("v13_fused"),
        "both, the 4096-key tile and the merges of 2^13 and 2^14 keys in one launch":
            runner.variant("v13_tile4096_fused"),
        "passes that span two merges, a merge's last pass running the next one's largest strides":
            runner.variant("v13_span"),
        "passes that span two merges, and block_sort on a 4096-key tile":
            runner.variant("v13_span_tile4096"),
    })


def v14_span(runner):
    return sweep(runner, "v14_span", {
        "v13_any_bits, the stage before": stage_program(runner.build, "v13_any_bits"),
        "v14_span": stage_program(runner.build, "v14_span"),
        "v14_span with v8's 4096-key tile (16 keys a thread)": runner.variant("v14_tile4096"),
        "v14_span with the group's words padded (66 KB a block, not sm_75)":
            runner.variant("v14_padded"),
        "CUB's merge sort": course.program_command(runner.build, "cub_merge"),
        "CUB's radix sort": course.program_command(runner.build, "cub_radix"),
    }, sizes=[16] + SIZES)


def v15_tile(runner):
    return sweep(runner, "v15_tile", {
        "v14_span, the stage before": stage_program(runner.build, "v14_span"),
        "v15_tile4096": stage_program(runner.build, "v15_tile4096"),
        "v15_tile4096 with the group's words padded (66 KB a block, not sm_75)":
            runner.variant("v15_padded"),
        "CUB's merge sort": course.program_command(runner.build, "cub_merge"),
        "CUB's radix sort": course.program_command(runner.build, "cub_radix"),
    }, sizes=[16] + SIZES)


def argsort_sweep(runner, experiment, names):
    """Each program of `names` (a stage, a baseline or a variant) with --values, an argsort of
    the whole input, and without, at 2^20, 2^24 and 2^27 keys."""
    programs = {}
    for program in names:
        command = (runner.variant(program) if program in course.variants()
                   else course.program_command(runner.build, program))
        programs[f"{program} --values"] = command + ["--values"]
        programs[program] = command
    return sweep(runner, experiment, programs, sizes=[20, 24, 27])


def v14_argsorts(runner):
    return argsort_sweep(runner, "v14_argsorts", ("v13_any_bits", "v14_span", "cub_radix"))


def v15_argsorts(runner):
    return argsort_sweep(runner, "v15_argsorts", ("v14_span", "v15_tile4096", "cub_radix"))


def long_argsorts(runner):
    # v13_keys16, v13's group with 16 keys a thread: half the registers, so that 64-bit items
    # fill as many warp slots as 32-bit keys do.
    return argsort_sweep(runner, "long_argsorts",
                         ("v13_any_bits", "v13_keys16", "v12_key_words", "cub_radix"))


# The shortest arrays segments gives DeviceSegmentedRadixSort (above).
RADIX_SEGMENT_MIN = 32


def segments(runner):
    records, torch_runs = [], []
    for log2_segment in list(range(1, 17)) + [18, 20, 22, 24, 27]:
        segment = 1 << log2_segment
        arguments = ["--log2", "27", "--segment", str(segment)]
        for program in ["v8_batched"] + course.SEGMENTED_BASELINES:
            # DeviceSegmentedRadixSort sorts each array with a whole block of its own, so its
            # time doubles each time L halves (chapter 10's table): one timed run up to 64 keys,
            # and none below 32, where a run takes seconds and says nothing new.
            if program == "cub_segmented_radix" and segment < RADIX_SEGMENT_MIN:
                continue
            slow = program == "cub_segmented_radix" and segment <= 64
            command = course.program_command(runner.build, program) + arguments + [
                "--reps", "1" if slow else "5"]
            records.append(runner.record("segments", program, command))
        # torch.sort, which always returns the indices too, up to 2^16 keys per array (the
        # lengths a batched sort is made for), after the programs in one process.
        if segment <= 1 << 16:
            torch_runs.append(arguments + ["--reps", "5"])
    return records + torch_batch(runner, "segments", torch_runs)


# Array lengths of segment_stages' argsorts (and of its keys, with STAGE_KEY_SEGMENTS): up to
# 4096 keys, which v8, v15 and v16 sort in one launch, and the longer arrays (2^14 .. 2^20), where
# v13 .. v16 make fewer passes than v8.
STAGE_SEGMENTS = [3, 7, 10, 12, 14, 16, 18, 20]
# The stages' keys alone and their rivals run at every power of two from 8 to 4096 as well: the
# lengths where the course names one stage for many arrays (chapter 28).
STAGE_KEY_SEGMENTS = sorted(set(STAGE_SEGMENTS) | set(range(3, 13)))
# Every stage that sorts many arrays, keys alone (v25 sorts one array across GPUs).
STAGE_KEY_PROGRAMS = ("v8_batched", "v9_argsort", "v10_top_k", "v11_float_keys", "v12_key_words",
                      "v13_any_bits", "v14_span", "v15_tile4096", "v16_register_top",
                      "v17_prefix_argsort", "v18_mirrored", "v19_coalesced_store",
                      "v20_register_fixup", "v21_warp_tiles", "v22_slot_offsets",
                      "v23_vector_stores", "v24_warp_rounds")
# The stages whose argsorts (--values) run there, and the library rivals of the keys and of the
# argsorts (torch.sort joins both).
STAGE_ARGSORT_PROGRAMS = ("v9_argsort", "v15_tile4096", "v17_prefix_argsort", "v18_mirrored",
                          "v19_coalesced_store", "v20_register_fixup", "v21_warp_tiles",
                          "v22_slot_offsets", "v23_vector_stores", "v24_warp_rounds")
# The argsorts that run at every length of the keys as well: v19's to v24's, so that each
# argsort can be set against its keys at each (chapters 21 to 26).
STAGE_ARGSORT_EVERY_LENGTH = ("v19_coalesced_store", "v20_register_fixup", "v21_warp_tiles",
                              "v22_slot_offsets", "v23_vector_stores", "v24_warp_rounds")
# The stages whose top-k keeps up to 16 keys in one launch (v16 on), with --top 16 on arrays of
# STAGE_TOP_SEGMENTS keys: whether each beats its own full sort there (chapter 18's question, for
# the stage the course names for many arrays too).
STAGE_TOP_PROGRAMS = ("v16_register_top", "v17_prefix_argsort", "v18_mirrored",
                      "v19_coalesced_store", "v20_register_fixup", "v21_warp_tiles",
                      "v22_slot_offsets", "v23_vector_stores", "v24_warp_rounds")
STAGE_TOP_SEGMENTS = range(7, 13)
STAGE_KEY_RIVALS = ("cub_segmented", "cub_packed_radix")
STAGE_ARGSORT_RIVALS = ("cub_packed_radix",)
# The longest arrays of segment_stages_short: 512 keys, the longest of v21's tiles of one warp.
# Every run of one length is in one of the two halves, so that a length's stages and rivals are
# compared within one run.
STAGE_SHORT_MAX = 9


def segment_stages(runner):
    """segment_stages's runs at every length, short and long, in one run."""
    return stage_runs(runner, STAGE_KEY_SEGMENTS)


def segment_stages_short(runner):
    """segment_stages's runs on arrays of 8 .. 2^STAGE_SHORT_MAX keys."""
    return stage_runs(runner, [q for q in STAGE_KEY_SEGMENTS if q <= STAGE_SHORT_MAX])


def segment_stages_long(runner):
    """segment_stages's runs on arrays of 2^(STAGE_SHORT_MAX + 1) .. 2^20 keys."""
    return stage_runs(runner, [q for q in STAGE_KEY_SEGMENTS if q > STAGE_SHORT_MAX])


def stage_runs(runner, log2_segments):
    """Every stage from v8 on, keys alone, and the argsorts of v9, v15, v17 .. v24, against
    the rivals of the segments and argsorts experiments, at the lengths 2^log2_segments of
    STAGE_KEY_SEGMENTS: keys at each, argsorts where it is one of STAGE_SEGMENTS
    (STAGE_ARGSORT_EVERY_LENGTH's at each), and the top 16 of STAGE_TOP_PROGRAMS where it is one
    of STAGE_TOP_SEGMENTS; every record of experiment segment_stages."""
    keys = {name: [] for name in STAGE_KEY_PROGRAMS + STAGE_KEY_RIVALS}
    argsorts = {f"{name} --values": ["--values"]
                for name in STAGE_ARGSORT_PROGRAMS + STAGE_ARGSORT_RIVALS}
    records, torch_runs = [], []
    for log2_segment in log2_segments:
        arguments = ["--log2", "27", "--segment", str(1 << log2_segment), "--reps", "5"]
        programs = dict(keys, **argsorts) if log2_segment in STAGE_SEGMENTS else dict(
            keys, **{f"{name} --values": ["--values"] for name in STAGE_ARGSORT_EVERY_LENGTH})
        if log2_segment in STAGE_TOP_SEGMENTS:
            programs.update({f"{name} --top 16": ["--top", "16"] for name in STAGE_TOP_PROGRAMS})
        for variant, options in programs.items():
            command = course.program_command(runner.build, variant.split()[0])
            records.append(runner.record("segment_stages", variant,
                                         command + arguments + options))
        if log2_segment <= 16:
            torch_runs.append(arguments)
    return records + torch_batch(runner, "segment_stages", torch_runs)


# v22, the stage the course named for many arrays before v24 (whose runs in turns are
# stage_turns), then the fastest stage at 8, 16 and 32 keys per array in segment_stages of
# 2026-12-02 (v19, v14 and v8, 1 to 3% ahead of v22), and v13, within
# 1% of the fastest at 8 and at 16 there. v12, v20 and v21 also ran ahead of v22 at some of those
# lengths there, by less, and are not run.
SHORT_SPREAD_STAGES = ("v22_slot_offsets", "v8_batched", "v13_any_bits", "v14_span",
                       "v19_coalesced_store")


def segment_spread(runner):
    """SHORT_SPREAD_STAGES at 8, 16 and 32 keys per array (2^27 keys in all), in separate runs
    taken in turns: whether the first one's gap to the fastest of the others there is more than
    the runs of one program differ by (lab note many_arrays)."""
    return [runner.record("segment_spread", f"run {repeat + 1}", course.program_command(
                runner.build, stage) + ["--log2", "27", "--segment", str(1 << log2_segment),
                                        "--reps", "5"])
            for log2_segment in (3, 4, 5) for repeat in range(runner.spread_runs)
            for stage in SHORT_SPREAD_STAGES]


def row_sweep(runner, experiment, programs, largest):
    """Every program of {variant: options} (the variant's first word names the program) on
    arrays of 2 .. 2^largest keys, 2^27 keys in all, then torch.sort on them all in one
    process."""
    records, torch_runs = [], []
    for log2_segment in range(1, largest + 1):
        arguments = ["--log2", "27", "--segment", str(1 << log2_segment), "--reps", "5"]
        for variant, options in programs.items():
            command = course.program_command(runner.build, variant.split()[0])
            records.append(runner.record(experiment, variant, command + arguments + options))
        torch_runs.append(arguments)
    return records + torch_batch(runner, experiment, torch_runs)


def argsorts(runner):
    """v9_argsort's argsort and keys, v8_batched's keys, the argsorts of the libraries and
    torch.sort, for arrays of 2 .. 2^16 keys."""
    programs = {"v9_argsort": ["--values"], "v9_argsort keys": [], "v8_batched keys": []}
    programs.update({program: ["--values"] for program in course.ARGSORT_BASELINES})
    return row_sweep(runner, "argsorts", programs, 16)


def word_argsorts(runner):
    """The lab's argsorts, tools/word_argsort (two sorts of 32-bit words), tools/rank_argsort (a
    sort of the keys, then a search) and tools/prefix_argsort (one sort of words, then a
    fix-up), against v9_argsort's (64-bit items), v8_batched's keys and torch.sort, for arrays
    of 2 .. 2^12 keys (one tile, the most the lab's argsorts sort)."""
    return row_sweep(runner, "word_argsorts", {"v8_batched keys": [], "v9_argsort": ["--values"],
                                               "word_argsort": ["--values"],
                                               "rank_argsort": ["--values"],
                                               "prefix_argsort": ["--values"]}, 12)


def tops(runner):
    """v10_top_k's top-k and sort against torch.topk and torch.sort on rows."""
    command = course.program_command(runner.build, "v10_top_k")
    records, torch_runs = [], []
    pairs = [(1024, top) for top in (1, 4, 16, 64, 256)] + [(128, 16), (4096, 16), (65536, 16)]
    for segment, top in pairs:
        arguments = ["--log2", "27", "--segment", str(segment), "--reps", "5"]
        with_top = arguments + ["--top", str(top)]
        records.append(runner.record("tops", "top", command + with_top + ["--values"]))
        records.append(runner.record("tops", "top keys", command + with_top))
        torch_runs.append(with_top)
    # The first launches of a top-k alone: every run of K keys sorted, as arrays of K keys.
    for top in sorted({top for _, top in pairs if top > 1}):
        runs = ["--log2", "27", "--segment", str(top), "--reps", "5", "--values"]
        records.append(runner.record("tops", "runs", command + runs))
    for segment in (128, 1024, 4096, 65536):
        arguments = ["--log2", "27", "--segment", str(segment), "--reps", "5"]
        records.append(runner.record("tops", "sort", command + arguments + ["--values"]))
        records.append(runner.record("tops", "sort keys", command + arguments))
        torch_runs.append(arguments)
    return records + torch_batch(runner, "tops", torch_runs)


def floats(runner):
    """v11_float_keys on floats and on ints, v10_top_k on ints, torch on float32 rows."""
    float_stage = course.program_command(runner.build, "v11_float_keys")
    int_stage = course.program_command(runner.build, "v10_top_k")
    records = []
    for segment, top in ((128, 0), (1024, 0), (4096, 0), (1024, 16)):
        arguments = ["--log2", "27", "--segment", str(segment), "--reps", "5"]
        arguments += ["--top", str(top)] if top else []
        for values, what in (([], "keys"), (["--values"], "argsort")):
            records.append(runner.record("floats", f"float {what}",
                                         float_stage + arguments + values + ["--type", "float"]))
            records.append(runner.record("floats", f"int {what}", float_stage + arguments + values))
            records.append(runner.record("floats", f"v10 int {what}",
                                         int_stage + arguments + values))
        records += runner.torch_records("floats", arguments + ["--type", "float"])
    return records


def gpu_link():
    """How GPUs 0 and 1 are joined, as `nvidia-smi topo -m` names it (NV18: 18 NVLinks; PIX,
    PHB, SYS: PCIe paths), or 'unknown'."""
    try:
        result = subprocess.run(["nvidia-smi", "topo", "-m"], capture_output=True, text=True,
                                timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    for line in result.stdout.splitlines():
        fields = line.split()
        # The row of GPU0: its name, then one column per GPU ("X" for itself), GPU1's second.
        if len(fields) > 2 and fields[0] == "GPU0":
            return fields[2]
    return "unknown"


def with_link(records):
    """The records with the link between GPUs 0 and 1 and NCCL_NVLS_ENABLE as this run had it
    (the course measures with NVLink multicast off: NCCL_NVLS_ENABLE=0)."""
    link, multicast = gpu_link(), os.environ.get("NCCL_NVLS_ENABLE", "unset")
    return [{**record, "nccl_nvls_enable": multicast, "link": link} for record in records]


def gpus(runner):
    """The stage across GPUs (course.gpus_stage) on one and two GPUs, with v7_register_tile, CUB's
    radix sort (what a
    user would run on one GPU: 2^30 keys fit it) and the copy alone; where the build made it,
    the same sort as two processes under mpirun, one a GPU (common/ranks.cpp), beside the
    one-process form at each size."""
    stage = course.program_command(runner.build, course.gpus_stage())
    cub = course.program_command(runner.build, "cub_radix")
    runs = [("copy", course.program_command(runner.build, "copy") + ["--log2", "30"]),
            ("v7_register_tile", stage_program(runner.build, "v7_register_tile") +
             ["--log2", "30"]),
            ("cub_radix", cub + ["--log2", "29"]), ("cub_radix", cub + ["--log2", "30"]),
            ("1 GPU", stage + ["--gpus", "1", "--log2", "30"])]
    ranks = course.runs_as_ranks(runner.build, course.gpus_stage()) and shutil.which("mpirun")
    if ranks:
        # mpirun starts as root only when told it may (the GPU machines run as root).
        os.environ.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for q in (29, 30, 31):
        runs.append(("2 GPUs", stage + ["--gpus", "2", "--log2", str(q)]))
        if ranks:
            # The variant that tells the records and the tables a run under mpirun
            # (course.ranks_variant).
            runs.append(("2 ranks", ["mpirun", "-np", "2"] + stage + ["--log2", str(q)]))
    return with_link([runner.record("gpus", variant, command + ["--reps", "5"])
                      for variant, command in runs])


def exchange(runner):
    """tools/nccl_exchange --gpus 2 --reps 5: one record per size."""
    command = [os.path.join(runner.build, "tools", "nccl_exchange"), "--gpus", "2", "--reps",
               "5"]
    result = subprocess.run(command, capture_output=True, text=True)
    rows = list(csv.DictReader(result.stdout.strip().splitlines()))
    if result.returncode != 0 or not rows:
        sys.exit(f"{' '.join(command)} failed with exit code {result.returncode}:\n"
                 f"{result.stderr}")
    records = []
    for row in rows:
        print(f"exchange|{row['bytes_per_gpu']}|{row['exchange_ms']}|{row['gb_s_one_way']}",
              file=sys.stderr, flush=True)
        records.append({"experiment": "exchange", **row,
                        "device": course.nvidia_smi("name"), "nvidia_driver": runner.driver,
                        "date": runner.date})
    return with_link(records)


def on_one_gpu(build, stage):
    """STAGE's command on one GPU, as the tour runs it: a stage that sorts across GPUs takes
    every GPU there is unless told --gpus 1 (GPU 0; CUDA_VISIBLE_DEVICES picks which)."""
    return stage_program(build, stage) + (["--gpus", "1"] if course.sorts_across_gpus(stage)
                                          else [])


def spread(runner):
    records = []
    for q in (15, 17, 20):
        for repeat in range(runner.spread_runs):
            for stage in runner.stages:
                records.append(runner.record("spread", f"run {repeat + 1}", on_one_gpu(
                    runner.build, stage) + ["--log2", str(q), "--reps", "20"]))
    return records


def distributions(runner):
    names = course.listed_names(runner.build, course.stage_names()[0], "--dist")
    records = []
    for q in runner.distribution_sizes:
        for stage in runner.stages:
            for name in names:
                records.append(runner.record("distributions", name, on_one_gpu(
                    runner.build, stage) + ["--log2", str(q), "--dist", name, "--reps",
                                            "3" if q == 24 else "1"]))
    return records


def method_rows(runner, experiment, program, sizes, methods, shown):
    """A lab program that prints one CSV row per method it times (barriers, cluster_steps), run
    at 2^q keys for q in `sizes`: `methods` rows a run, each a record of `experiment`; the
    columns `shown` go to the progress line."""
    records = []
    for q in sizes:
        command = [os.path.join(runner.build, "tools", program), "--log2", str(q), "--reps",
                   str(course.repetitions(q)), "--csv"]
        result = subprocess.run(command, capture_output=True, text=True)
        rows = list(csv.DictReader(result.stdout.strip().splitlines()))
        if result.returncode != 0 or len(rows) != methods:
            sys.exit(f"{' '.join(command)} failed with exit code {result.returncode}:\n"
                     f"{result.stderr}")
        for row in rows:
            print("|".join([experiment] + [row[column] for column in shown]), file=sys.stderr,
                  flush=True)
            records.append({"experiment": experiment, **row, "nvidia_driver": runner.driver,
                            "date": runner.date})
    return records


def barriers(runner):
    """v0's launches, a CUDA Graph and grid.sync(): three rows a run."""
    return method_rows(runner, "barriers", "barriers", range(10, 25, 2), 3,
                       ["method", "n", "sort_ms", "validation"])


def clusters(runner):
    """The copy, the pass, 4 steps within a block and 4 across clusters: ten rows a run."""
    return method_rows(runner, "clusters", "cluster_steps", (24, 27, 29), 10,
                       ["method", "cluster_blocks", "steps", "n", "kernel_ms", "validation"])


def copy(runner):
    return sweep(runner, "copy", {"copy": course.program_command(runner.build, "copy")},
                 sizes=range(10, 30))


def small_arrays(runner):
    programs = ["v7_register_tile"] + course.DEVICE_BASELINES
    return [runner.record("small_arrays", f"run {repeat + 1}", course.program_command(
                runner.build, program) + ["--log2", str(q), "--reps", "20"])
            for q in range(10, 15) for repeat in range(runner.spread_runs)
            for program in programs]


EXPERIMENTS = {"v4_tile": v4_tile, "v6_steps": v6_steps, "v7_tile": v7_tile,
               "v7_padding": v7_padding, "v8_mapping": v8_mapping,
               "v8_pipes": v8_pipes, "v9_mapping": v9_mapping, "v9_compare": v9_compare,
               "v8_directions": v8_directions, "v9_directions": v9_directions,
               "v8_mirrored": v8_mirrored, "v9_mirrored": v9_mirrored,
               "v13_groups": v13_groups, "v19_groups": v19_groups,
               "v20_rounds": v20_rounds, "v20_round_argsorts": v20_round_argsorts,
               "v20_warp_tiles": v20_warp_tiles, "v21_keys": v21_keys,
               "v21_slots": v21_slots, "v22_stores": v22_stores, "v22_lanes": v22_lanes,
               "v22_swaps": v22_swaps, "stage_turns": stage_turns, "v24_blocks": v24_blocks,
               "v24_barrier": v24_barrier,
               "v13_passes": v13_passes, "v14_span": v14_span, "v14_argsorts": v14_argsorts,
               "v15_tile": v15_tile, "v15_argsorts": v15_argsorts, "v15_tops": v15_tops,
               "v16_tops": v16_tops, "v17_argsorts": v17_argsorts,
               "long_argsorts": long_argsorts, "segments": segments,
               "segment_stages": segment_stages, "segment_stages_short": segment_stages_short,
               "segment_stages_long": segment_stages_long, "segment_spread": segment_spread,
               "argsorts": argsorts, "word_argsorts": word_argsorts, "tops": tops,
               "floats": floats, "gpus": gpus, "exchange": exchange,
               "spread": spread, "distributions": distributions,
               "barriers": barriers, "clusters": clusters, "copy": copy,
               "small_arrays": small_arrays}


def replace_rows(recorded, records):
    """The recorded rows with each row of the same variant, program and size as one of
    `records` replaced by it, on the recorded file's columns; every record must replace one."""
    fresh = {(r["variant"], r["program"], str(r["n"])): r for r in records}
    rows = []
    for row in recorded:
        new = fresh.pop((row["variant"], row["program"], row["n"]), None)
        rows.append(row if new is None else {field: new.get(field, "") for field in row})
    if fresh:
        sys.exit(f"--replace-in: no recorded row for {sorted(fresh)[0]}")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(course.ROOT, "build"))
    parser.add_argument("--out", required=True, help="folder for the CSV files")
    parser.add_argument("--spread-runs", type=int, default=5,
                        help="spread: separate runs of each program (default 5)")
    parser.add_argument("--distribution-sizes", default="24",
                        help="distributions: log2 sizes, comma-separated (default 24)")
    parser.add_argument("--stages", help="spread, distributions: only these stages, comma-"
                        "separated (default every stage)")
    parser.add_argument("--replace-in", help="with --stages: the recorded CSV whose rows of "
                        "those stages the new ones replace")
    parser.add_argument("experiments", nargs="+", choices=sorted(EXPERIMENTS))
    arguments = parser.parse_args()
    unknown = set((arguments.stages or "").split(",")) - set(course.stage_names()) - {""}
    if unknown:
        parser.error(f"--stages: no stage named {', '.join(sorted(unknown))}")
    if course.arguments_only():
        return
    runner = Runner(arguments)
    for name in arguments.experiments:
        records = EXPERIMENTS[name](runner)
        if not records:
            continue
        path = os.path.join(arguments.out, f"{name}.csv")
        if arguments.replace_in:
            with open(arguments.replace_in, newline="") as file:
                recorded = list(csv.DictReader(file))
            course.write_csv(path, replace_rows(recorded, records), list(recorded[0]))
        else:
            course.write_csv(path, records)
        print(f"wrote {len(records)} records to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
