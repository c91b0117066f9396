#!/usr/bin/env python3
"""Facts about launches that only Nsight Compute (ncu) can count, for chapters 10 to 28.

    python3 tools/ncu_facts.py --build build --out results libraries occupancy

  libraries  how many kernels one call of each library sort launches (cub_radix, cub_merge,
             thrust) at 2^10, 2^20 and 2^27 keys, and which: ncu lists every kernel of a
             program run with one timed sort and of one with two, and the difference is one
             sort's (the warm-up and whatever the program launches besides cancel out).
             Writes OUT/library_kernels.csv.
  occupancy  for each kernel of v7_register_tile at 2^20 and 2^27, of v8_batched's three
             mappings (as built, v7's tile, v9's 8 keys a thread) and of v9_argsort's two (as
             built, v8's 16 items a thread; --values) sorting arrays of 256 keys: its grid,
             block, registers per thread, waves, theoretical occupancy (what the registers,
             shared memory and block size allow), achieved occupancy (the warps that were
             resident on average) and how busy the ALU pipe was (integer min, max, compare and
             logic), from the second sort's first launch of that kernel. Writes
             OUT/occupancy.csv.
  pipes      what sets the time of v8_batched's block_sort (lab note pipes): as built and the
             variants of experiments.py v8_pipes on arrays of 128 and 1024 keys; as built,
             8 keys per thread (v8_keys8), six blocks an SM (v8_blocks6) and stores from the
             registers (v8_thread_store) on arrays of 16 keys; 2^27 keys in all: duration,
             instructions executed, how busy the ALU pipe, the FMA pipe's heavy half (integer
             multiply-adds), the LSU pipe (shared memory, shuffles, barriers) and DRAM were,
             the bytes DRAM read and wrote, the sectors the L1 wrote to L2, the share of cycles
             that issued an instruction, the achieved and theoretical occupancy, and the cycles
             per issued instruction the warps waited at a barrier, on the short scoreboard
             (shared memory, shuffles) and on the long one (global memory). Writes
             OUT/pipes.csv.
  directions what flipping keys saves (lab note flips): v8_batched and v9_argsort's argsort
             (--values) as built, whose threads flip their keys so that every compare is
             ascending, against their variants whose compares take the direction instead
             (v8_directions, v9_directions) and those on the network's mirrored form, which
             needs no flips (v8_mirrored, v9_mirrored), on arrays of 128 and 1024 keys, 2^27
             in all: block_sort's metrics as pipes records them. Writes OUT/directions.csv.
  items      what sorting 64-bit items costs (lab note argsorts): v8_batched's keys with v9's
             mapping (8 a thread, the variant v8_keys8), v9_argsort's keys and its keys with
             indices (--values), arrays of 16, 128 and 1024 keys, 2^27 in all:
             each kernel's duration, instructions executed, registers per thread, achieved
             occupancy, DRAM bytes and shared-memory wavefronts. Writes OUT/items.csv.
  words      what the lab's argsorts cost against v8_batched's keys (lab note word_argsorts): the
             argsorts (--values) of tools/word_argsort (two sorts of 32-bit words),
             tools/rank_argsort (a sort of the keys, then a search), tools/prefix_argsort (one
             sort of words, then a fix-up) and v9_argsort, arrays of
             8, 128 and 1024 keys, 2^27 in all, with the metrics of items, the shared-memory
             bank conflicts, the sectors the L1 read from the L2 and the share of cycles that
             issued an instruction. Writes OUT/words.csv.
  prefix     what v17_prefix_argsort's argsort (one sort of 32-bit words, then a fix-up) costs
             (chapter 19): its keys, its argsort and v16_register_top's argsort (64-bit
             items) on arrays of 64, 128 and 1024 uniform keys, and both argsorts on
             few-unique keys at 128, 2^27 in all, with the metrics of words. Writes
             OUT/prefix_kernels.csv.
  mirror     what the network's mirrored form saves in block_sort (chapter 20):
             v17_prefix_argsort and v18_mirrored, keys on arrays of 16, 128 and 1024 keys and
             argsorts (--values) at 1024, 2^27 in all, each kernel's metrics as pipes records
             them. Writes OUT/mirror_kernels.csv.
  store      what storing a tile's keys through shared memory saves (chapter 21): v18_mirrored
             and v19_coalesced_store, keys on arrays of 8, 128 and 1024 keys and argsorts
             (--values) at 8 and 1024, 2^27 in all, each kernel's metrics as pipes records
             them. Writes OUT/store_kernels.csv.
  fixup      what settling an argsort's runs of two in registers saves (chapter 22):
             v19_coalesced_store's and v20_register_fixup's argsorts (--values) on arrays of 64,
             256 and 4096 keys, 2^27 in all, with the metrics of words, the threads that
             execute an average instruction and the waits of the WarpStateStats section.
             Writes OUT/fixup_kernels.csv.
  rounds     what a round through shared memory saves in v20's smaller merges (lab note
             short_arrays): v20_register_fixup's block_sort as built against its variants
             v20_round512 and v20_round256, keys on arrays of 256, 1024 and 4096 keys, 2^27 in
             all, with the metrics of pipes and the shared-memory wavefronts and bank conflicts.
             Writes OUT/round_kernels.csv.
  warp_tiles what 512-key tiles of one warp change in v20's argsort (lab note short_arrays):
             v20_register_fixup's argsort (--values) as built against its variant
             v20_warp_tiles on arrays of 64 and 256 keys, 2^27 in all, with fixup's metrics.
             Writes OUT/warp_tile_kernels.csv.
  keys32     what 32 keys a thread change in v21's sort of keys (lab note short_arrays):
             v21_warp_tiles's block_sort as built against its variants v21_keys32 and
             v21_keys32_blocks7, keys on arrays of 128, 1024 and 4096 keys, 2^27 in all, with
             rounds' metrics. Writes OUT/keys32_kernels.csv.
  slots      what a base and constants for the tile's words change in v21's sort of keys
             (chapter 24, lab note short_arrays): v21_warp_tiles's block_sort as built against its variants
             v21_slot_sums and v21_slot_sums_blocks6, keys on arrays of 1024 and 4096 keys, 2^27
             in all, with rounds' metrics. Writes OUT/slot_kernels.csv.
  vector_stores  what storing keys alone four to a 16-byte store changes in v22's block_sort
             (lab note short_arrays): v22_slot_offsets as built against its variants
             v22_store_vectors (the store chosen at run time) and v22_store_word_vectors (chosen
             when the kernel is compiled), keys on arrays of 32, 1024 and 4096 keys, 2^27 in
             all, with rounds' metrics. Writes OUT/vector_store_kernels.csv.
  warp_rounds  what a warp's round in place of lane steps changes in v22's block_sort (lab note
             short_arrays): v22_store_word_vectors against its variants v22_warp_rounds,
             v22_warp_rounds_blocks6 and v22_warp_rounds_swapped, keys on arrays of 128, 1024
             and 4096 keys, 2^27 in all, with rounds' metrics and the instructions of the ALU
             and LSU pipes. Writes OUT/warp_round_kernels.csv.
  round_stages  what v24's rounds change in the stages as built (chapter 26):
             v23_vector_stores's and v24_warp_rounds's keys and argsorts (--values) on arrays
             of 1024 and 4096 keys, 2^27 in all, with warp_rounds' metrics. Writes
             OUT/round_stage_kernels.csv.
  tiles      what tiles of one warp change in the argsort (chapter 23): v20_register_fixup's
             and v21_warp_tiles' argsorts (--values) on arrays of 64 and 256 keys, 2^27 in all,
             with fixup's metrics. Writes OUT/tile_kernels.csv.
  long_items what an argsort of one long array costs against its keys alone (chapter 15):
             every launch of one sort of 2^27 keys by v13_any_bits and by its variant
             v13_keys16 (16 keys a thread), with and without --values: its kernel, duration,
             DRAM bytes and how busy DRAM was, registers per thread, achieved occupancy, the
             share of cycles that issued an instruction and the waits at a barrier and on the
             two scoreboards (as pipes records them). Writes OUT/long_items.csv.
  tops       where v10_top_k's time goes (chapter 12): its --top 1, 16 and 64 of arrays of 1024
             keys with --values, 2^27 keys in all: for each kernel, the metrics of items and
             how busy DRAM and the L1/shared-memory pipe were, and the shared-memory bank
             conflicts. Writes OUT/top_kernels.csv.
  short_stages  why v15_tile4096 sorts short arrays more slowly than v8_batched (lab note many_arrays):
             v8_batched, v14_span and v15_tile4096 on arrays of 8 and 1024 keys, 2^27 in all,
             each kernel's metrics as pipes records them. Writes OUT/short_stages.csv.
  short_blocks  whether v24's first form's lag at 16 keys an array was in the blocks an SM
             holds (lab note short_arrays): v24_warp_rounds's block_sort without rounds as built and held to
             eight blocks an SM (v24_blocks8), against v13_any_bits's at 16 keys and
             v22_slot_offsets's at 64, 2^27 in all, with pipes' metrics and the registers.
             Writes OUT/short_block_kernels.csv.
  packed     how many kernels one cub_packed_radix sort launches, and how many of them are
             radix passes (DeviceRadixSortOnesweepKernel), for arrays of 2^10, 2^11 and 2^20
             keys and one array, 2^27 keys in all (chapter 10): its words have 32 bits more
             than log2 of the number of arrays to sort. Found as for libraries. Writes
             OUT/packed_kernels.csv.

ncu runs as in profile_kernels.py (--clock-control none, --cache-control none); metric names
are ncu's own, read from its raw CSV page.
"""
import argparse
import os
import sys

