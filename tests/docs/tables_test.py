#!/usr/bin/env python3
"""docs suite: the judgements the generated tables make from recorded runs (docs/judging.py),
on made-up runs whose answer is known, so that a generated table cannot be consistently wrong.

Usage: tables_test.py SOURCE_ROOT NETWORK_DUMP

- the spread of several runs (slowest over fastest, less one);
- a stage against the one before it: the ratio of the median runs, and "faster" or "slower"
  only where every run of one beat every run of the other, else "overlap"; and against several
  rivals at once (v7 against the libraries), "faster" only where it beat every run of each;
- up to which size one program is faster than another, from which length one overtakes
  another, and a prediction's verdict;
- the share of compare-exchanges that swap, read from network_dump: none for equal keys, and
  for 16 sorted keys the 36 of 80 that tests/tools/network_dump_test.py finds by replaying the network;
- the dates of a table's records (record_days), and which stages each day holds (stages_by_day);
- the Nsight Compute figures summed over a sort's launches (long_items: times added, DRAM busy
  weighted by time) and the instructions over issue rate of the lab's argsorts;
- a profile table of chapter 15 (passes_profile_table): which launches count as block_sort, as
  merges up to a group and as global passes, and the DRAM and shared-memory figures per key;
- a mapping experiment's table of five programs (mapping_table): each one over the first;
- the tables of flips against directions and against the mirrored network (flips_table), v8's
  and v9's experiments side by side, each variant over its own stage, and the Nsight Compute
  figures of the three (direction_value, direction_ratio), kept apart by stage and variant;
- chapter 16's kinds of pass (span_kind), their table of copies, the span-copies value (at
  2^27, or at the size it names, of the stage or variant it names), and its pass counts from
  network_dump (span_passes_table);
- chapter 28's run of the stages on many arrays (segment_stages_table): the fastest stage and
  the fastest rival at each length, keys alone and argsorts apart, the stage in copies of the
  GPU's own copy, the length up to which a stage wins at every length, the lengths at which a
  stage is the fastest, how far a stage is behind the fastest and which stages beat it where
  (segment_stages_behind, segment_stages_beaten), and the values that quote an ncu_facts.py
  experiment (fact, fact-over), a row named by two columns where one names several
  ("stage+variant"), and the Nsight Compute tables of warp rounds and short blocks;
- chapter 20's table of the same run (stage_pair_table): v18 against v17 and v8, keys and argsorts,
  and "not measured" before v18 has run;
- programs run in turns (turns_table, turns_value, turns_where, turns_behind, segment_spread's
  form): each one's fastest and slowest run, and the judged program against the fastest rival,
  beyond the runs' spread, the lengths of each verdict and those where its median was not the
  fastest; a rival run at some lengths alone judges there only;
- a record of three chunks of one experiment (tools/records.py): the rows and files of those
  that measured the code as it is, in the manifest's order, and one with a stale row left out;
- the notes the record's own runs make: where chapter 10's table left DeviceSegmentedRadixSort
  out and how its time grew (radix_note), the chunks whose many arrays were checked at their
  first length alone (first_length_only), a spread verdict alone (neighbours-verdict), and
  which of the tour's chunks with std::sort ran with malloc's huge pages (tour_huge_pages).
"""
import os
import sys

root = os.path.abspath(sys.argv[1])
sys.path[:0] = [os.path.join(root, "docs"), os.path.join(root, "tools")]
import json  # noqa: E402
import tempfile  # noqa: E402

import course  # noqa: E402
import generate  # noqa: E402
import judging  # noqa: E402
import records  # noqa: E402
import tables  # noqa: E402

network_dump = sys.argv[2]

failures = 0


def check(ok, what):
    global failures
    print("ok  " if ok else "FAIL", what)
    failures += not ok


check(abs(judging.spread_percent([2.0, 3.0, 2.5]) - 50.0) < 1e-9, "spread of 2, 3, 2.5 ms is 50%")
# A caption says how many of its runs passed their check against std::sort, and why the others
# skipped it, only where some did.
all_checked = [{"validation": "pass"}] * 3
some_checked = all_checked[:1] + [{"validation": "skipped"}, {"validation": "FAIL"}]
check(tables.checked_runs(all_checked) == "every run" and tables.skipped_note(all_checked) == ""
      and tables.checked_runs(some_checked) == "1 of the 3 runs" and
      "skipped the check" in tables.skipped_note(some_checked),
      "checked_runs and skipped_note: every run, or how many of them, with why")
runs = {
    ("fast", 11): [1.0, 1.2, 1.1],      # every run below every run of "slow"
    ("slow", 11): [2.0, 2.2, 2.4],
    ("close", 11): [1.9, 2.1, 2.5],     # overlaps "slow" on both sides
    ("under", 11): [1.5, 2.1, 2.3],     # all below slow's slowest, not all below its fastest
    ("over", 11): [2.1, 2.3, 2.6],      # all above slow's fastest, not all above its slowest
}
speedup, verdict = judging.against_previous(runs, "fast", "slow", 11)
check(abs(speedup - 2.2 / 1.1) < 1e-9 and verdict == "faster",
      f"fast against slow: {speedup:.2f}x, {verdict} (2.00x, faster)")
speedup, verdict = judging.against_previous(runs, "slow", "fast", 11)
check(abs(speedup - 1.1 / 2.2) < 1e-9 and verdict == "slower",
      f"slow against fast: {speedup:.2f}x, {verdict} (0.50x, slower)")
speedup, verdict = judging.against_previous(runs, "close", "slow", 11)
check(abs(speedup - 2.2 / 2.1) < 1e-9 and verdict == "overlap",
      f"close against slow: {speedup:.2f}x, {verdict} (1.05x, overlap)")
for name in ("under", "over"):
    verdict = judging.against_previous(runs, name, "slow", 11)[1]
    check(verdict == "overlap", f"{name} against slow: {verdict} (overlap)")
check(judging.against_previous(runs, "fast", "slow", 15) is None, "a size not measured: None")
# Against several rivals: "faster" only if every run beat every run of every rival, even one
# whose median is slower than the fastest rival's.
runs[("outlier", 11)] = [1.05, 2.5, 2.6]   # median above fast's, one run under fast's slowest
runs[("fastest", 11)] = [0.5, 0.6, 0.7]
found = judging.against_all(runs, "fast", ["slow", "outlier"], 11)
check(found[0] == "slow" and found[2] == "overlap",
      f"fast against slow and outlier: {found} (slow, overlap: outlier's fastest run wins)")
found = judging.against_all(runs, "fast", ["slow", "close"], 11)
check(found[2] == "faster", f"fast against slow and close: {found} (faster)")
found = judging.against_all(runs, "fast", ["slow", "fastest"], 11)
check(found[0] == "fastest" and found[2] == "slower",
      f"fast against slow and fastest: {found} (fastest, slower)")

shares = tables.network_swaps(sys.argv[2], 16)
check(shares.get("equal") == 0 and abs(shares.get("sorted", -1) - 36 / 80) < 1e-12 and
      len(shares) == 7, f"swap shares at 16 keys: {shares}")


class Tour:
    """A tour of known times: program -> {log2 n: ms}."""
    def __init__(self, times):
        self.times = times

    def sizes(self):
        return sorted({q for by_size in self.times.values() for q in by_size})

    def time(self, program, q):
        return self.times.get(program, {}).get(q)


tour = Tour({"mine": {10: 1.0, 12: 2.0, 14: 5.0}, "theirs": {10: 2.0, 12: 3.0, 14: 4.0}})
check(judging.faster_up_to(tour, "mine", "theirs") == 12, "faster up to 2^12, slower at 2^14")
check(judging.faster_up_to(tour, "theirs", "mine") is None, "the slower one: at no size")
times = {"mine": {1: 3.0, 2: 3.0, 3: 2.0, 4: 1.0}, "theirs": {1: 2.0, 2: 2.5, 3: 2.5, 4: 2.0}}
check(judging.faster_from(times, "mine", "theirs") == 3, "faster from 2^3, slower below")
check(judging.faster_from(times, "theirs", "mine") is None, "the other way round: never from")
times["mine"][4] = 3.0
check(judging.faster_from(times, "mine", "theirs") is None, "slower again at 2^4: no crossover")
times["mine"] = {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0}
check(judging.faster_from(times, "mine", "theirs") is None, "faster everywhere: no crossover")
# The tour's crossover from a smallest size up: faster at 2^10, slower at 2^12 .. 2^14, faster
# from 2^16; from 2^10 up there is no single crossover, from 2^12 up it is 2^16.
tour = Tour({"mine": {10: 1.0, 12: 3.0, 14: 5.0, 16: 6.0, 18: 7.0},
             "theirs": {10: 2.0, 12: 2.0, 14: 4.0, 16: 7.0, 18: 8.0}})
