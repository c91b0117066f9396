#!/usr/bin/env python3
"""cpu suite: what tools/experiments.py decides without a GPU, on made-up rows.

Usage: experiments_test.py SOURCE_ROOT

- --stages refuses a name that is no stage, in one line, with argparse's exit code 2;
- replace_rows (--replace-in): a recorded row of the same variant, program and size as a new
  record takes the record's values on the recorded columns, every other row stays as it was and
  where it was, and a record that replaces no row stops it;
- argsort_sweep runs each program with --values and without, at 2^20, 2^24 and 2^27, building
  only the variants of tools/variants.txt;
- v15_tile runs v14, v15, the variant v15_padded and CUB's merge and radix sorts at 2^16 .. 2^29;
- v19_groups runs v19, the variant v19_group15 and CUB's merge sort at 2^16 .. 2^29;
- v20_rounds and v20_round_argsorts run v20 and its three round variants, keys alone and
  argsorts; v20_warp_tiles runs v20's argsort, its one-warp variant's and v20's keys alone;
- segment_stages_short and segment_stages_long run v8 .. v24 and two CUB calls on keys, eleven
  argsorts (--values), the top 16 of v16 .. v24, and torch.sort up to 2^16 keys per array only,
  the first on arrays of 8 .. 512 keys, the second on those of 1024 .. 2^20, 2^27 keys in all,
  every record of experiment segment_stages;
- segment_spread runs v22, v8, v13, v14 and v19 in turns at 8, 16 and 32 keys per array;
  v22_stores runs v22, its three store variants and v8 in turns at 8 .. 4096; v22_lanes runs
  v22, v22_store_word_vectors, its three warp's rounds and v8 in turns at the same lengths;
  v22_swaps runs v22_store_word_vectors and its four warp's rounds in turns at 128, 1024 and
  4096; stage_turns runs v24, v23, v22 and v8 in turns at every power of two from 8 to 4096,
  with v13, v14, v12 and v21 at 8 and 16;
- segments gives DeviceSegmentedRadixSort arrays from 32 keys on, the others from 2; segments,
  segment_stages and tops hand their torch runs to torch_batch at once;
- torch_batch runs tools/torch_rows.py (here a stand-in) for every argument list in one
  process, in order, each record checked as the runner checks one; exit code 77 (no PyTorch)
  gives no rows and marks the runner, and later calls start nothing;
- course.validated_once (tools/record.py's rule for checks against std::sort) checks each
  program of a sweep over array lengths at its first length and its first of 1024 keys or
  more, each other form on its own, and every run where the record's variable is not set.
"""
import os
import subprocess
import sys
import tempfile

root = os.path.abspath(sys.argv[1])
sys.path.insert(0, os.path.join(root, "tools"))
import course  # noqa: E402
import experiments  # noqa: E402

failures = 0


def check(ok, what):
    global failures
    print("ok  " if ok else "FAIL", what)
    failures += not ok


script = os.path.join(root, "tools", "experiments.py")
result = subprocess.run([sys.executable, script, "--out", "unused", "--stages",
                         "v0_naive,v99_none", "spread"], capture_output=True, text=True)
last = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
check(result.returncode == 2 and last.endswith("--stages: no stage named v99_none"),
      f"--stages v0_naive,v99_none: exit {result.returncode}, '{last}'")

recorded = [{"variant": "run 1", "program": "v0_naive", "n": "2048", "sort_ms": "1.0"},
            {"variant": "run 1", "program": "v1_fused", "n": "2048", "sort_ms": "2.0"},
            {"variant": "run 2", "program": "v1_fused", "n": "4096", "sort_ms": "4.0"},
            {"variant": "run 2", "program": "v1_fused", "n": "2048", "sort_ms": "3.0"}]
records = [{"variant": "run 2", "program": "v1_fused", "n": 2048, "sort_ms": "9.0",
            "date": "2026-11-26"}]
rows = experiments.replace_rows(recorded, records)
check([row["sort_ms"] for row in rows] == ["1.0", "2.0", "4.0", "9.0"] and
      list(rows[3]) == list(recorded[0]),
      "the row of the same variant, program and size replaced, in its place, on the recorded "
      "columns; the others kept, the same program at another size too")
stray = [{"variant": "run 3", "program": "v1_fused", "n": 2048, "sort_ms": "9.0"}]
try:
    experiments.replace_rows(recorded, stray)
    check(False, "a record that replaces no row: refused")