import course
import experiments
import profile_kernels

SIZES = [10, 20, 27]
OCCUPANCY = {
    "launch__grid_size": "grid_blocks",
    "launch__block_size": "block_threads",
    "launch__registers_per_thread": "registers",
    "launch__waves_per_multiprocessor": "waves",
    "sm__maximum_warps_per_active_cycle_pct": "theoretical_occupancy_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "achieved_occupancy_pct",
    "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active": "alu_pipe_pct",
}
# What sets block_sort's time (chapter 10): per kernel launch.
PIPES = {
    "gpu__time_duration.sum": "duration_ns",
    "smsp__inst_executed.sum": "instructions",
    "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active": "alu_pipe_pct",
    "sm__inst_executed_pipe_fmaheavy.avg.pct_of_peak_sustained_active": "fma_heavy_pipe_pct",
    "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active": "lsu_pipe_pct",
    "smsp__issue_active.avg.pct_of_peak_sustained_active": "issue_active_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "achieved_occupancy_pct",
    "sm__maximum_warps_per_active_cycle_pct": "theoretical_occupancy_pct",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram_busy_pct",
    "dram__bytes_read.sum": "dram_read_bytes",
    "dram__bytes_write.sum": "dram_write_bytes",
    "lts__t_sectors_srcunit_tex_op_write.sum": "l2_write_sectors",
}
# Why a variant of v8 issues less often (chapter 10): the cycles per issued instruction its warps
# spent waiting at a barrier, on shared memory or a shuffle (the short scoreboard) and on global
# memory (the long scoreboard), from the WarpStateStats section, under either of the two names
# ncu versions give them.
STALLS = {f"smsp__{form.format(reason)}.ratio": f"{reason}_stall"
          for reason in ("barrier", "short_scoreboard", "long_scoreboard")
          for form in ("average_warp_latency_issue_stalled_{}",
                       "average_warps_issue_stalled_{}_per_issue_active")}