check(tables.tour_overtaking_size(tour, "mine", "theirs", 12) == "2^16",
      "the tour's crossover from 2^12 up: 2^16")
check(tables.tour_overtaking_size(tour, "mine", "theirs", 10) == "no size",
      "from 2^10 up: faster, slower, faster again, no single crossover")
check(tables.tour_slower_sizes(tour, "mine", "theirs", 10, 16) == "2^12 and 2^14",
      "slower at 2^12 and 2^14 of 2^10 .. 2^16")
check(tables.tour_slower_sizes(tour, "mine", "theirs", 16, 18) == "none", "slower at none")
check(tables.tour_slower_sizes(tour, "mine", "theirs", 12, 12) == "2^12", "slower at one size")
# An experiment's crossover from a smallest length up (segment_times replaced by made-up runs):
# faster at 2^1, slower at 2^2 and 2^3, faster from 2^4.
recorded_times, tables.segment_times = tables.segment_times, lambda name: {
    "mine": {1: 1.0, 2: 3.0, 3: 3.0, 4: 1.0, 5: 1.0}, "theirs": {s: 2.0 for s in range(1, 6)}}
check(tables.overtaking_length("made-up", "mine", "theirs") is None,
      "over every length: faster, slower, faster again, no single crossover")
check(tables.overtaking_length("made-up", "mine", "theirs", 2) == 16,
      "from 2^2 up: faster from 16 keys")
tables.segment_times = recorded_times
check(tables.spoken_list(["2^12", "2^14", "2^15"]) == "2^12, 2^14 and 2^15" and
      tables.spoken_list(["2^12"]) == "2^12" and tables.spoken_list([]) == "",
      "lists of three, one and none")
check([judging.prediction_verdict(1.5, 2.0, m) for m in (1.4, 1.5, 2.0, 2.1)] ==
      ["below", "within", "within", "above"], "a prediction's verdict at and around its range")
# The dates a table's caption gives (record_days): one day, or the first .. the last.
days = [{"date": "2026-11-25"}, {"date": "2026-11-24"}, {"date": "2026-11-25"}]
check(tables.record_days(days) == "2026-11-24 .. 2026-11-25",
      "records of two days: the first .. the last")
check(tables.record_days(days[:1]) == "2026-11-25", "records of one day: that day")
# Which stages each day holds (stages_by_day): neighbours in the course's order join into a
# range, a stage apart from them stands alone, programs that are not stages are left out.
stages = tables.course.course_stage_names()
dated = ([{"program": stages[i], "date": "2026-11-24"} for i in (0, 1, 2, 4)] +
         [{"program": stages[3], "date": "2026-11-23"},
          {"program": "cub_radix", "date": "2026-11-22"}])
short = [name.split("_")[0] for name in stages]
want = f"2026-11-23: {short[3]}; 2026-11-24: {short[0]} .. {short[2]}, {short[4]}"
check(tables.stages_by_day(dated) == want,
      f"stages by day: {tables.stages_by_day(dated)} ({want})")
# The launches of one long sort (long_items) summed, their DRAM busy weighted by their time, and
# the instructions over issue rate of the lab's argsorts (word_issue_ratio), on made-up records.
def launch(variant, ns, gigabytes, busy, occupancy, stall):
    return {"stage": "v13_any_bits", "variant": variant, "kernel": "group_steps",
            "duration_ns": ns, "dram_read_bytes": gigabytes * 1e9 / 2,
            "dram_write_bytes": gigabytes * 1e9 / 2, "dram_busy_pct": busy,
            "achieved_occupancy_pct": occupancy, "issue_active_pct": 30, "barrier_stall": stall,
            "long_scoreboard_stall": 2, "registers": "64.0"}


made_up = {
    "long_items": [launch("keys", 1e6, 2, 90, 40, 1), launch("keys", 3e6, 6, 50, 60, 2),
                            launch("keys and indices", 4e6, 8, 70, 20, 5)],
    "words": [{"stage": "v8_batched", "segment": "1024", "instructions": "100",
                        "issue_active_pct": "70"},
                       {"stage": "mine", "segment": "1024", "instructions": "200",
                        "issue_active_pct": "35"}]}
recorded_rows, tables.recorded_rows = tables.recorded_rows, lambda name: made_up.get(name, [])
# The tables' data lines name the record's files: here the experiments they read.
data_files, tables.data_files = tables.data_files, lambda *names: "DATA " + " ".join(names)
check(tables.long_items_value("keys", "group_steps", "ms") == "4.00 ms" and
      tables.long_items_value("keys", "group_steps", "gb_s") == "2000 GB/s" and
      tables.long_items_value("keys", "group_steps", "dram_busy_pct") == "60%" and
      tables.long_items_value("keys", "group_steps", "achieved_occupancy_pct") == "50%" and
      tables.long_items_value("keys", "group_steps", "barrier_stall") == "1.5 cycles" and
      tables.long_items_value("keys", "group_steps", "registers") == "64",
      "two launches of 1 and 3 ms: 4 ms, 8 GB in 4 ms, busy 90% and 50% weighted by time: 60%, "
      "waits of 1 and 2 cycles a launch: 1.5")
check(tables.long_items_ratio("group_steps", "ms") == "1.00x" and
      tables.long_items_ratio("group_steps", "bytes") == "1.00x" and
      tables.long_items_value("keys", "block_sort", "ms") == tables.NOT_MEASURED,
      "keys and indices over keys alone; a kernel not recorded")
check(tables.word_issue_ratio("mine", 1024) == "4.0x" and
      tables.word_issue_ratio("mine", 128) == tables.NOT_MEASURED,
      "twice the instructions at half the issue rate: 4.0x; a length not recorded")
# The profile of the v13_passes experiment (passes_profile_table) on a made-up sort of 2^4 keys
# whose group is 2^2 keys (the last launch's stride is 2): block_sort of 3 copies (a copy is
# 1 ms), two merges up to the group of 1 copy each, global passes of 1 and 1.5 copies, and the
# pass that ends the last merge (strides below the group) of 1 copy. Of the last
# merge, the global pass moves twice the array's read and write through DRAM, 60% busy, with 8
# shared-memory wavefronts for the 16 keys; its merge below the group (90% busy) is left out.
class Profile:
    def launches(self, stage, q):
        return [{"kernel": kernel, "size": size, "stride": stride, "duration_ns": ns}
                for kernel, size, stride, ns in [
                    ("block_sort", "2", "1", 3e6), ("group_steps", "2", "1", 1e6),
                    ("group_steps", "4", "2", 1e6), ("group_steps", "8", "4", 1e6),
                    ("group_steps", "16", "8", 1.5e6), ("group_steps", "16", "2", 1e6)]]

    def copy_ms(self, stage, q):
        return 1.0

    def metric_rows(self, stage, q, kernel):
        return [{"stride": stride, "dram_read_bytes": 32 * times, "dram_write_bytes": 32 * times,
                 "dram_pct_of_peak": busy, "shared_wavefronts": 8}
                for stride, times, busy in [("8", 4, 60), ("2", 1, 90)]]

    def source(self):
        return "made up"


made_up["v13_passes"] = [{"program": "mine", "variant": "mine", "n": "16",
                                   "sort_ms": "9.5"}]
check(tables.passes_profile_table(Profile(), q=4).splitlines()[2] ==
      "| mine | 6 | 9.50 | 3.00 | 2: 2.00 | 1.00 .. 1.50 | 1.00 | 2.00 | 60% | 0.50 |",
      "block_sort 3 copies; 2 merges up to the group, 2 copies; global passes 1 .. 1.5 copies; "
      "the pass that ends the last merge 1 copy; "
      "the last merge's global pass: DRAM twice the array, 60% busy, half a wavefront a key")
check(tables.range_text([1.0, 1.004], "{:.2f}") == "1.00" and
      tables.range_text([1.0, 1.5], "{:.0f}%") == "1% .. 2%", "one value, or a range")
# A mapping experiment of five programs, the most a table's columns name ("fifth / first"): each
# one's time over the first's, the stage as built, in a column named by its place, and any two by
# their names (segment_ratio).
made_up["made_up_mapping"] = [
    {"variant": variant, "segment": "2", "sort_ms": ms, "device": "a GPU", "date": "2026-11-26"}
    for variant, ms in [("a", "1.0"), ("b", "2.0"), ("c", "0.5"), ("d", "1.5"), ("e", "0.25")]]
mapping = tables.mapping_table("made_up_mapping").splitlines()
check(mapping[0].endswith("| second / first | third / first | fourth / first | fifth / first |")
      and mapping[2].endswith("| 2.00 | 0.50 | 1.50 | 0.25 |"),
      "five programs: four ratios over the first, the fifth's column named")