except SystemExit as stop:
    check("no recorded row" in str(stop), f"a record that replaces no row: '{stop}'")



class Runner:
    """What argsort_sweep asks of a runner: its build folder, a variant's program (built), and
    a record per run (here the variant and the command)."""
    build = "build"

    def __init__(self):
        self.built = []

    def variant(self, name):
        self.built.append(name)
        return [f"built/{name}"]

    def record(self, experiment, variant, command):
        return (experiment, variant, command)

    def torch_records(self, experiment, arguments):
        return [(experiment, "torch.sort", ["torch_rows.py"] + arguments)]


runner = Runner()
runs = experiments.argsort_sweep(runner, "made_up", ("v13_keys16", "cub_radix"))
check(runner.built == ["v13_keys16"] and len(runs) == 12 and
      runs[0] == ("made_up", "v13_keys16 --values",
                  ["built/v13_keys16", "--values", "--log2", "20", "--reps", "20"]) and
      runs[3][1] == "cub_radix" and runs[3][2][:3] == [os.path.join("build", "tools", "baselines"),
                                                        "--algo", "cub_radix"] and
      "--values" not in runs[3][2] and runs[-1][2][-4:] == ["--log2", "27", "--reps", "5"],
      "argsort_sweep: the variant built, the baseline run as one, each with and without "
      "--values, at 2^20, 2^24 and 2^27")

# The sweeps over array lengths run the lengths their chapter or note quotes, in order, every
# program at each; the flips sweeps the stage and its variant.
runner = Runner()
runs = experiments.v8_pipes(runner)
lengths = [int(run[2][run[2].index("--segment") + 1]) for run in runs]
check(len(runs) == 7 * 9 and lengths[::7] == [1 << s for s in (1, 2, 4, 7, 8, 9, 10, 12, 14)] and
      runs[0][1] == "as built" and runs[6][1] == "stores from the registers",
      "v8_pipes: the stage as built first, then its six variants, at the nine lengths quoted")
runs = experiments.v9_mirrored(Runner())
check(len(runs) == 2 * 6 and all("--values" in run[2] for run in runs),
      "v9_mirrored: v9 and its variant, with --values, at six lengths")

# v15_tile: the stage before, the stage, its variant (one of tools/variants.txt, built), and the
# two CUB sorts, each at 2^16, 2^20, 2^24, 2^27 and 2^29.
runner = Runner()
runs = experiments.v15_tile(runner)
programs = [run[2][0] for run in runs]
check(runner.built == ["v15_padded"] and "v15_padded" in course.variants() and len(runs) == 25 and
      programs[:5] == [os.path.join("build", "v14_span", "v14_span"),
                       os.path.join("build", "v15_tile4096", "v15_tile4096"), "built/v15_padded",
                       os.path.join("build", "tools", "baselines"),
                       os.path.join("build", "tools", "baselines")] and
      [run[2][run[2].index("--log2") + 1] for run in runs[::5]] == ["16", "20", "24", "27", "29"],
      "v15_tile: v14, v15, its padded variant and CUB's two sorts at 2^16 .. 2^29")

# v19_groups: v19, its variant with 2^15-key groups (built) and CUB's merge sort, at each of the
# group note's seven sizes.
runner = Runner()
runs = experiments.v19_groups(runner)
check(runner.built == ["v19_group15"] and len(runs) == 21 and
      [run[2][0] for run in runs[:3]] == [os.path.join("build", "v19_coalesced_store",
                                                       "v19_coalesced_store"),
                                          "built/v19_group15",
                                          os.path.join("build", "tools", "baselines")] and
      runs[2][2][runs[2][2].index("--algo") + 1] == "cub_merge" and
      [run[2][run[2].index("--log2") + 1] for run in runs[::3]] ==
      ["16", "18", "20", "22", "24", "27", "29"],
      "v19_groups: v19, its 2^15-key groups and CUB's merge sort at 2^16 .. 2^29")