# What sorting 64-bit items costs against keys (chapter 11): per kernel launch.
ITEMS = {
    "gpu__time_duration.sum": "duration_ns",
    "smsp__inst_executed.sum": "instructions",
    "launch__registers_per_thread": "registers",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "achieved_occupancy_pct",
    "dram__bytes_read.sum": "dram_read_bytes",
    "dram__bytes_write.sum": "dram_write_bytes",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum": "shared_wavefronts",
}

# What the lab's argsorts cost beyond a sort of keys (chapter 11): items' metrics, the conflicts
# of the searches and exchanges in shared memory, the global reads that reach the L2 (a key read
# a second time), and how often the warps issue.
WORDS = {
    **ITEMS,
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum": "shared_bank_conflicts",
    "lts__t_sectors_srcunit_tex_op_read.sum": "l2_read_sectors",
    "smsp__issue_active.avg.pct_of_peak_sustained_active": "issue_active_pct",
}

# What an argsort's fix-up costs (chapter 22): words' metrics, how many threads of a warp execute
# an average instruction (fewer where a warp's threads part ways), and the waits.
FIXUP = {
    **WORDS,
    "smsp__thread_inst_executed_per_inst_executed.ratio": "threads_per_instruction",
    **STALLS,
}

# Where an argsort of one long array spends its time (chapter 15): per launch.
LONG_ITEMS = {
    "gpu__time_duration.sum": "duration_ns",
    "dram__bytes_read.sum": "dram_read_bytes",
    "dram__bytes_write.sum": "dram_write_bytes",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram_busy_pct",
    "launch__registers_per_thread": "registers",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "achieved_occupancy_pct",
    "smsp__issue_active.avg.pct_of_peak_sustained_active": "issue_active_pct",
    **STALLS,
}

# Where a top-k's time goes (chapter 12): items' metrics, and which memory is the busy one.
TOPS = {
    **ITEMS,
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram_busy_pct",
    "l1tex__throughput.avg.pct_of_peak_sustained_elapsed": "l1_busy_pct",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum": "shared_bank_conflicts",
}


def kernels_of_run(ncu, command):
    """The kernel names ncu sees in one run of `command`, in launch order."""
    rows = profile_kernels.ncu_rows(ncu, command, 0, 1 << 30,
                                    ["--metrics", "gpu__time_duration.sum"])
    return [row["Kernel Name"] for row in rows]


def short_name(name):
    """A kernel's name without its template arguments and parameters, and without the name ncu
    gives an anonymous namespace (the baselines' own kernels are in one)."""
    for anonymous in ("<unnamed>::", "(anonymous namespace)::"):
        name = name.replace(anonymous, "")
    return name.split("<")[0].split("(")[0].strip()