check(tables.mapping_ratio(1, "made_up_mapping", 4) == 0.25 and
      tables.segment_ratio("made_up_mapping", "e", "b", 1) == 0.125 and
      tables.mapping_ratio(1, "made_up_mapping", 4, base=1) == 0.125 and
      tables.mapping_ratio(1, "made_up_mapping", 1, base=5) is None and
      tables.mapping_ratio(2, "made_up_mapping", 4, base=1) is None,
      "the fifth over the first, over the second by name and by place (mapping-over); none over "
      "a sixth program or at a length not run")
# Chapter 19's v17_argsorts: on uniform keys a row per array length, v17's argsort over its keys
# and over v16's, torch.sort's over v17's; then a row per other distribution and length, each
# argsort over v16's. A length one program lacks leaves its cells "not measured" and its ratios
# blank.
made_up["v17_argsorts"] = [
    {"variant": variant, "segment": segment, "sort_ms": ms, "device": "a GPU",
     "date": "2026-11-30"}
    for variant, segment, ms in [
        ("argsort, v17", "1024", "2.0"), ("argsort, v16", "1024", "3.0"),
        ("argsort, v17_range_digits", "1024", "1.5"), ("keys, v17", "1024", "1.0"),
        ("argsort, v17_vote_first", "1024", "2.5"),
        ("torch.sort", "1024", "6.0"), ("argsort, v17", "64", "0.5"),
        ("argsort, v17, few-unique", "128", "4.0"), ("argsort, v16, few-unique", "128", "2.0"),
        ("argsort, v17_range_digits, few-unique", "128", "1.0"),
        ("argsort, v17_vote_first, few-unique", "128", "3.0"),
        ("argsort, v17, sorted", "4096", "3.0"), ("argsort, v16, sorted", "4096", "3.0")]]
argsorts = tables.v17_argsorts_table().splitlines()
check(argsorts[2] == "| 2^6 | not measured | 0.5000 | not measured | not measured | not measured "
      "| not measured |  |  |  |" and
      argsorts[3] == "| 2^10 | 1.00 | 2.00 | 3.00 | 1.50 | 2.50 | 6.00 | 2.00 | 0.67 | 3.00 |" and
      argsorts[7] == "| few-unique | 2^7 | 4.00 | 2.00 | 1.00 | 3.00 | 2.00 | 0.50 | 1.50 |" and
      argsorts[8] == "| sorted | 2^12 | 3.00 | 3.00 | not measured | not measured | 1.00 |  |  |",
      "v17_argsorts: uniform keys by length, then the other distributions over v16's argsort")
segment_time = generate.INLINE_VALUES["segment-time"]
check(tables.segment_ratio("v17_argsorts", "argsort, v17", "keys, v17", 10) == 2.0 and
      segment_time(["v17_argsorts", "argsort, v17, few-unique", "7"], None, None) == "4.00 ms"
      and segment_time(["v17_argsorts", "argsort, v17", "7"], None, None) ==
      tables.NOT_MEASURED,
      "chapter 19's markers read v17_argsorts by its variants' names, a time by its length")
# Flips against directions, and against the mirrored network: two experiments each, each its
# stage as built first, side by side; an array length only one of them measured leaves the
# other's cells "not measured". Each table reads its own two experiments.
for name, times in (("v8_directions", [("2", "1.0", "1.5"), ("4", "2.0", "3.0")]),
                    ("v9_directions", [("2", "4.0", "2.0")]),
                    ("v8_mirrored", [("2", "1.0", "0.9")]),
                    ("v9_mirrored", [("2", "4.0", "3.0"), ("8", "8.0", "6.0")])):
    made_up[name] = [
        {"variant": variant, "segment": segment, "sort_ms": ms, "device": "a GPU",
         "date": "2026-11-26"}
        for segment, flips, other in times
        for variant, ms in (("flips (as built)", flips), (name, other))]
directions = tables.flips_table("directions").splitlines()
check(directions[2] == "| 2^1 | 1.00 | 1.50 | 1.50 | 4.00 | 2.00 | 0.50 |" and
      directions[3].startswith("| 2^2 | 2.00 | 3.00 | 1.50 | not measured |"),
      "each variant over its own stage's time, v8 then v9")
mirrored = tables.flips_table("mirrored").splitlines()
check(mirrored[0].startswith("| array length | v8 flips ms | v8 mirrored ms |") and
      mirrored[2] == "| 2^1 | 1.00 | 0.9000 | 0.90 | 4.00 | 3.00 | 0.75 |" and
      mirrored[3].startswith("| 2^3 | not measured | not measured |  |") and
      mirrored[3].endswith("| 8.00 | 6.00 | 0.75 |") and len(mirrored) == 6,
      "the mirrored table reads the mirrored experiments only")
made_up["directions"] = [
    {"stage": stage, "variant": variant, "segment": "1024", "kernel": kernel,
     "instructions": instructions, "alu_pipe_pct": "90"}
    for stage, variant, kernel, instructions in [
        ("v8_batched", "flips (as built)", "block_sort", "100"),
        ("v8_batched", "directions in the compares", "block_merge", "999"),
        ("v8_batched", "directions in the compares", "block_sort", "120"),
        ("v8_batched", "mirrored network, no flips", "block_sort", "90"),
        ("v9_argsort", "flips (as built)", "block_sort", "400"),
        ("v9_argsort", "directions in the compares", "block_sort", "200")]]
check(tables.direction_ratio("v8_batched", 1024, "instructions") == "1.20" and
      tables.direction_ratio("v8_batched", 1024, "instructions", "mirrored") == "0.90" and
      tables.direction_ratio("v9_argsort", 1024, "instructions", "mirrored") ==
      tables.NOT_MEASURED and
      tables.direction_ratio("v9_argsort", 1024, "instructions") == "0.50" and
      tables.direction_value("v8_batched", "flips", 1024, "alu_pipe_pct") == "90%" and
      tables.direction_ratio("v8_batched", 128, "instructions") == tables.NOT_MEASURED,
      "block_sort's figures of each stage, directions over flips; another kernel ignored")
# Chapter 16's kinds of pass (span_kind) on a made-up v14_span sort: each launch by its merge
# size, first stride and steps, and the table of their copies (a copy is 1 ms).
class SpanProfile:
    def launches(self, stage, q):
        return [{"kernel": kernel, "size": size, "stride": stride, "steps": steps,
                 "duration_ns": ns}
                for kernel, size, stride, steps, ns in [
                    ("block_sort", "2", "1", "66", 3e6),
                    ("group_steps", "4096", "2048", "39", 1.8e6),
                    ("group_steps", "32768", "16384", "7", 1.0e6),
                    ("group_steps", "32768", "128", "14", 1.1e6),
                    ("group_steps", "65536", "8192", "14", 1.2e6),
                    ("group_steps", "131072", "65536", "9", 1.3e6),
                    ("group_steps", "131072", "256", "9", 1.0e6)]]

    def copy_ms(self, stage, q):
        # A variant's copies are counted against its own copy time (2 ms here), and so are
        # those at 2^16 (4 ms).
        return 4.0 if q == 16 else 2.0 if stage == "v14_tile4096" else 1.0

    def source(self):
        return "made up"


kinds = [tables.span_kind(launch) for launch in SpanProfile().launches("v14_span", 17)]
check(kinds == [tables.SPAN_KINDS[k] for k in (0, 1, 2, 3, 4, 2, 4)],
      "block_sort; the merges up to 2^14; a global pass (stride 2^14); a tail from 2^7 with a "
      "head (14 steps); a tail from 2^13 that fills the group (14 steps, no head); a global "
      "pass; the last tail (9 steps)")
span = tables.span_profile_table(SpanProfile(), q=17).splitlines()
check(span[2] == "| block_sort | 1 | 66 | 3.00 |" and
      span[4] == "| global strides (the first 2^14 or more) | 2 | 7 .. 9 | 1.00 .. 1.30 |" and
      span[6].endswith("| 2 | 9 .. 14 | 1.00 .. 1.20 |") and
      tables.span_copies(SpanProfile(), 3, q=17) == "1.10" and
      tables.span_copies(SpanProfile(), 3, "v14_tile4096", q=17) == "0.55",
      "each kind's launches, steps and copies; one launch, one value; a variant's own copy")
span_copies = generate.INLINE_VALUES["span-copies"]
check(span_copies(["3"], None, SpanProfile()) == "1.10" and
      span_copies(["3", "v14_tile4096"], None, SpanProfile()) == "0.55" and
      span_copies(["3", "v14_span", "16"], None, SpanProfile()) == "0.28",
      "the span-copies value: at 2^27 by default, of the stage or variant it names, at the size "
      "it names")
# The group of a sort from v14 on is where its pass after block_sort stops: 12 + 13 + 14 = 39
# steps from the merge of 4096 keys reach the merge of 2^14; 13 + 14 + 15 = 42 steps from 8192
# reach 2^15. Its passes by kind: the pass after block_sort, those of strides of a group or more,
# and those that end a merge above the group.
check(tables.merged_group(SpanProfile().launches("v14_span", 27)) == 1 << 14 and
      tables.merged_group([{}, {"size": "8192", "steps": "42"}]) == 1 << 15 and
      tables.merged_group([{}, {"size": "8192", "steps": "27"}]) == 1 << 14,
      "the group is the last merge that the pass after block_sort reaches")