# v20_rounds and v20_round_argsorts: v20 first, then its variants whose rounds start at 512, 256
# and 128 keys (built), each at the six lengths of the note, keys alone or --values on every run.
# v20_warp_tiles: v20's argsort and its one-warp variant, then v20's keys alone, at 8 .. 1024.
runner = Runner()
keys, argsorts = experiments.v20_rounds(runner), experiments.v20_round_argsorts(runner)
tiles = experiments.v20_warp_tiles(runner)
stage = os.path.join("build", "v20_register_fixup", "v20_register_fixup")
segments = [run[2][run[2].index("--segment") + 1] for run in keys[::4]]
check(runner.built == ["v20_round512", "v20_round256", "v20_round128"] * 2 + ["v20_warp_tiles"] and
      len(keys) == len(argsorts) == 24 and
      [run[2][0] for run in keys[:4]] == [stage, "built/v20_round512", "built/v20_round256",
                                          "built/v20_round128"] and
      segments == ["8", "64", "128", "256", "1024", "4096"] and
      not any("--values" in run[2] for run in keys) and
      all("--values" in run[2] for run in argsorts) and
      [run[1] for run in argsorts[:4]] == [run[1] for run in keys[:4]] and
      len(tiles) == 18 and [run[2][0] for run in tiles[:2]] == [stage, "built/v20_warp_tiles"] and
      all("--values" in run[2] for run in tiles[:12]) and
      not any("--values" in run[2] for run in tiles[12:]) and
      [run[2][0] for run in tiles[12:]] == [stage] * 6 and
      [run[2][run[2].index("--segment") + 1] for run in tiles[12:]] ==
      ["8", "64", "128", "256", "512", "1024"],
      "v20_rounds: v20 and its three round variants at 8 .. 4096, keys alone and argsorts; "
      "v20_warp_tiles: its argsort and the one-warp variant's, then its keys, at 8 .. 1024")

# The experiments that run torch.sort on many lengths hand them to torch_batch, one process for
# them all; here a stand-in that notes each batch and gives a record a length.
batches = []


def torch_batch(runner, experiment, argument_lists):
    batches.append((experiment, len(argument_lists)))
    return [(experiment, "torch.topk" if "--top" in arguments else "torch.sort",
             ["torch_rows.py"] + arguments) for arguments in argument_lists]


real_torch_batch, experiments.torch_batch = experiments.torch_batch, torch_batch

# segment_stages_short and _long: the seventeen stages from v8 on and two CUB calls on keys at
# every length, the eleven argsorts (--values) at 8, 128, 1024, 4096 and 2^14 .. 2^20, v19's to
# v24's at every length of the keys, the top 16 of v16 .. v24 at 128 .. 4096, torch.sort's
# run where the arrays hold 2^16 keys or fewer; every run 2^27 keys in arrays of the length, the
# arrays up to 512 keys in the first half, the longer ones in the second.
short_runs = experiments.segment_stages_short(Runner())
runs = short_runs + experiments.segment_stages_long(Runner())
lengths = [int(run[2][run[2].index("--segment") + 1]) for run in runs]
short_lengths = sorted({int(run[2][run[2].index("--segment") + 1]) for run in short_runs})
torch_lengths = [length for run, length in zip(runs, lengths) if run[1] == "torch.sort"]
argsort_lengths = sorted({length for run, length in zip(runs, lengths) if "--values" in run[2]})
argsorts = sorted({run[1] for run in runs if "--values" in run[2]})
every_length = sorted({run[1] for run, length in zip(runs, lengths)
                       if "--values" in run[2] and length in (16, 32, 64, 256, 512, 2048)})
tops = sorted({(run[1], length) for run, length in zip(runs, lengths) if "--top" in run[2]})
programs = [run[2][run[2].index("--algo") + 1] if "--algo" in run[2] else
            os.path.basename(run[2][0]) for run in runs[:30]]
stages = ["v8_batched", "v9_argsort", "v10_top_k", "v11_float_keys", "v12_key_words",
          "v13_any_bits", "v14_span", "v15_tile4096", "v16_register_top", "v17_prefix_argsort",
          "v18_mirrored", "v19_coalesced_store", "v20_register_fixup", "v21_warp_tiles",
          "v22_slot_offsets", "v23_vector_stores", "v24_warp_rounds"]
top_stages = ("v16_register_top", "v17_prefix_argsort", "v18_mirrored", "v19_coalesced_store",
              "v20_register_fixup", "v21_warp_tiles", "v22_slot_offsets", "v23_vector_stores",
              "v24_warp_rounds")