def kernels_of_one_sort(ncu, command, what):
    """The record of one run of `command` (a program and its options, without --reps) and the
    kernels one of its sorts launches: those of a run with two timed sorts past those of a run
    with one (the warm-up and whatever the program launches besides are in both)."""
    code, record, errors = course.run_record(command + ["--reps", "1"])
    if code != 0:
        sys.exit(f"{' '.join(command)} failed: {errors}")
    one = kernels_of_run(ncu, command + ["--reps", "1"])
    two = kernels_of_run(ncu, command + ["--reps", "2"])
    if len(two) <= len(one) or two[:len(one)] != one:
        sys.exit(f"{what}: the runs of one and two sorts do not differ by one sort's kernels "
                 f"({len(one)} and {len(two)} kernels)")
    extra = two[len(one):]
    print(f"{what}: {len(extra)} kernels per sort", file=sys.stderr, flush=True)
    return record, extra


def libraries(ncu, build, runner):
    records = []
    for program in course.DEVICE_BASELINES:
        for q in SIZES:
            command = course.program_command(build, program) + ["--log2", str(q), "--no-validate"]
            record, extra = kernels_of_one_sort(ncu, command, f"{program} at 2^{q}")
            names = sorted({short_name(name) for name in extra})
            records.append({"program": program, "n": 1 << q, "kernels_per_sort": len(extra),
                            "distinct_kernels": len(names), "kernel_names": " ".join(names),
                            "gpu": record["device"], "cuda_runtime": record["cuda_runtime"],
                            "nvidia_driver": runner.driver, "date": runner.date})
    return records


def packed(ncu, build, runner):
    records = []
    for log2_segment in (10, 11, 20, 27):
        command = course.program_command(build, "cub_packed_radix") + [
            "--log2", "27", "--segment", str(1 << log2_segment), "--no-validate"]
        record, extra = kernels_of_one_sort(ncu, command,
                                            f"cub_packed_radix, arrays of 2^{log2_segment}")
        passes = [name for name in extra if short_name(name).endswith("OnesweepKernel")]
        records.append({"program": "cub_packed_radix", "n": 1 << 27,
                        "segment": 1 << log2_segment, "word_bits": 32 + 27 - log2_segment,
                        "kernels_per_sort": len(extra), "radix_passes": len(passes),
                        "kernel_names": " ".join(sorted({short_name(name) for name in extra})),
                        "gpu": record["device"], "cuda_runtime": record["cuda_runtime"],
                        "nvidia_driver": runner.driver, "date": runner.date})
    return records


def occupancy(ncu, build, runner):
    v7 = course.program_command(build, "v7_register_tile")
    arrays = ["--log2", "27", "--segment", "256"]
    cases = [("v7_register_tile", "as built", v7, ["--log2", "20"]),
             ("v7_register_tile", "as built", v7, ["--log2", "27"]),
             ("v8_batched", "16 keys per thread, 4096-key tile",
              course.program_command(build, "v8_batched"), arrays),
             ("v8_batched", "16 keys per thread, 8192-key tile", runner.variant("v8_tile8192"),
              arrays),
             ("v8_batched", "8 keys per thread, 2048-key tile", runner.variant("v8_keys8"),
              arrays),
             ("v9_argsort", "8 items per thread, 2048-item tile",
              course.program_command(build, "v9_argsort"), arrays + ["--values"]),
             ("v9_argsort", "16 items per thread, 4096-item tile", runner.variant("v9_keys16"),
              arrays + ["--values"])]
    options = ["--section", "LaunchStats", "--section", "Occupancy", "--metrics",
               ",".join(OCCUPANCY)]
    return kernel_records(ncu, runner, cases, options, OCCUPANCY)


def pipes(ncu, build, runner):
    cases = []
    for segment in ("16", "128", "1024"):
        arguments = ["--log2", "27", "--segment", segment]
        cases.append(("v8_batched", "as built", course.program_command(build, "v8_batched"),
                      arguments))
        # At 16 keys an array the keys are read and written once and compared little: there
        # the question is why 8 keys a thread (v9's mapping) are faster, and whether more
        # resident warps are why.
        if segment == "16":
            cases.append(("v8_batched", "8 keys per thread", runner.variant("v8_keys8"),
                          arguments))
        else:
            cases += [("v8_batched", "flips as multiply-adds", runner.variant("v8_flip_mad"),
                       arguments),
                      ("v8_batched", "lane steps as one min", runner.variant("v8_lanes_mad"),
                       arguments),
                      ("v8_batched", "32 keys per thread", runner.variant("v8_keys32"), arguments),
                      ("v8_batched", "lane steps through shared memory",
                       runner.variant("v8_round256"), arguments)]
        cases += [("v8_batched", "six blocks an SM", runner.variant("v8_blocks6"), arguments),
                  ("v8_batched", "stores from the registers", runner.variant("v8_thread_store"),
                   arguments)]
    return pipe_records(ncu, runner, cases)


def pipe_records(ncu, runner, cases):
    """kernel_records of the cases with the metrics of pipes: the pipes' and DRAM's figures and
    the waits of the WarpStateStats section."""
    return kernel_records(ncu, runner, cases,
                          ["--section", "WarpStateStats", "--metrics", ",".join(PIPES)],
                          {**PIPES, **STALLS})