check([tables.group_pass_copies(SpanProfile(), "v14_span", kind)
       for kind in tables.GROUP_PASS_KINDS] == [[1.8], [1.0, 1.3], [1.1, 1.2, 1.0]] and
      tables.group_pass_copies(SpanProfile(), "v14_tile4096", "global") == [0.5, 0.65] and
      generate.group_copies(SpanProfile(), ["v14_span", "ends", "max"]) == "1.20" and
      generate.group_copies(SpanProfile(), ["v14_span", "global", "min"]) == "1.00",
      "the passes by kind in copies: after block_sort, global strides, the ends of merges above "
      "the group; the group-copies value takes their least or most")


# The pass counts, from the stages' own launches_per_sort (network_dump passes), and v14's floor
# from a tour that has it at 2^29 only.
class SpanTour:
    def floor(self, stage, q):
        return 44.0 if (stage, q) == ("v14_span", 29) else None

    def source(self):
        return "made up"


passes = tables.span_passes_table(network_dump, SpanTour(), sizes=(20, 29)).splitlines()
check(passes[2] == "| 2^20 | 16 | 11 | not measured |" and
      passes[3] == "| 2^29 | 40 | 31 | 44.00 |",
      "v13 makes 16 and 40 passes, v14 11 and 31; the floor where the tour has it")
# v14's rule for a merge's last pass against v14_tail6's, from both plans as network_dump
# compiles them (at 2^22: 15 passes against 14).
check(tables.tail_rule_text(network_dump) == "one pass more at 2^22 and 2^23, and none at the "
      "other sizes from 2^16 to 2^30" and
      tables.tail_rule_text(network_dump, 16, 21) == "no pass at any size from 2^16 to 2^21",
      "what v14's tail rule costs: a pass at 2^22 and 2^23, none elsewhere")
# The stages on many arrays (segment_stages) on a made-up H200 run: at 8 keys v8 wins and beats
# every rival; at 1024 v8 wins among the stages but DeviceSegmentedSort beats it; at 2^20 v15
# wins. The argsorts apart: v9 at 8, v15 at 1024 and 2^20, where the packed radix sort wins.
def segment_row(variant, s, sort_ms):
    return {"variant": variant, "segment": str(1 << s), "sort_ms": str(sort_ms),
            "device": "NVIDIA H200", "nvidia_driver": "1", "cuda_runtime": "13.0",
            "date": "2026-11-28", "launches": str(s)}


made_up = {"copy": [{"n": str(2**20), "sort_ms": "0.1"}, {"n": str(2**27),
                                                                   "sort_ms": "0.5"}],
           "segment_stages": [
               segment_row(variant, s, ms) for variant, times in (
                   ("v8_batched", (1, 2, 10)), ("v13_any_bits", (1.5, 2.5, 8)),
                   ("v14_span", (1.4, 2.4, 6)), ("v15_tile4096", (1.2, 2.2, 5)),
                   ("cub_segmented", (3, 1.9, 20)), ("cub_packed_radix", (9, 9, 7)),
                   ("torch.sort", (5, 4, None)), ("v9_argsort --values", (2, 4, 30)),
                   ("v15_tile4096 --values", (3, 3, 20)),
                   ("cub_packed_radix --values", (10, 10, 10)))
               for s, ms in zip((3, 10, 20), times) if ms is not None]}
made_up["short_stages"] = [
    {"stage": stage, "segment": "8", "l2_write_sectors": sectors, "duration_ns": ns}
    for stage, sectors, ns in (("v8_batched", "16000000", "200000"),
                               ("v15_tile4096", "32000000", "300000"))]
tables.recorded_rows = lambda name: made_up.get(name, [])
fact, fact_over = generate.INLINE_VALUES["fact"], generate.INLINE_VALUES["fact-over"]
check(fact(["short_stages", "stage", "v15_tile4096", "8", "l2_write_sectors"], None,
           None) == "32 million" and
      fact_over(["short_stages", "stage", "v15_tile4096", "v8_batched", "8", "duration_ns"],
                None, None) == "1.50x" and
      fact(["short_stages", "stage", "v15_tile4096", "1024", "duration_ns"], None,
           None) == tables.NOT_MEASURED,
      "the fact values: one column of a named GPU's record, one row over another; a length not "
      "recorded")
keys = tables.segment_stages_table().splitlines()
argsorts = tables.segment_stages_table(values=True).splitlines()
check(keys[2] == "| 2^3 (8) | 1.00 | - | - | - | - | 1.50 | 1.40 | 1.20 | - | - | - | - | - | - | - | - | - | 3.00 | "
      "9.00 | 5.00 | "
      "`v8_batched` | "
      "2.0 | DeviceSegmentedSort: 3.00x |" and
      keys[3].endswith("| `v8_batched` | 4.0 | DeviceSegmentedSort: 0.95x |") and
      keys[4] == "| 2^20 (1048576) | 10.00 | - | - | - | - | 8.00 | 6.00 | 5.00 | - | - | - | - | - | - | - | - | - | "
      "20.00 | 7.00 | "
      "- | `v15_tile4096` | 10.0 | packed DeviceRadixSort: 1.40x |" and
      "DATA segment_stages" in keys[6] and "NVIDIA H200" in keys[6],
      "segment_stages keys: the fastest stage, in copies of the H200's copy, and the fastest "
      "rival over it; torch.sort's missing length as -")
check(argsorts[2].endswith("| `v9_argsort` | 4.0 | torch.sort: 2.50x |") and
      argsorts[3].endswith("| `v15_tile4096` | 6.0 | torch.sort: 1.33x |") and
      argsorts[4].endswith("| `v15_tile4096` | 40.0 | packed DeviceRadixSort::SortPairs: 0.50x |"),
      "segment_stages argsorts: the argsorts against the argsorts' rivals only")
check(tables.segment_stages_faster_up_to() == "2^3" and
      tables.segment_stages_faster_up_to(values=True) == "2^10" and
      tables.segment_stages_fastest_at("v8_batched") == "8 and 1024" and
      tables.segment_stages_fastest_at("v15_tile4096") == "2^20" and
      tables.segment_stages_fastest_at("v15_tile4096 --values", values=True) == "1024 and 2^20",
      "the length up to which the fastest stage wins at every length; where each stage wins")
check(tables.segment_stages_behind("v8_batched", 3, 12) == 1.0 and
      tables.segment_stages_behind("v8_batched", 3, 20) == 2.0 and
      tables.segment_stages_behind("v15_tile4096", 3, 10) == 1.2 and
      tables.segment_stages_behind("v15_tile4096", 20, 20) == 1.0 and
      tables.segment_stages_behind("v8_batched", 11, 12) is None and
      tables.segment_stages_beaten("v8_batched", 3, 20) == "`v15_tile4096` at 2^20" and
      tables.segment_stages_beaten("v15_tile4096", 3, 20) == "`v8_batched` at 8 and 1024" and
      tables.segment_stages_beaten("v8_batched", 3, 12) == "none" and
      tables.segment_stages_beaten("v8_batched", 11, 12) == tables.NOT_MEASURED and
      tables.segment_stages_behind("v15_tile4096 --values", 3, 20) is None and
      tables.segment_stages_beaten("v15_tile4096 --values", 3, 20) == tables.NOT_MEASURED and
      # With `earlier`, a stage is set against the stages up to it alone: v8 against none.
      tables.segment_stages_fastest_at("v8_batched", earlier=True) == "8, 1024 and 2^20" and
      tables.segment_stages_behind("v8_batched", 3, 20, earlier=True) == 1.0 and
      tables.segment_stages_beaten("v8_batched", 3, 20, earlier=True) == "none" and
      tables.segment_stages_beaten("v15_tile4096", 3, 20, earlier=True) ==
      "`v8_batched` at 8 and 1024",
      "how far one stage is behind the fastest at its worst length of a range: 1.0 where it is "
      "the fastest at each, its largest ratio elsewhere, None for a range with no length measured "
      "or for an argsort; the stages faster than it and where, 'not measured' where it has none")
# Chapter 20's table (stage_pair_table, as chapter 21's) reads the same run: without v18's rows
# it is not measured; with them a row per length of v18's keys, v18 over v17 and over v8, and
# the argsorts where they ran (here at 1024 alone: the other rows leave them "-" and their
# ratios blank).
check(tables.stage_pair_table("v18_mirrored", "v17_prefix_argsort") == tables.NOT_MEASURED + "\n",
      "chapter 20's table: not measured before v18 has run")