check(len(runs) == 14 * 19 + 11 * 8 + 6 * 6 + 9 * 6 + 12 and
      short_lengths == [1 << s for s in range(3, 10)] and
      all(run[0] == "segment_stages" for run in runs) and
      tops == sorted((f"{stage} --top 16", 1 << s) for s in range(7, 13) for stage in top_stages)
      and all(run[2][run[2].index("--top") + 1] == "16" for run in runs if "--top" in run[2]) and
      sorted(set(lengths)) == [1 << s for s in range(3, 13)] + [1 << s for s in (14, 16, 18, 20)]
      and torch_lengths == [1 << s for s in list(range(3, 13)) + [14, 16]] and
      argsort_lengths == [1 << s for s in list(range(3, 13)) + [14, 16, 18, 20]] and
      every_length == ["v19_coalesced_store --values", "v20_register_fixup --values",
                       "v21_warp_tiles --values", "v22_slot_offsets --values",
                       "v23_vector_stores --values", "v24_warp_rounds --values"] and
      argsorts == ["cub_packed_radix --values", "v15_tile4096 --values",
                   "v17_prefix_argsort --values", "v18_mirrored --values",
                   "v19_coalesced_store --values", "v20_register_fixup --values",
                   "v21_warp_tiles --values", "v22_slot_offsets --values",
                   "v23_vector_stores --values", "v24_warp_rounds --values",
                   "v9_argsort --values"]
      and programs == stages + ["cub_segmented", "cub_packed_radix", "v9_argsort", "v15_tile4096",
                                "v17_prefix_argsort", "v18_mirrored", "v19_coalesced_store",
                                "v20_register_fixup", "v21_warp_tiles", "v22_slot_offsets",
                                "v23_vector_stores", "v24_warp_rounds", "cub_packed_radix"] and
      all(run[2][run[2].index("--log2") + 1] == "27" for run in runs),
      "segment_stages: v8 .. v24 and two CUB calls on keys at every power of two from 8 to 4096 "
      "and at 2^14 .. 2^20, eleven argsorts at eight of those lengths and v19's to v24's at the "
      "others, the top 16 of v16 .. v24 at 128 .. 4096, torch.sort up to 2^16, 2^27 keys "
      "in all; 8 .. 512 in the first half, 1024 .. 2^20 in the second")
check(batches == [("segment_stages", 7), ("segment_stages", 5)],
      f"segment_stages: torch.sort in one batch a half ({batches})")
# segment_stages itself (the command chapters 20 to 22 give) makes the two halves' runs in one.
batches.clear()
whole = experiments.segment_stages(Runner())
check([run[:3] for run in whole if run[1] != "torch.sort"] ==
      [run[:3] for run in runs if run[1] != "torch.sort"] and
      batches == [("segment_stages", 12)],
      "segment_stages: the runs of both halves, torch.sort in one batch")

# segment_spread: v22 and the four fastest stages at those lengths, at 8, 16 and 32 keys per
# array, in turns (every stage once before any runs again), as many runs as the runner's spread_runs.
spread_runner = Runner()
spread_runner.spread_runs = 3
runs = experiments.segment_spread(spread_runner)
stages = ["v22_slot_offsets", "v8_batched", "v13_any_bits", "v14_span", "v19_coalesced_store"]
check(len(runs) == 3 * 3 * 5 and
      [os.path.basename(run[2][0]) for run in runs[:10]] == stages * 2 and
      [run[1] for run in runs[:10]] == ["run 1"] * 5 + ["run 2"] * 5 and
      [run[2][run[2].index("--segment") + 1] for run in runs[::15]] == ["8", "16", "32"] and
      all(run[0] == "segment_spread" and run[2][run[2].index("--log2") + 1] == "27"
          for run in runs),
      "segment_spread: v22, v8, v13, v14 and v19 in turns, three runs each at 8, 16 and 32 keys "
      "per array, 2^27 keys in all")


def made_in_turns(function, experiment, programs, lengths, built=(), short_programs=()):
    """Whether the experiment `function`, with two runs a program (spread_runs), runs at each
    length in `lengths` every program of `programs` (and of `short_programs` at 8 and 16) once in
    turn 1, then once in turn 2 (labels "run 1", "run 2"), each on 2^27 keys, and builds the
    variants `built`, each once."""
    runner = Runner()
    runner.spread_runs = 2
    runs = function(runner)
    made = [(run[0], run[1], os.path.basename(run[2][0]), run[2][run[2].index("--segment") + 1])
            for run in runs]
    return (runner.built == list(built) and
            made == [(experiment, f"run {turn}", program, str(length)) for length in lengths
                     for turn in (1, 2)
                     for program in programs + (list(short_programs) if length <= 16 else [])] and
            all(run[2][run[2].index("--log2") + 1] == "27" for run in runs))


