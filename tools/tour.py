#!/usr/bin/env python3
"""The tour: every stage and the baselines over a range of sizes, measured in one run.

    python3 tools/tour.py --quick              2^16, 2^20, 2^24 (a minute)
    python3 tools/tour.py                      the full sweep, 2^10 .. 2^29 (minutes)
    python3 tools/tour.py --sizes 20,24 --csv out.csv

For every size it runs each stage program and the baselines (build/tools/baselines) with
--csv, prints a progress line per run, and then the progression table: time, the speedup over
the stage before, the speedup over the first row, launches, effective bandwidth, and that
bandwidth as a share of the device-to-device copy bandwidth measured at the start of the same
run, at the sweep's largest size but at least 2^24 and at most 2^29 (smaller copies reach less
of the peak, so the floors of a short sweep such as --quick are looser). The floor column is the
stage's pass count times one copy of the array at that bandwidth (README, "How we measure").
Every record goes to one CSV, with the GPU name, NVIDIA driver, CUDA version and date of the
run; docs/generate.py makes the course's tables and plots from such a CSV. A size that does not
fit in memory is skipped (exit code 4).

--demo is the course's demonstration (`meson compile -C build demo`): --quick, and on a machine
without a usable GPU one line saying that everything is built and that the run needs a GPU.
"""
import argparse
import csv
import os
import subprocess
import sys

import course

# The exit code of the course's programs when there is no usable CUDA device (README).
NO_DEVICE = 3


class Tour:
    def __init__(self, arguments):
        self.arguments = arguments
        self.records = []
        self.fields = None
        self.runs_done = 0
        self.runs_total = 0
        self.driver = course.nvidia_driver(arguments.device)
        self.date = course.today()
        self.copy_gb_s = None
        self.failed = []

    def run(self, name, q, reps):
        """Runs one program at n = 2^q; returns its CSV record, or None when it was skipped."""
        # A stage that sorts across GPUs runs on one, GPU 0 (CUDA_VISIBLE_DEVICES picks which).
        device = (["--gpus", "1"] if course.sorts_across_gpus(name) else
                  ["--device", str(self.arguments.device)])
        command = course.program_command(self.arguments.build, name) + [
            "--log2", str(q), "--reps", str(reps)] + device
        code, record, errors = course.run_record(command)
        self.runs_done += 1
        progress = f"[{self.runs_done:3}/{self.runs_total}] 2^{q:<2} {name:16}"
        if code == 4:
            print(f"{progress} skipped: {errors.strip()}", file=sys.stderr, flush=True)
            return None
        if code not in (0, 1) or record is None:
            sys.exit(f"{' '.join(command)} failed with exit code {code}:\n{errors}")
        self.fields = self.fields or list(record)
        record.update(nvidia_driver=self.driver, date=self.date,
                      copy_gb_s=f"{self.copy_gb_s:.1f}" if self.copy_gb_s else "")
        print(f"{progress} {float(record['sort_ms']):10.4f} ms  {record['validation']}",
              file=sys.stderr, flush=True)
        if record["validation"] != "pass":
            print(errors, file=sys.stderr)
            self.failed.append(f"{name} at 2^{q}")
        self.records.append(record)
        return record

    def measure_copy(self, q):
        """The copy ceiling, at the sweep's largest size but at least 2^24 (smaller copies are
        over too soon to measure the memory) and at most 2^29; smaller if that does not fit."""
        for size in range(min(max(q, 24), 29), 9, -1):
            record = self.run("copy", size, 20)
            if record is not None:
                self.copy_gb_s = float(record["effective_gb_s"])
                record["copy_gb_s"] = f"{self.copy_gb_s:.1f}"
                return
        sys.exit("could not measure the copy bandwidth")

    def programs(self, q):
        """What runs at 2^q: the programs named by --only, or std::sort (up to --serial-max),
        every stage that is built, and the GPU baselines."""
        if self.arguments.only:
            return self.arguments.only.split(",")
        names = [name for name in course.stage_names()
                 if os.path.exists(course.program_command(self.arguments.build, name)[0])]
        if self.arguments.no_baselines:
            return names
        serial = ["std_sort"] if q <= self.arguments.serial_max else []
        return serial + names + course.DEVICE_BASELINES

    def sweep(self, sizes, path):
        self.runs_total = 1 + sum(len(self.programs(q)) for q in sizes)
        self.measure_copy(max(sizes))
        for q in sizes:
            rows = []
            for name in self.programs(q):
                # std::sort takes a minute at 2^29: one run from 2^24 up is enough there.
                reps = (1 if q >= 24 else 3) if name == "std_sort" else course.repetitions(q)
                rows.append(self.run(name, q, reps))
            print_table(q, [row for row in rows if row is not None], self.copy_gb_s)
            # After every size, so that an interrupted sweep keeps what it measured.
            self.write_csv(path)

    def measure_transfers(self, q, path):
        """Host <-> device copies of 2^q keys, pageable and pinned (tools/transfers)."""
        command = [os.path.join(self.arguments.build, "tools", "transfers"), "--log2",
                   str(q), "--reps", "5", "--csv", "--device", str(self.arguments.device)]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            print(f"transfers skipped: {result.stderr.strip()}", file=sys.stderr)
            return
        rows = list(csv.DictReader(result.stdout.splitlines()))
        for row in rows:
            row.update(nvidia_driver=self.driver, date=self.date)
            print(f"transfer 2^{q} {row['memory']:8} {row['direction']:14} {float(row['ms']):9.3f} ms"
                  f" {row['gb_s']:>7} GB/s", file=sys.stderr)
        course.write_csv(path, rows)

    def write_csv(self, path):
        course.write_csv(path, self.records,
                         self.fields + ["nvidia_driver", "date", "copy_gb_s"])