def directions(ncu, build, runner):
    cases = []
    for segment in ("128", "1024"):
        arguments = ["--log2", "27", "--segment", segment]
        for stage, options in (("v8_batched", []), ("v9_argsort", ["--values"])):
            cases.append((stage, "flips (as built)", course.program_command(build, stage),
                          arguments + options))
            cases += [(stage, label, runner.variant(variant), arguments + options)
                      for variant, label in course.FLIP_VARIANTS[stage].items()]
    return pipe_records(ncu, runner, cases)


def items(ncu, build, runner):
    cases = []
    for segment in ("16", "128", "1024"):
        arguments = ["--log2", "27", "--segment", segment]
        cases += [("v8_batched", "8 keys per thread", runner.variant("v8_keys8"), arguments),
                  ("v9_argsort", "keys", course.program_command(build, "v9_argsort"), arguments),
                  ("v9_argsort", "keys and indices", course.program_command(build, "v9_argsort"),
                   arguments + ["--values"])]
    return kernel_records(ncu, runner, cases, ["--metrics", ",".join(ITEMS)], ITEMS)


def words(ncu, build, runner):
    cases = []
    for segment in ("8", "128", "1024"):
        arguments = ["--log2", "27", "--segment", segment]
        cases.append(("v8_batched", "keys", course.program_command(build, "v8_batched"),
                      arguments))
        cases += [(program, "keys and indices", course.program_command(build, program),
                   arguments + ["--values"])
                  for program in ("v9_argsort", "word_argsort", "rank_argsort",
                                  "prefix_argsort")]
    return kernel_records(ncu, runner, cases, ["--metrics", ",".join(WORDS)], WORDS)


def prefix(ncu, build, runner):
    """v17's argsort (one sort of 32-bit words and a fix-up) against its keys alone and v16's
    argsort (64-bit items) on arrays of 64, 128 and 1024 uniform keys, and both argsorts on
    few-unique keys at 128 (chapter 19): each launch's metrics of the lab's argsorts (words).
    The rows are named as tools/experiments.py v17_argsorts names its runs."""
    v16, v17 = (course.program_command(build, stage)
                for stage in ("v16_register_top", "v17_prefix_argsort"))
    cases = []
    for segment in ("64", "128", "1024"):
        arguments = ["--log2", "27", "--segment", segment]
        cases += [("v17_prefix_argsort", "keys, v17", v17, arguments),
                  ("v17_prefix_argsort", "argsort, v17", v17, arguments + ["--values"]),
                  ("v16_register_top", "argsort, v16", v16, arguments + ["--values"])]
    few_unique = ["--log2", "27", "--segment", "128", "--dist", "few-unique", "--values"]
    cases += [("v17_prefix_argsort", "argsort, v17, few-unique", v17, few_unique),
              ("v16_register_top", "argsort, v16, few-unique", v16, few_unique)]
    return kernel_records(ncu, runner, cases, ["--metrics", ",".join(WORDS)], WORDS)


def stage_cases(build, stages, keys_at, argsorts_at):
    """The cases that set a stage against the one before it: both stages' keys on arrays of each
    length of keys_at and their argsorts (--values) at each of argsorts_at, 2^27 keys in all,
    labelled "keys, v18", "argsort, v17" and the like."""
    cases = []
    for segment, options in ([(length, []) for length in keys_at] +
                             [(length, ["--values"]) for length in argsorts_at]):
        arguments = ["--log2", "27", "--segment", segment] + options
        what = "argsort" if options else "keys"
        cases += [(stage, f"{what}, {stage.split('_')[0]}", course.program_command(build, stage),
                   arguments) for stage in stages]
    return cases


def mirror(ncu, build, runner):
    """v17's block_sort (chapter 1's network, flips) against v18's (the mirrored form) on keys
    at 16, 128 and 1024 keys an array, and their argsorts at 1024 (chapter 20)."""
    return pipe_records(ncu, runner, stage_cases(build, ("v17_prefix_argsort", "v18_mirrored"),
                                                 ("16", "128", "1024"), ("1024",)))


def store(ncu, build, runner):
    """v18's tile kernels (thread-major stores) against v19's (stores through the tile) on keys
    at 8, 128 and 1024 keys an array, and their argsorts at 8 and 1024 (chapter 21)."""
    return pipe_records(ncu, runner, stage_cases(build, ("v18_mirrored", "v19_coalesced_store"),
                                                 ("8", "128", "1024"), ("8", "1024")))


def fixup_records(ncu, runner, cases):
    """kernel_records of `cases` with FIXUP's metrics. The waits come from the WarpStateStats
    section, as pipe_records has them: asked for by name, ncu prints them on another scale."""
    asked = [metric for metric in FIXUP if metric not in STALLS]
    return kernel_records(ncu, runner, cases,
                          ["--section", "WarpStateStats", "--metrics", ",".join(asked)], FIXUP)