# The six lengths of v22_stores and v22_lanes: three without a round, three with.
SIX_LENGTHS = (8, 16, 32, 128, 1024, 4096)
# v22_stores: v22, its three store variants and v8; v22_lanes: v22, v22_store_word_vectors, its
# three warp's rounds and v8; v22_swaps: v22_store_word_vectors and its warp's rounds with and
# without their words' swap, where the rounds run (128 keys and more); stage_turns: v24, v23, v22
# and v8, stages alone, with v13, v14, v12 and v21 at 8 and 16.
stores = ["v22_store_fours", "v22_store_vectors", "v22_store_word_vectors"]
check(made_in_turns(experiments.v22_stores, "v22_stores",
                    ["v22_slot_offsets"] + stores + ["v8_batched"], SIX_LENGTHS, stores),
      "v22_stores: v22, its three store variants and v8 in turns at 8 .. 4096 keys per array")
lanes = ["v22_store_word_vectors", "v22_warp_rounds", "v22_warp_rounds_blocks6",
         "v22_warp_rounds3"]
check(made_in_turns(experiments.v22_lanes, "v22_lanes",
                    ["v22_slot_offsets"] + lanes + ["v8_batched"], SIX_LENGTHS, lanes),
      "v22_lanes: v22, v22_store_word_vectors, its three warp's rounds and v8 in turns at 8 .. "
      "4096 keys per array")
swaps = ["v22_store_word_vectors", "v22_warp_rounds", "v22_warp_rounds_swapped",
         "v22_warp_rounds3", "v22_warp_rounds_swapped3"]
check(made_in_turns(experiments.v22_swaps, "v22_swaps", swaps, (128, 1024, 4096), swaps),
      "v22_swaps: v22_store_word_vectors and its four warp's rounds in turns at 128, 1024 and "
      "4096 keys per array")
check(made_in_turns(experiments.stage_turns, "stage_turns",
                    ["v24_warp_rounds", "v23_vector_stores", "v22_slot_offsets", "v8_batched"],
                    [1 << log2 for log2 in range(3, 13)],
                    short_programs=["v13_any_bits", "v14_span", "v12_key_words",
                                    "v21_warp_tiles"]),
      "stage_turns: v24, v23, v22 and v8 in turns at every power of two from 8 to 4096 keys per "
      "array, with v13, v14, v12 and v21 at 8 and 16, nothing built")
check(made_in_turns(experiments.v24_blocks, "v24_blocks",
                    ["v24_warp_rounds", "v24_blocks8", "v13_any_bits"],
                    [1 << log2 for log2 in range(3, 8)], ["v24_blocks8"]),
      "v24_blocks: v24, its variant held to eight blocks an SM and v13 in turns at 8 .. 128 keys "
      "per array, the variant built once")
check(made_in_turns(experiments.v24_barrier, "v24_barrier",
                    ["v24_warp_rounds", "v24_second_block_barrier", "v24_block_barriers",
                     "v13_any_bits", "v14_span", "v12_key_words"],
                    [1 << log2 for log2 in range(3, 8)],
                    ["v24_second_block_barrier", "v24_block_barriers"]),
      "v24_barrier: v24, its variants with store_fours' second barrier or both the block's, v13, "
      "v14 and v12 in turns at 8 .. 128 keys per array, each variant built once")

# segments: v8 and CUB's segmented and packed sorts at every length from 2, DeviceSegmentedRadixSort
# from 32 (one timed run up to 64), torch.sort up to 2^16 in one batch.
batches.clear()
runs = experiments.segments(Runner())
radix = [run[2] for run in runs if run[1] == "cub_segmented_radix"]
radix_lengths = [int(command[command.index("--segment") + 1]) for command in radix]
one_rep = [length for length, command in zip(radix_lengths, radix)
           if command[command.index("--reps") + 1] == "1"]