def print_table(q, records, copy_gb_s):
    """The progression table of one size, as text."""
    columns = ["program", "time ms", "vs prev", "vs first", "launches", "GB/s", "% copy",
               "x floor"]
    table = [columns]
    for row in course.progression_rows(records, copy_gb_s):
        table.append([
            row["program"],
            f"{row['time']:.4f}",
            f"{row['over_previous']:.2f}" if row["over_previous"] else "",
            f"{row['over_first']:.2f}",
            row["launches"],
            f"{row['bandwidth']:.1f}" if row["bandwidth"] is not None else "",
            f"{100 * row['of_copy']:.1f}%" if row["of_copy"] is not None else "",
            f"{row['over_floor']:.2f}" if row["over_floor"] else "",
        ])
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    print(f"\n2^{q} keys, copy bandwidth {copy_gb_s:.0f} GB/s (measured in this run)")
    for line in table:
        print("  ".join(cell.ljust(width) if i == 0 else cell.rjust(width)
                        for i, (cell, width) in enumerate(zip(line, widths))))
    sys.stdout.flush()


def gpu_missing(build):
    """Why no GPU run can happen here, or None when a GPU is usable. Asks the copy baseline,
    which exits 3 and says why when there is no usable device."""
    baselines = course.program_command(build, "copy")
    if not os.path.exists(baselines[0]):
        return None
    code, _, errors = course.run_record(baselines + ["--log2", "10", "--reps", "1"])
    if code != 3:
        return None
    return errors.strip().split("error: ", 1)[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(course.ROOT, "build"),
                        help="the Meson build folder (default: build)")
    parser.add_argument("--min", type=int, default=10, help="smallest size, log2 (default 10)")
    parser.add_argument("--max", type=int, default=29, help="largest size, log2 (default 29)")
    parser.add_argument("--sizes", help="comma-separated log2 sizes instead of --min/--max")
    parser.add_argument("--quick", action="store_true",
                        help="the demonstration's sizes: 16, 20 and 24")
    parser.add_argument("--demo", action="store_true",
                        help="the demonstration: --quick, and a clear word where there is no GPU")
    parser.add_argument("--serial-max", type=int, default=29,
                        help="largest log2 size for std::sort on the CPU (default 29)")
    parser.add_argument("--no-baselines", action="store_true", help="stages only")
    parser.add_argument("--only", help="comma-separated programs to run instead of all "
                                       "(stages, std_sort, cub_radix, cub_merge, thrust)")
    parser.add_argument("--device", type=int, default=0, help="CUDA device (default 0)")
    parser.add_argument("--csv", help="where to write the records (default: BUILD/tour.csv)")
    parser.add_argument("--transfers-csv",
                        help="also time host <-> device copies (pageable, pinned) at the largest "
                             "size, at most 2^29, and write them here")
    parser.add_argument("--transfers-only", action="store_true",
                        help="with --transfers-csv: time the copies and skip the sorts")
    arguments = parser.parse_args()
    if course.arguments_only():
        return
    if arguments.quick or arguments.demo:
        sizes = [16, 20, 24]
    elif arguments.sizes:
        sizes = [int(q) for q in arguments.sizes.split(",")]
    else:
        sizes = list(range(arguments.min, arguments.max + 1))
    if any(q < 0 or q > 30 for q in sizes):
        sys.exit("sizes are log2 values from 0 to 30")
    baselines = course.program_command(arguments.build, "copy")[0]
    if not os.path.exists(baselines):
        sys.exit(f"tour.py: {baselines} was not built: this build has no CUDA compiler, or was "
                 "not compiled (meson setup build && meson compile -C build)")
    reason = gpu_missing(arguments.build)
    if reason is not None:
        if arguments.demo:
            print(f"Everything is built. The demonstration needs an NVIDIA GPU, and CUDA finds "
                  f"none here: {reason}.")
            return
        # The programs' own exit code for "no usable CUDA device".
        print(f"tour.py: {reason}", file=sys.stderr)
        sys.exit(NO_DEVICE)
    tour = Tour(arguments)
    if arguments.transfers_csv:
        tour.measure_transfers(min(max(sizes), 29), arguments.transfers_csv)
    if arguments.transfers_only:
        return
    path = arguments.csv or os.path.join(arguments.build, "tour.csv")
    tour.sweep(sizes, path)
    print(f"wrote {len(tour.records)} records to {path}", file=sys.stderr)
    if tour.failed:
        sys.exit(f"validation failed for {', '.join(tour.failed)}: these times are not results")


if __name__ == "__main__":
    main()