def fixup(ncu, build, runner):
    """v19's argsort (every block's fix-up through shared memory) against v20's (runs of two
    in registers) on arrays of 64, 256 and 4096 keys (chapter 22)."""
    return fixup_records(ncu, runner, stage_cases(
        build, ("v19_coalesced_store", "v20_register_fixup"), (), ("64", "256", "4096")))


# What a round through shared memory costs and saves (lab note short_arrays): pipes' metrics,
# with the shared-memory wavefronts and the bank conflicts of the exchanges.
ROUNDS = {
    **PIPES,
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum": "shared_wavefronts",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum": "shared_bank_conflicts",
}


def rounds(ncu, build, runner):
    """v20's block_sort as built (lane steps in the merges of 32 to 512 keys) against its
    variants whose merges of 512, and of 256 and 512, make a round through shared memory."""
    cases = []
    for segment in ("256", "1024", "4096"):
        arguments = ["--log2", "27", "--segment", segment]
        cases += [("v20_register_fixup", "as built", course.program_command(build,
                                                                              "v20_register_fixup"),
                   arguments),
                  ("v20_register_fixup", "a round from 512 keys on",
                   runner.variant("v20_round512"), arguments),
                  ("v20_register_fixup", "a round from 256 keys on",
                   runner.variant("v20_round256"), arguments)]
    return kernel_records(ncu, runner, cases,
                          ["--section", "WarpStateStats", "--metrics", ",".join(ROUNDS)],
                          {**ROUNDS, **STALLS})


def keys32(ncu, build, runner):
    """v21's block_sort of keys as built (16 keys a thread) against its variants with 32 keys a
    thread, as they are and capped at 72 registers, on arrays of 128, 1024 and 4096 keys."""
    cases = []
    for segment in ("128", "1024", "4096"):
        arguments = ["--log2", "27", "--segment", segment]
        cases += [("v21_warp_tiles", "16 keys a thread (as built)",
                   course.program_command(build, "v21_warp_tiles"), arguments),
                  ("v21_warp_tiles", "32 keys a thread", runner.variant("v21_keys32"), arguments),
                  ("v21_warp_tiles", "32 keys a thread, seven blocks an SM",
                   runner.variant("v21_keys32_blocks7"), arguments)]
    return kernel_records(ncu, runner, cases,
                          ["--section", "WarpStateStats", "--metrics", ",".join(ROUNDS)],
                          {**ROUNDS, **STALLS})


def slots(ncu, build, runner):
    """v21's block_sort of keys as built against its variants that add a constant for each
    register to a base for each thread, as it is and held to six blocks an SM, on arrays of 1024
    and 4096 keys."""
    cases = []
    for segment in ("1024", "4096"):
        arguments = ["--log2", "27", "--segment", segment]
        cases += [("v21_warp_tiles", "as built", course.program_command(build, "v21_warp_tiles"),
                   arguments),
                  ("v21_warp_tiles", "a base and constants", runner.variant("v21_slot_sums"),
                   arguments),
                  ("v21_warp_tiles", "a base and constants, six blocks an SM",
                   runner.variant("v21_slot_sums_blocks6"), arguments)]
    return kernel_records(ncu, runner, cases,
                          ["--section", "WarpStateStats", "--metrics", ",".join(ROUNDS)],
                          {**ROUNDS, **STALLS})


def vector_stores(ncu, build, runner):
    """v22's block_sort of keys as built (16 stores of 4 bytes a thread) against its variants that
    store four keys to a 16-byte store, the store chosen at run time and when the kernel is
    compiled, on arrays of 32, 1024 and 4096 keys."""
    cases = []
    for segment in ("32", "1024", "4096"):
        arguments = ["--log2", "27", "--segment", segment]
        cases += [("v22_slot_offsets", "as built",
                   course.program_command(build, "v22_slot_offsets"), arguments),
                  ("v22_slot_offsets", "16-byte stores",
                   runner.variant("v22_store_vectors"), arguments),
                  ("v22_slot_offsets", "16-byte stores, chosen when compiled",
                   runner.variant("v22_store_word_vectors"), arguments)]
    return kernel_records(ncu, runner, cases,
                          ["--section", "WarpStateStats", "--metrics", ",".join(ROUNDS)],
                          {**ROUNDS, **STALLS})


# What a warp's round in place of lane steps changes (lab note short_arrays): rounds' metrics and
# the instructions each of the ALU and LSU pipes executed.
WARP_ROUNDS = {
    **ROUNDS,
    "sm__inst_executed_pipe_alu.sum": "alu_instructions",
    "sm__inst_executed_pipe_lsu.sum": "lsu_instructions",
}