check(radix_lengths[0] == 32 and one_rep == [32, 64] and
      len([run for run in runs if run[1] == "v8_batched"]) == 21 and
      batches == [("segments", 16)],
      f"segments: DeviceSegmentedRadixSort from 32 keys ({radix_lengths[:3]} ..), one timed run "
      f"up to 64 ({one_rep}); v8 at 21 lengths; torch.sort in one batch ({batches})")

# tops: torch's rows (topk beside each top-k, sort beside each full sort) in one batch.
batches.clear()
runs = experiments.tops(Runner())
check(batches == [("tops", 12)] and
      sum(run[1] == "torch.topk" for run in runs) == 8 and
      sum(run[1] == "torch.sort" for run in runs) == 4,
      f"tops: torch.topk 8 times and torch.sort 4 times, in one batch ({batches})")
experiments.torch_batch = real_torch_batch

# torch_batch, with a stand-in for tools/torch_rows.py that reports its arguments and its
# process, or exits 77 as torch_rows.py does where PyTorch cannot be imported, and writes to
# the stdout file behind Python's back as a library may.
STAND_IN = """import os, sys
def main():
    # A library writing to the stdout file itself, without a newline.
    os.write(1, b"noise")
    if "--no-torch" in sys.argv:
        print("torch_rows: PyTorch cannot be imported", file=sys.stderr)
        sys.exit(77)
    print("program,segment,pid")
    print(f"torch.sort,{sys.argv[sys.argv.index('--segment') + 1]},{os.getpid()}")
"""


class CheckingRunner:
    torch_missing = False

    def checked(self, experiment, variant, command, code, record, errors):
        return (experiment, variant, code, record)


with tempfile.TemporaryDirectory() as tools:
    with open(os.path.join(tools, "torch_rows.py"), "w") as stand_in:
        stand_in.write(STAND_IN)
    saved, course.TOOLS = course.TOOLS, tools
    runner = CheckingRunner()
    rows = experiments.torch_batch(runner, "made_up", [["--segment", "2"], ["--segment", "8"]])
    missing = experiments.torch_batch(runner, "made_up", [["--segment", "2", "--no-torch"]])
    after = experiments.torch_batch(runner, "made_up", [["--segment", "2"]])
    course.TOOLS = saved
check(len(rows) == 2 and [row[3]["segment"] for row in rows] == ["2", "8"] and
      rows[0][:3] == ("made_up", "torch.sort", 0) and rows[0][3]["pid"] == rows[1][3]["pid"] and
      int(rows[0][3]["pid"]) != os.getpid() and missing == [] and runner.torch_missing and
      after == [],
      "torch_batch: every argument list in one process, in order, each record checked; 77 gives "
      "no rows and marks PyTorch missing")

# course.validated_once, as tools/record.py runs a chunk (COURSE_VALIDATE_ONCE): in a sweep over
# array lengths each program is checked at its first length and its first of 1024 keys or more;
# one array, another number of keys, --values and PyTorch's rows are forms checked on their own;
# without the variable every run is checked.
def checked(commands):
    course.CHECKED_FORMS.clear()
    course.CHECKED_LONG.clear()
    return ["--no-validate" not in course.validated_once(command) for command in commands]


sweep = [[program, "--log2", "27", "--segment", str(1 << s), "--reps", "5"]
         for s in range(1, 17) for program in ("a", "b")]
os.environ["COURSE_VALIDATE_ONCE"] = "1"
in_sweep = checked(sweep)
others = checked([["a", "--log2", "27", "--segment", "2048"], ["a", "--log2", "27"],
                  ["a", "--log2", "27", "--reps", "1"], ["a", "--log2", "24", "--segment", "4"],
                  ["a", "--log2", "27", "--segment", "8", "--values"],
                  [sys.executable, "torch_rows.py", "--log2", "27", "--segment", "2"],
                  [sys.executable, "torch_rows.py", "--log2", "27", "--segment", "2"]])
del os.environ["COURSE_VALIDATE_ONCE"]
check([run[4] for run, done in zip(sweep, in_sweep) if done] == ["2", "2", "1024", "1024"] and
      others == [True, True, False, True, True, True, True] and all(checked(sweep)),
      "validated_once: each program at its first length and its first of 1024 keys or more; "
      "one array, other sizes, --values and PyTorch's rows checked on their own; every run "
      "without COURSE_VALIDATE_ONCE")

print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