made_up["segment_stages"] += [
    segment_row(variant, s, ms) for variant, times in (
        ("v17_prefix_argsort", (1.25, 2.5)), ("v18_mirrored", (1.5, 2.0)),
        ("v17_prefix_argsort --values", (None, 5.0)), ("v18_mirrored --values", (None, 4.0)))
    for s, ms in zip((3, 10), times) if ms is not None]
mirrored = tables.stage_pair_table("v18_mirrored", "v17_prefix_argsort").splitlines()
check(mirrored[0].startswith("| array length L | v8 keys ms | v17 keys ms | v18 keys ms | "
                             "v18 / v17 | v18 / v8 | v17 argsort ms |") and
      mirrored[2] == "| 2^3 (8) | 1.00 | 1.25 | 1.50 | 1.20 | 1.50 | - | - |  |  |  |" and
      mirrored[3] == "| 2^10 (1024) | 2.00 | 2.50 | 2.00 | 0.80 | 1.00 | 5.00 | 4.00 | 0.80 | 2.00 "
      "| 1.00 |" and "DATA segment_stages" in mirrored[5],
      "chapter 20's table: v18's keys over v17's and v8's, its argsort over v17's and over its "
      "keys, torch.sort's over it")
made_up["segment_stages"] = [row for row in made_up["segment_stages"]
                             if row["variant"].split()[0] not in ("v17_prefix_argsort",
                                                                   "v18_mirrored")]
# v25 as one process and as two under mpirun (chapter 27) on a made-up run: the ranks' rows are
# ranks_runs' alone, and their time over the one process's at 2^31 on two GPUs (104 / 100) and
# over 2^30 on one GPU (104 / 80).
def gpus_row(variant, gpus, q, sort_ms):
    return {"program": "v25_multi_gpu", "variant": variant, "n": str(2**q), "sort_ms": sort_ms,
            "device": f"{gpus} x NVIDIA H200" if gpus > 1 else "NVIDIA H200"}


made_up["gpus"] = [gpus_row("1 GPU", 1, 30, "80"), gpus_row("2 GPUs", 2, 31, "100"),
                   gpus_row(course.ranks_variant(2), 2, 31, "104")]
check(tables.gpus_runs()[("v25_multi_gpu", 2, 31)]["sort_ms"] == "100" and
      list(tables.ranks_runs()) == [31] and
      tables.ranks_value("ratio", 31) == "1.04x" and
      tables.ranks_value("over-one", 31) == "1.30x" and
      tables.ranks_value("ratio", 30) == tables.NOT_MEASURED,
      "the rank form's rows apart from the one process's; its time over the one process's on "
      "two GPUs and over half the keys on one; a size it did not run")