def warp_rounds(ncu, build, runner):
    """v22_store_word_vectors's block_sort of keys (lane steps on tile bits 4 .. 7) against its
    variants that make those steps on registers after a round through each warp's part of the
    tile, as they are, held to six blocks an SM and through the words with tile bits 4 and 8
    swapped (no bank conflicts), on arrays of 128, 1024 and 4096 keys."""
    cases = []
    for segment in ("128", "1024", "4096"):
        arguments = ["--log2", "27", "--segment", segment]
        cases += [("v22_slot_offsets", "16-byte stores (lane steps)",
                   runner.variant("v22_store_word_vectors"), arguments),
                  ("v22_slot_offsets", "a warp's round",
                   runner.variant("v22_warp_rounds"), arguments),
                  ("v22_slot_offsets", "a warp's round, six blocks an SM",
                   runner.variant("v22_warp_rounds_blocks6"), arguments),
                  ("v22_slot_offsets", "a warp's round, bits 4 and 8 swapped",
                   runner.variant("v22_warp_rounds_swapped"), arguments)]
    return kernel_records(ncu, runner, cases,
                          ["--section", "WarpStateStats", "--metrics", ",".join(WARP_ROUNDS)],
                          {**WARP_ROUNDS, **STALLS})


def round_stages(ncu, build, runner):
    """v23's keys and argsort against v24's, each one kernel at 1024 and 4096 keys an array
    (block_sort, block_prefix_argsort), with warp_rounds' metrics: the stage's own build, whose
    rounds run in fewer merges than the lab's variant profiled above (chapter 26)."""
    return kernel_records(ncu, runner, stage_cases(build, ("v23_vector_stores", "v24_warp_rounds"),
                                                   ("1024", "4096"), ("1024", "4096")),
                          ["--section", "WarpStateStats", "--metrics", ",".join(WARP_ROUNDS)],
                          {**WARP_ROUNDS, **STALLS})


def short_blocks(ncu, build, runner):
    """v24's block_sort of keys without rounds, as built and held to eight blocks an SM
    (v24_blocks8), against v13's at 16 keys an array and v22's at 64, where those stages ran
    ahead of v24's first form or level with it in turns (lab note short_arrays): the pipes'
    metrics, with the registers a thread."""
    cases = []
    for segment, rival in (("16", "v13_any_bits"), ("64", "v22_slot_offsets")):
        arguments = ["--log2", "27", "--segment", segment]
        cases += [("v24_warp_rounds", "as built", course.program_command(build, "v24_warp_rounds"),
                   arguments),
                  ("v24_warp_rounds", "eight blocks an SM", runner.variant("v24_blocks8"),
                   arguments),
                  (rival, "as built", course.program_command(build, rival), arguments)]
    columns = {**PIPES, "launch__registers_per_thread": "registers"}
    return kernel_records(ncu, runner, cases, ["--metrics", ",".join(columns)], columns)


def warp_tiles(ncu, build, runner):
    """v20's argsort as built (4096-key tiles, eight warps a block) against its variant whose
    arrays of 512 keys or fewer go in 512-key tiles of one warp, at 64 and 256 keys."""
    cases = []
    for segment in ("64", "256"):
        arguments = ["--log2", "27", "--segment", segment, "--values"]
        cases += [("v20_register_fixup", "4096-key tiles (as built)",
                   course.program_command(build, "v20_register_fixup"), arguments),
                  ("v20_register_fixup", "512-key tiles", runner.variant("v20_warp_tiles"),
                   arguments)]
    return fixup_records(ncu, runner, cases)


def tiles(ncu, build, runner):
    """v20's argsort (4096-key tiles, eight warps a block) against v21's (512-key tiles of one
    warp for arrays of up to 512 keys) on arrays of 64 and 256 keys (chapter 23)."""
    return fixup_records(ncu, runner, stage_cases(
        build, ("v20_register_fixup", "v21_warp_tiles"), (), ("64", "256")))


def long_items(ncu, build, runner):
    records = []
    # v13_keys16 (16 keys a thread) is there for its items alone: chapter 15 sets them against
    # v13's, whose keys alone it also quotes.
    cases = [("v13_any_bits", "keys", []), ("v13_any_bits", "keys and indices", ["--values"]),
             ("v13_keys16", "keys and indices", ["--values"])]
    # The waits come from the WarpStateStats section, in cycles per issued instruction, as
    # pipes has them (asked for by name, ncu prints them on another scale).
    asked = [metric for metric in LONG_ITEMS if metric not in STALLS]
    for stage, variant, options in cases:
        program = (runner.variant(stage) if stage == "v13_keys16"
                   else course.program_command(build, stage))
        command = program + ["--log2", "27"] + options + ["--reps", "1", "--no-validate"]
        code, record, errors = course.run_record(command)
        if code != 0:
            sys.exit(f"{' '.join(command)} failed: {errors}")
        launches = int(record["launches"])
        # Every launch of the second sort (the first is the warm-up).
        rows = profile_kernels.ncu_rows(ncu, command, launches, launches,
                                        ["--section", "WarpStateStats", "--metrics",
                                         ",".join(asked)])
        if len(rows) != launches:
            sys.exit(f"{' '.join(command)}: ncu saw {len(rows)} launches, the run made "
                     f"{launches}")
        records += [launch_record(runner, record, row, LONG_ITEMS, stage=stage, variant=variant,
                                  n=record["n"], launch=index)
                    for index, row in enumerate(rows)]
        print(f"{stage} {variant}: {launches} launches profiled", file=sys.stderr, flush=True)
    return records


def tops(ncu, build, runner):
    program = course.program_command(build, "v10_top_k")
    cases = [("v10_top_k", f"top {top}", program,
              ["--log2", "27", "--segment", "1024", "--top", str(top), "--values"])
             for top in (1, 16, 64)]
    return kernel_records(ncu, runner, cases, ["--metrics", ",".join(TOPS)], TOPS)


def short_stages(ncu, build, runner):
    cases = [(stage, "keys", course.program_command(build, stage),
              ["--log2", "27", "--segment", segment])
             for segment in ("8", "1024") for stage in ("v8_batched", "v14_span", "v15_tile4096")]
    return pipe_records(ncu, runner, cases)


def launch_record(runner, record, row, columns, **first):
    """One launch's record: the fields `first`, its kernel, the metrics {ncu name: column} of its
    ncu row (two names may fill one column: the first that ncu printed does), then the GPU and
    the date, from the program's own record of the run."""
    name = row["Kernel Name"]
    entry = {**first, "kernel": course.kernel_of(name) or name, "instance": name.split("(")[0]}
    for metric, column in columns.items():
        if entry.get(column) is None:
            entry[column] = profile_kernels.number(row.get(metric))
    entry.update({"gpu": record["device"], "cuda_runtime": record["cuda_runtime"],
                  "nvidia_driver": runner.driver, "date": runner.date})
    return entry


def kernel_records(ncu, runner, cases, options, columns):
    """For each case (stage, variant, program, arguments): the metrics {ncu name: column} of the
    first launch of each kernel in the second sort (the first is the warm-up). Two names may
    fill one column: the first that ncu printed does."""
    records = []
    for stage, variant, program, arguments in cases:
        command = program + arguments + ["--reps", "1", "--no-validate"]
        code, record, errors = course.run_record(command)
        if code != 0:
            sys.exit(f"{' '.join(command)} failed: {errors}")
        launches = int(record["launches"])
        rows = profile_kernels.ncu_rows(ncu, command, launches, launches, options)
        seen = set()
        for row in rows:
            name = row["Kernel Name"]
            if name in seen:
                continue
            seen.add(name)
            entry = launch_record(runner, record, row, columns, stage=stage, variant=variant,
                                  n=record["n"], segment=record["segment"])
            records.append(entry)
            print(f"{stage} {variant} {arguments}: {entry['instance']} "
                  + " ".join(f"{column}={entry[column]}" for column in dict.fromkeys(
                      columns.values())),
                  file=sys.stderr, flush=True)
    return records


FACTS = {"libraries": ("library_kernels.csv", libraries),
         "occupancy": ("occupancy.csv", occupancy), "pipes": ("pipes.csv", pipes),
         "directions": ("directions.csv", directions),
         "items": ("items.csv", items), "words": ("words.csv", words),
         "prefix": ("prefix_kernels.csv", prefix),
         "mirror": ("mirror_kernels.csv", mirror),
         "store": ("store_kernels.csv", store),
         "fixup": ("fixup_kernels.csv", fixup),
         "rounds": ("round_kernels.csv", rounds),
         "warp_tiles": ("warp_tile_kernels.csv", warp_tiles),
         "keys32": ("keys32_kernels.csv", keys32),
         "slots": ("slot_kernels.csv", slots),
         "vector_stores": ("vector_store_kernels.csv", vector_stores),
         "warp_rounds": ("warp_round_kernels.csv", warp_rounds),
         "round_stages": ("round_stage_kernels.csv", round_stages),
         "tiles": ("tile_kernels.csv", tiles),
         "long_items": ("long_items.csv", long_items),
         "tops": ("top_kernels.csv", tops), "packed": ("packed_kernels.csv", packed),
         "short_stages": ("short_stages.csv", short_stages),
         "short_blocks": ("short_block_kernels.csv", short_blocks)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(course.ROOT, "build"))
    parser.add_argument("--out", required=True, help="folder for the CSV files")
    parser.add_argument("facts", nargs="+", choices=sorted(FACTS))
    arguments = parser.parse_args()
    if course.arguments_only():
        return
    ncu = course.find_tool("ncu")
    runner = experiments.Runner(argparse.Namespace(
        build=arguments.build, spread_runs=1, distribution_sizes="24", stages=None))
    for name in arguments.facts:
        file_name, collect = FACTS[name]
        records = collect(ncu, arguments.build, runner)
        path = os.path.join(arguments.out, file_name)
        course.write_csv(path, records)
        print(f"wrote {len(records)} records to {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