# The exchanges of the sort across P GPUs, eight to a machine, that pair GPUs of two machines,
# counted from the network's schedule (merge span 2 .. P, rank stride span / 2 .. 1; ranks
# consecutive on a machine) against exchanges_across.
def counted_exchanges(gpus, per_node):
    pairs = [(span, stride) for span in (2**k for k in range(1, gpus.bit_length()))
             for stride in (span >> j for j in range(1, span.bit_length()))]
    across = sum(1 for _, stride in pairs
                 if any(g // per_node != (g ^ stride) // per_node for g in range(gpus)))
    return len(pairs), across


check(all(tables.exchanges_across(gpus, 8) == counted_exchanges(gpus, 8)
          for gpus in (1, 2, 4, 8, 16, 32, 64)) and
      tables.exchanges_across(64, 8) == (21, 6),
      "the exchanges across machines: 1, 3 and 6 of 10, 15 and 21 at 16, 32 and 64 GPUs")
check(generate.INLINE_VALUES["segment-field"](
          ["segment_stages", "v15_tile4096", "20", "launches"], None, None) == "20",
      "a column of one program's record at one length")
# A made-up record of two chunks of one experiment: its rows in the manifest's order, each with
# its chunk, and the tables' data line naming both files.
with tempfile.TemporaryDirectory() as results:
    os.makedirs(os.path.join(results, "made_up"))
    # Three chunks of the tour: two whose rows measured the code as it is, and one with a row of
    # code that has changed since (a fingerprint not the copy baseline's), left out whole.
    code = records.fingerprint("copy")
    for chunk, rows in (("tour-b", [("copy", "2", code)]), ("tour-a", [("copy", "1", code)]),
                        ("tour-c", [("copy", "3", code), ("copy", "4", "0123456789ab")])):
        course.write_csv(os.path.join(results, "made_up", f"{chunk}.csv"),
                         [{"program": program, "n": n, "code": fingerprint}
                          for program, n, fingerprint in rows])
    with open(os.path.join(results, "made_up", records.MANIFEST), "w") as file:
        json.dump({"gpu": "a GPU", "chunks": {
            name: {"files": {"tour": f"{name}.csv"}, "covers": name}
            for name in ("tour-b", "tour-a", "tour-c")}}, file)
    tables.RECORD = records.Record("made_up", results)
    tables.recorded_rows, tables.data_files = recorded_rows, data_files
    found = tables.data_files("tour").split("`, `")
    check([row["n"] + row["chunk"] for row in tables.recorded_rows("tour")] ==
          ["2tour-b", "1tour-a"] and len(found) == 2 and
          found[0].endswith("made_up/tour-b.csv") and found[1].endswith("made_up/tour-a.csv`") and
          tables.RECORD.dropped == {"tour": ["tour-c"]} and
          tables.RECORD.stale == {"tour": {"copy": 1}} and
          "tour-c" in tables.RECORD.stale_note() and
          tables.data_files("segments") == "(not recorded)" and
          tables.experiment_tool("v15_tile") == "tools/experiments.py v15_tile",
          "a record's experiment: its current chunks' rows and files in the manifest's order; a "
          "chunk with a row of changed code left out whole, and named")

# The record's budget: the GPU's sorts of one chunk against its seconds (each row's median sort
# times its timed runs and its warm-up), and the default record's minutes on one GPU.
with tempfile.TemporaryDirectory() as results:
    os.makedirs(os.path.join(results, "made_up"))
    code = records.fingerprint("copy")
    course.write_csv(os.path.join(results, "made_up", "tour-29.csv"),
                     [{"program": "copy", "n": "1", "reps": "3", "sort_ms": "1000", "code": code},
                      {"program": "copy", "n": "2", "reps": "1", "sort_ms": "500", "code": code}])
    with open(os.path.join(results, "made_up", records.MANIFEST), "w") as file:
        json.dump({"gpu": "a GPU", "chunks": {"tour-29": {
            "files": {"tour": "tour-29.csv"}, "covers": "tour-29", "seconds": 60}}}, file)
    made_up = records.Record("made_up", results)
    catalog = [chunk for chunk in generate.recorder.CHUNKS if not chunk.optional]
    others = sum(chunk.seconds for chunk in catalog if chunk.name != "tour-29" and chunk.gpus == 1)
    toolkit = sum(chunk.seconds for chunk in catalog if chunk.gpus == 0)
    check(generate.chunk_sorting(made_up, "tour-29") == "5 s of its 60 s" and
          abs(generate.record_estimate(made_up) - (others + 60) / 60) < 1e-9 and
          toolkit > 0 and abs(generate.record_estimate(made_up, 0) - toolkit / 60) < 1e-9,
          "a chunk's sorting seconds against its own; the default record's minutes on one GPU "
          "(a timed chunk's seconds in place of the catalog's estimate) and apart from them those "
          "of the chunks that need no GPU")

# Claims (c: blocks): a sentence kept as written while its comparison holds on the record. The
# values below read a made-up tour, with no record behind it.
tables.RECORD = None


class ClaimTour:
    def get(self, program, q):
        return {"sort_ms": "1"} if self.time(program, q) else None

    def sizes(self):
        return [20, 21, 22]

    def time(self, program, q):
        return {"fast": {20: 2.0, 21: 1.0, 22: 1.0}, "slow": {20: 1.5, 21: 2.0, 22: 3.0}}.get(
            program, {}).get(q)

    def speedup(self, faster, slower, q):
        return self.time(slower, q) / self.time(faster, q)


class ClaimBuild:
    tour, profile = ClaimTour(), None


build = ClaimBuild()
check(generate.claim_number("2^21") == 2**21 and generate.claim_number("2.38x") == 2.38 and
      generate.claim_number("658.1 ms") == 658.1 and generate.claim_number("1,024") == 1024 and
      generate.claim_number("no size") is None, "the numbers a value states")
check(generate.check_claim("c:v:speedup:fast:slow:22 ge 3", build) == (True, "3.00x ge 3") and
      generate.check_claim("c:v:speedup:fast:slow:20 gt 1", build)[0] is False and
      generate.check_claim("c:v:tour-faster-from:fast:slow:20 eq 2^21", build) ==
      (True, "2^21 eq 2^21") and
      generate.check_claim("c:v:tour-faster-from:slow:fast:20 ne no size", build)[0] is False and
      generate.check_claim("c:v:speedup:fast:slow:22 ge 3 & v:speedup:fast:slow:22 le 3.01",
                           build) == (True, "3.00x ge 3; 3.00x le 3.01") and
      generate.check_claim("c:v:speedup:fast:slow:22 ge 3 & v:speedup:fast:slow:20 gt 1",
                           build) == (False, "0.75x gt 1"),
      "a claim compares two values, or a value and a literal, as numbers or as words; "
      "comparisons joined by & must all hold")
check(generate.check_claim("c:v:speedup:fast:slow:22 near 3.03", build)[0] is True and
      generate.check_claim("c:v:speedup:fast:slow:22 near 3.04", build)[0] is False,
      "near: within 1% of each other (3.00 and 3.03 are, 3.00 and 3.04 are not)")
try:
    generate.check_claim("c:v:time:fast:19 lt 2", build)
    check(False, "a claim whose value is not measured is not checked")
except KeyError:
    check(True, "a claim whose value is not measured is not checked")


class ClaimBuilds:
    fallbacks, path, false_claims, unchecked_claims = [], "docs/made_up.md", [], []

    def use(self, record=None):
        build.record = records.Record("none", tempfile.gettempdir())
        build.asked = set()
        return build


claim_builds = ClaimBuilds()
kept = generate.claim("c:v:speedup:fast:slow:22 ge 3", "", "three times faster", claim_builds)
marked = generate.claim("c:v:speedup:fast:slow:20 gt 1", "", "faster at 2^20", claim_builds)
check(kept == "three times faster" and marked.startswith("[Not so on record none: 0.75x gt 1.] ")
      and claim_builds.false_claims == ["docs/made_up.md: on record none, 0.75x gt 1: "
                                        "'faster at 2^20'"],
      "a claim that holds keeps its sentence; one that does not is named and marked")


# A claim whose values no record measured (2^19 of `fast`, on a record that lacks runs) is
# listed and marked after its sentence, with a link to what that means from the file it is in;
# built again, one mark.
class LackingBuilds(ClaimBuilds):
    def use(self, record=None):
        found = ClaimBuilds.use(self, record)
        found.record.lacking = lambda touched: ["made up"]
        return found


lacking = LackingBuilds()
unchecked = generate.claim("c:v:time:fast:19 lt 2", "", "quick at 2^19", lacking)
lacking.path = os.path.join("docs", "notes", "made_up.md")
again = generate.claim("c:v:time:fast:19 lt 2", "", unchecked, lacking)
lacking.path = "README.md"
top = generate.claim("c:v:time:fast:19 lt 2", "", unchecked, lacking)
check(unchecked == "quick at 2^19<sup>[unchecked](results/README.md#claims-not-yet-checked)</sup>"
      and again == "quick at 2^19<sup>[unchecked](../results/README.md#claims-not-yet-checked)"
      "</sup>" and top.endswith("(docs/results/README.md#claims-not-yet-checked)</sup>") and
      top.count("<sup>") == 1 and lacking.unchecked_claims[-3:] ==
      ["docs/made_up.md: c:v:time:fast:19 lt 2",
       os.path.join("docs", "notes", "made_up.md") + ": c:v:time:fast:19 lt 2",
       "README.md: c:v:time:fast:19 lt 2"],
      "a claim no record could check is listed and marked once, linking from its file to what "
      "the mark means")

# The tour's crossings and slower sizes read every size of their range where either program
# ran: one that lacks the other there, or a range where neither ran, is a want of runs.
class GappedTour:
    def sizes(self):
        return [10, 11, 12]

    def time(self, program, q):
        return {("a", 10): 1.0, ("b", 10): 2.0, ("a", 11): 3.0, ("b", 11): 2.0,
                ("a", 12): 1.0}.get((program, q))


gapped = GappedTour()
wants = []
for compute in (lambda: tables.tour_slower_sizes(gapped, "a", "b", 10, 12),
                lambda: tables.tour_overtaking_size(gapped, "a", "b", 10),
                lambda: tables.tour_slower_sizes(gapped, "a", "c", 13, 20)):
    try:
        compute()
        wants.append(False)
    except KeyError:
        wants.append(True)


# ... and a record that holds the tour only in part (a chunk of it stale or not made), where a
# crossing found in the rest can be wrong.
class PartTour:
    name = "part"

    def incomplete(self, experiments):
        return list(experiments)


saved_record, tables.RECORD = tables.RECORD, PartTour()
try:
    tables.tour_slower_sizes(gapped, "a", "b", 10, 11)
    wants.append(False)
except KeyError:
    wants.append(True)
tables.RECORD = saved_record
check(wants == [True, True, True, True] and
      tables.tour_slower_sizes(gapped, "a", "b", 10, 11) == "2^11",
      "the tour's slower sizes and crossings refuse a range with a program missing at a size, "
      "or with no runs at all, and a record that holds the tour in part")

# Programs run in turns (turns_table, turns_value) on made-up runs of segment_spread: at 8 keys an
# array v8's median run is the fastest of the stages and the runs overlap v22's; at 16 every run of
# v22 beats every run of the other stages. The variant's runs serve a table that judges it.
def turn_row(program, segment, run, sort_ms):
    return {"program": program, "variant": f"run {run}", "segment": str(segment), "n": str(2**27),
            "sort_ms": str(sort_ms), "reps": "5", "device": "NVIDIA H200", "nvidia_driver": "1",
            "cuda_runtime": "13.0", "date": "2026-11-30", "validation": "pass"}


turn_times = {"v22_slot_offsets": ((1.0, 1.02, 1.01), (1.0, 1.0, 1.0)),
              "v8_batched": ((0.99, 1.03, 1.0), (1.2, 1.1, 1.3)),
              "v13_any_bits": ((1.1, 1.1, 1.1), (1.1, 1.1, 1.1)),
              "v14_span": ((1.05, 1.06, 1.07), (1.01, 1.02, 1.03)),
              "v19_coalesced_store": ((1.2, 1.2, 1.2), (1.2, 1.2, 1.2)),
              "v22_store_vectors": ((0.9, 0.91, 0.92), (1.0, 1.01, 1.02))}
turn_rows = [turn_row(program, segment, run + 1, sort_ms)
             for program, times in turn_times.items()
             for segment, runs_ in zip((8, 16), times) for run, sort_ms in enumerate(runs_)]


def in_empty_record(make):
    """make() with a record that holds no chunk as the record tables read (the caption's
    data files then name none)."""
    with tempfile.TemporaryDirectory() as results:
        os.makedirs(os.path.join(results, "empty"))
        with open(os.path.join(results, "empty", records.MANIFEST), "w") as file:
            json.dump({"gpu": "none", "chunks": {}}, file)
        saved, tables.RECORD = tables.RECORD, records.Record("empty", results)
        try:
            return make()
        finally:
            tables.RECORD = saved


saved_rows, tables.recorded_rows = tables.recorded_rows, lambda name: (
    turn_rows if name == "segment_spread" else [])
turns = in_empty_record(lambda: tables.turns_table(tables.SEGMENT_SPREAD)).splitlines()
variant_turns = in_empty_record(lambda: tables.turns_table(tables.Turns(
    "segment_spread", "v22_store_vectors", ["v8_batched"], "segment", "array length L",
    "other program"))).splitlines()
check(tables.turns_where("segment_spread", "overlap") == "8" and
      tables.turns_where("segment_spread", "faster") == "16" and
      tables.turns_where("segment_spread", "slower") == "no length",
      "programs in turns: the lengths of each verdict of the judged program, 'no length' for one "
      "it never got")
# Judged the other way, v8 has the faster median at 8 though the runs overlap there, and is
# behind at 16: the median decides, not the verdict.
saved_turns = tables.TURNS["segment_spread"]
tables.TURNS["segment_spread"] = tables.Turns("segment_spread", "v8_batched", ["v22_slot_offsets"],
                                              "segment", "array length L", "other program")
v8_behind = tables.turns_behind("segment_spread")
tables.TURNS["segment_spread"] = saved_turns
check(tables.turns_behind("segment_spread") == "8" and v8_behind == "16",
      "programs in turns: the lengths where the judged program's median run was not the fastest "
      "(v22 behind at 8, where v8's median beat it though their runs overlap; v8 behind at 16)")
check(tables.turns_value("segment_spread", 3) == "0.99x (overlap)" and
      tables.turns_value("segment_spread", 4) == "1.02x (faster)" and
      tables.turns_value("segment_spread", 4, verdict_only=True) == "faster" and
      tables.turns_value("segment_spread", 5) == tables.NOT_MEASURED and
      turns[0].startswith("| array length L | v22_slot_offsets ms | v8_batched ms |") and
      turns[2] == "| 2^3 | 1.00 .. 1.02 | 0.9900 .. 1.03 | 1.10 .. 1.10 | 1.05 .. 1.07 | "
                  "1.20 .. 1.20 | v8_batched: 0.99x, overlap |" and
      turns[3].endswith("| v14_span: 1.02x, faster |") and "3 times" in turns[5],
      "programs in turns: the fastest and slowest run of each, the judged program against the "
      "fastest rival's median, faster only where every run beat every run")
# Two programs of such an experiment against each other, either one's median, and a variant
# (not a stage) named whole where the table judges it.
check(tables.turns_against("segment_spread", "v22_slot_offsets", "v8_batched", 3) ==
      "0.99x (overlap)" and
      tables.turns_against("segment_spread", "v22_slot_offsets", "v8_batched", 4) ==
      "1.20x (faster)" and
      tables.turns_against("segment_spread", "v8_batched", "v22_slot_offsets", 4,
                           verdict_only=True) == "slower" and
      tables.turns_against("segment_spread", "v22_slot_offsets", "v8_batched", 6) ==
      tables.NOT_MEASURED and
      tables.turns_median("segment_spread", "v8_batched", 4) == "1.20 ms" and
      tables.turns_median("segment_spread", "v8_batched", 6) == tables.NOT_MEASURED and
      tables.turns_slowest("segment_spread", "v8_batched", 3) == "1.03 ms" and
      tables.turns_slowest("segment_spread", "v8_batched", 6) == tables.NOT_MEASURED and
      variant_turns[0].endswith("| v22_store_vectors against the fastest other program |") and
      "faster v22_store_vectors's median run" in variant_turns[-1],
      "two programs in turns: the ratio of their medians and the verdict, either median or the "
      "slowest run; a variant keeps its whole name")
# A rival that ran at some lengths alone (stage_turns' short stages): judged where it ran, "not
# run" in its column elsewhere, and the other rivals judge the rest.
partial = tables.Turns("segment_spread", "v22_slot_offsets", ["v8_batched", "v12_key_words"],
                       "segment", "array length L", "other stage")
partial_rows = turn_rows + [turn_row("v12_key_words", 8, run + 1, 0.5) for run in range(3)]
tables.recorded_rows = lambda name: partial_rows if name == "segment_spread" else []
partial_turns = in_empty_record(lambda: tables.turns_table(partial)).splitlines()
partial_verdicts = tables.turns_verdicts(partial)
check(partial_verdicts[3][0] == "v12_key_words" and partial_verdicts[3][2] == "slower" and
      partial_verdicts[4] == ("v8_batched", 1.2, "faster") and
      partial_turns[2].endswith("| 0.5000 .. 0.5000 | v12_key_words: 0.50x, slower |") and
      partial_turns[3].endswith("| 1.10 .. 1.30 | not run | v8_batched: 1.20x, faster |"),
      "programs in turns: a rival that ran at one length alone judges there and reads 'not run' "
      "at the others")
tables.recorded_rows = lambda name: (turn_rows if name == "segment_spread" else [])

# The warp's rounds' kernels (ncu_facts.py warp_rounds): a row a length and variant, counts in
# millions (one decimal below ten million), shares and the theoretical occupancy in percent.
round_row = {"segment": "4096", "variant": "a warp's round", "duration_ns": "1078400",
             "instructions": "621805568", "alu_instructions": "385351680",
             "lsu_instructions": "187170816", "alu_pipe_pct": "69.27", "lsu_pipe_pct": "67.29",
             "shared_wavefronts": "236351692", "shared_bank_conflicts": "431880",
             "theoretical_occupancy_pct": "62.5", "gpu": "NVIDIA H200",
             "cuda_runtime": "13.0", "nvidia_driver": "1", "date": "2026-12-03"}
tables.recorded_rows = lambda name: [round_row] if name == "warp_round_kernels" else []
round_table = in_empty_record(tables.warp_round_kernels_table).splitlines()
check(round_table[2] == "| 2^12 | a warp's round | 1.08 | 622 | 385 | 187 | 69% | 67% | 236 | "
                       "0.4 | 62% |" and
      tables.metric_text(round_row, "alu_instructions") == "385 million" and
      tables.metric_text(round_row, "shared_bank_conflicts") == "0.4 million",
      "a warp's round's kernel: milliseconds, counts in millions, shares in percent")
# Two rows of one stage (v24 as built and held to eight blocks) and another stage's row of the
# same variant name: "stage+variant" tells all three apart, where "variant" alone would not.
short_rows = [dict(round_row, segment="16", stage=stage, variant=variant, duration_ns=ns,
                   registers=registers, issue_active_pct="31.4", achieved_occupancy_pct="71.1",
                   dram_busy_pct="83.2")
              for stage, variant, ns, registers in (
                  ("v24_warp_rounds", "as built", "267000", "40"),
                  ("v24_warp_rounds", "eight blocks an SM", "270000", "32"),
                  ("v13_any_bits", "as built", "261000", "32"))]
tables.recorded_rows = lambda name: short_rows if name == "short_block_kernels" else []
short_table = in_empty_record(tables.short_block_kernels_table).splitlines()
check(fact(["short_block_kernels", "stage+variant", "v24_warp_rounds, as built", "16",
            "registers"], None, None) == "40" and
      fact(["short_block_kernels", "stage+variant", "v13_any_bits, as built", "16",
            "registers"], None, None) == "32" and
      fact_over(["short_block_kernels", "stage+variant", "v13_any_bits, as built",
                 "v24_warp_rounds, as built", "16", "duration_ns"], None, None) == "0.98x" and
      len(tables.fact_rows("short_block_kernels", "variant")) == 2 and
      short_table[3].startswith("| 2^4 | v24_warp_rounds | eight blocks an SM | 0.2700 |") and
      short_table[3].endswith("| 32 |"),
      "facts named by stage and variant together; the short blocks' table, registers as counts")
# A tie is not a loss: v13 as fast as v8 at 8 keys (fastest_rival then names v13, the smaller
# name) leaves v8 unbeaten there; v14 faster at 16 beats it.
tables.recorded_rows = lambda name: [
    {"variant": variant, "segment": str(segment), "sort_ms": str(sort_ms)}
    for variant, segment, sort_ms in (("v8_batched", 8, 1.0), ("v13_any_bits", 8, 1.0),
                                      ("v8_batched", 16, 1.0), ("v14_span", 16, 0.9))
] if name == "segment_stages" else []
check(tables.segment_stages_beaten("v8_batched", 3, 3) == "none" and
      tables.segment_stages_behind("v8_batched", 3, 3) == 1.0 and
      tables.segment_stages_beaten("v8_batched", 3, 4) == "`v14_span` at 16",
      "a stage as fast as another does not beat it; a faster one does")
tables.recorded_rows = saved_rows

# What only the lab notes read (chunks of record.py --all) the README and the chapters may not.
check(generate.notes_only_experiments() == {"v9_directions", "v9_mirrored", "pipes", "directions",
                                             "words", "short_stages", "v8_pipes", "v9_compare",
                                             "clusters", "v15_tops",
                                             "groups_kernel_times", "groups_kernel_metrics",
                                             "v20_rounds", "v20_round_argsorts", "round_kernels",
                                             "v21_keys", "keys32_kernels", "v21_slots",
                                             "v22_stores", "v22_lanes", "v22_swaps",
                                             "segment_spread", "v24_blocks", "short_block_kernels",
                                             "v24_barrier"},
      "the experiments only optional chunks write: those the lab notes alone read")


def reads_pipes(build):
    build.record.touched.append("pipes")
    return "text"


found = {}
for path in ("README.md", os.path.join("docs", "notes", "pipes.md")):
    claim_builds.path = path
    try:
        found[path] = generate.in_record(claim_builds, None, reads_pipes)[0]
    except generate.UnknownBlock as refused:
        found[path] = str(refused)
claim_builds.path = "docs/made_up.md"
check(found[os.path.join("docs", "notes", "pipes.md")] == "text" and
      "only `tools/record.py --all` records" in found["README.md"],
      "a block of the README that reads what only the lab notes may read stops the generator; "
      "one of a note does not")

# Which record a block reads: the chosen one; a fallback where that lacks the runs (a value then
# names the fallback's GPU); a pinned one alone; a claim in the record its values read.
with tempfile.TemporaryDirectory() as results:
    for name, rows in (("main", []), ("older", [{"program": "copy", "n": str(2**20),
                                                 "sort_ms": "0.5", "effective_gb_s": "100",
                                                 "code": records.fingerprint("copy")}])):
        os.makedirs(os.path.join(results, name))
        chunks = {}
        if rows:
            course.write_csv(os.path.join(results, name, "copy.csv"), rows)
            chunks = {"copy": {"files": {"copy": "copy.csv"}}}
        with open(os.path.join(results, name, records.MANIFEST), "w") as file:
            json.dump({"gpu": name, "chunks": chunks}, file)
    saved = records.RESULTS, records.DEFAULT_RECORD, records.FALLBACK_RECORDS
    records.RESULTS, records.DEFAULT_RECORD, records.FALLBACK_RECORDS = results, "main", ("older",)
    builds = generate.Builds("main", network_dump)
    builds.use()
    text = generate.fill_markdown(
        "<!-- BEGIN GENERATED v:copy-at:20:ms --><!-- END GENERATED v:copy-at:20:ms -->\n"
        "<!-- BEGIN GENERATED v:copy-at:20:ms @main --><!-- END GENERATED v:copy-at:20:ms @main -->\n"
        "<!-- BEGIN GENERATED c:v:copy-at:20:ms lt 1 -->fast<!-- END GENERATED c:v:copy-at:20:ms lt 1 -->\n"
        "<!-- BEGIN GENERATED c:v:copy-at:20:ms gt 1 -->slow<!-- END GENERATED c:v:copy-at:20:ms gt 1 -->\n",
        builds)
    records.RESULTS, records.DEFAULT_RECORD, records.FALLBACK_RECORDS = saved
    shown = [line.split("-->")[1].split("<!--")[0] for line in text.splitlines()]
    check(shown == ["0.5000 ms (OLDER)", "not measured (record main: no current runs of copy)",
                    "fast", "[Not so on record older: 0.5000 ms gt 1.] slow"] and
          len(builds.false_claims) == 1 and builds.fell_back == {"older": {"v:copy-at:20:ms"}},
          "a value the chosen record lacks is read from the fallback and names it; a pinned one "
          "is not; claims are checked where their values are read")

# What to use (chapter 28): per workload the fastest program the record timed, and the next.
class WhichTour:
    def sizes(self):
        return [14, 20, 29]

    def time(self, program, q):
        return {"cub_radix": 1.0, "v15_tile4096": 1.5}.get(program) if q == 29 else (
            {"v8_batched": 2.0, "thrust": 3.0}.get(program))


with tempfile.TemporaryDirectory() as results:
    os.makedirs(os.path.join(results, "empty"))
    with open(os.path.join(results, "empty", records.MANIFEST), "w") as file:
        json.dump({"gpu": "none", "chunks": {}}, file)
    saved = tables.RECORD
    tables.RECORD = records.Record("empty", results)
    which = tables.which_sort_table(WhichTour()).splitlines()
    tables.RECORD = saved
check(any(line.startswith("| one array of 2^29 keys | `cub_radix`: 1.00 ms | `v15_tile4096`: "
                          "1.50x | 2 | tour |") for line in which) and
      any(line.startswith("| one array of 2^20 keys | `v8_batched`: 2.00 ms | `thrust`: 1.50x")
          for line in which) and
      any(line.startswith("| many arrays of 128 keys, keys | not measured |") for line in which),
      "what to use: the fastest program timed for each workload, then the next and its ratio; "
      "a workload the record did not time reads not measured")

# A record that has made some of the catalog's chunks of an experiment and not the others
# (profile-20, not profile-27) says which it lacks; one made in another layout is taken whole.
with tempfile.TemporaryDirectory() as results:
    for name, chunk in (("partial", "profile-20"), ("other", "profile")):
        os.makedirs(os.path.join(results, name))
        course.write_csv(os.path.join(results, name, "times.csv"), [{"stage": "copy"}])
        with open(os.path.join(results, name, records.MANIFEST), "w") as file:
            json.dump({"gpu": name, "chunks": {chunk: {"files": {"kernel_times": "times.csv"}}}},
                      file)
    partial, other = records.Record("partial", results), records.Record("other", results)
    # Rows of no known program are not current: count the chunks alone.
    partial.changed_programs = other.changed_programs = lambda name: {}
    check(partial.missing_chunks("kernel_times") == ["profile-27-early", "profile-27", "profile-16"] and
          partial.incomplete(["kernel_times"]) == ["kernel_times"] and
          partial.gap(["kernel_times"]) == "kernel_times from profile-27-early and profile-27 and profile-16" and
          partial.shortfall(["kernel_times"]) == (0, 3) and
          other.missing_chunks("kernel_times") == [] and other.incomplete(["kernel_times"]) == [],
          "a record lacking some of the catalog's chunks of an experiment names them; one made "
          "in another layout is taken whole")
    # The chunk of it only the lab notes read (--all) is missing for a lab note's block alone.
    partial.with_notes = True
    check(partial.missing_chunks("kernel_times") == ["profile-27-early", "profile-27",
                                                     "profile-27-notes", "profile-16"],
          "a chunk only the lab notes read counts as missing for a lab note's block alone")
    # A record that holds that chunk is still of the catalog's layout for the chapters' blocks.
    partial.with_notes = False
    partial.manifest["chunks"]["profile-27-notes"] = {"files": {"kernel_times": "times.csv"}}
    check(partial.missing_chunks("kernel_times") == ["profile-27-early", "profile-27",
                                                     "profile-16"],
          "a record holding the lab notes' chunk still names the chapters' chunks it lacks")


# radix_note: DeviceSegmentedRadixSort from 2^5 on, its time halving as L doubles up to 2^7 and
# not beyond 2^10 (the growth it reports stops there); nothing where it ran from v8's first length.
times = {"v8_batched": {1: 0.3, 5: 0.3, 7: 0.4},
         "cub_segmented_radix": {5: 8.0, 6: 4.0, 7: 1.6, 11: 0.1}}
note = tables.radix_note(times)
check("ran from 2^5 keys per array only (-): from 2^7 down, each halving of L took 2.0x .. 2.5x"
      in note, f"radix_note: {note!r}")
times["cub_segmented_radix"][1] = 99.0
check(tables.radix_note(times) == "", "radix_note: nothing where the radix sort ran from 2^1")


# first_length_only and neighbours-verdict, on a made-up record.
class MadeUpRecord:
    name = "made_up"
    kept = {
        # Checked at its first length (8) alone, though it ran at 1024 too.
        "short_only": [{"variant": "v", "program": "p", "n": "64", "segment": s,
                        "validation": v, "values": "none", "top": "0", "type": "int32"}
                       for s, v in (("8", "pass"), ("1024", "skipped"))],
        # Checked at 8 and again at 1024; torch's rows and one array are not counted.
        "both": [{"variant": "v", "program": "p", "n": "64", "segment": s, "validation": v,
                  "values": "none", "top": "0", "type": "int32"}
                 for s, v in (("8", "pass"), ("1024", "pass"), ("2048", "skipped"))] +
                [{"variant": "torch.sort", "segment": "1024", "validation": "skipped"},
                 {"variant": "v", "program": "p", "n": "64", "segment": "0",
                  "validation": "skipped"}],
        "spread": [{"variant": f"run {i}", "program": name, "n": "2048", "sort_ms": str(ms)}
                   for name, times in (("a", (1.0, 1.1)), ("b", (2.0, 2.1)), ("c", (1.05, 2.5)))
                   for i, ms in enumerate(times)],
    }

    def experiments(self):
        return list(self.kept)

    def rows(self, experiment):
        return self.kept.get(experiment, [])


saved_record, tables.RECORD = tables.RECORD, MadeUpRecord()
try:
    found = [tables.first_length_only(), tables.first_length_only({"short_only"})]
    MadeUpRecord.kept["both"][2]["validation"] = "pass"
    MadeUpRecord.kept["short_only"][1]["validation"] = "pass"
    found.append(tables.first_length_only())
    verdicts = [tables.spread_value(["neighbours-verdict", stage, previous, "11"])
                for stage, previous in (("a", "b"), ("b", "a"), ("c", "a"), ("a", "z"))]
finally:
    tables.RECORD = saved_record
check(found == ["the chunk short_only", "no chunk", "no chunk"],
      f"first_length_only: the chunk checked at its first length alone, none left out or once "
      f"every form was checked at 1024 ({found})")
check(verdicts == ["faster", "slower", "overlap", tables.NOT_MEASURED],
      f"neighbours-verdict: faster, slower, overlap, not measured ({verdicts})")


# tour_huge_pages: the tour's chunks that time std::sort (not tour-29), by their entries'
# huge_pages, with or without, or with none recorded.
class Manifested:
    manifest = {"chunks": {"tour-10-20": {"huge_pages": False}, "tour-21-25": {"huge_pages": True},
                           "tour-26-27": {"huge_pages": True}, "tour-29": {"huge_pages": False}}}


said = generate.tour_huge_pages(Manifested())
Manifested.manifest["chunks"]["tour-26-27"] = {}
said_gap = generate.tour_huge_pages(Manifested())
check(said == "its chunks at 2^21 .. 2^25 and 2^26 .. 2^27 ran with the huge pages; the one at "
      "2^10 .. 2^20 without them" and
      said_gap == "its chunk at 2^21 .. 2^25 ran with the huge pages; the one at 2^10 .. 2^20 "
      "without them; the one at 2^26 .. 2^27 with no record of it",
      f"tour_huge_pages: {said!r}; {said_gap!r}")
sys.exit(1 if failures else 0)
