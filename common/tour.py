#!/usr/bin/env python3
"""The tour: every stage and the baselines over a range of sizes, measured in one run.

    python3 common/tour.py --quick                 the demonstration: 2^16, 2^20, 2^24
    python3 common/tour.py                         the full sweep, 2^10 .. 2^29 (minutes)
    python3 common/tour.py --sizes 20,24 --csv out.csv

For every size it runs each stage program and the baselines (build/common/baselines) with
--csv, prints a progress line per run, and then the progression table in the seeds' form: time,
step speedup over the row above, cumulative speedup over the first row, launches, effective
bandwidth, and that bandwidth as a percentage of the device-to-device copy bandwidth measured
at the start of the same run, at the sweep's largest size but at least 2^24 and at most 2^29
(smaller copies reach less of the peak, so the floors of a short sweep such as --quick are
looser). The floor
column is the stage's pass count times one copy of the array at that bandwidth (README,
"How we measure"). Every record goes to one CSV, with the GPU
name, NVIDIA driver, CUDA version and date of the run; docs/generate.py makes the course's
tables and plots from such a CSV. A size that does not fit in memory is skipped (exit code 4).
"""
import argparse
import csv
import datetime
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEVICE_BASELINES = ["cub_radix", "cub_merge", "thrust"]


def stage_names():
    """The stages, in course order, from the top-level meson.build: one list to edit."""
    with open(os.path.join(ROOT, "meson.build")) as file:
        text = file.read()
    block = re.search(r"stages = \[(.*?)\]", text, re.S).group(1)
    return re.findall(r"'([^']+)'", block)


def repetitions(q):
    """Timed repetitions per size: many where a run takes microseconds, few where it takes
    a second (v0 at 2^29). Each program adds one warm-up run."""
    if q <= 20:
        return 20
    if q <= 24:
        return 10
    if q <= 27:
        return 5
    return 3


def nvidia_driver(device):
    try:
        result = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader",
                                 "-i", str(device)], capture_output=True, text=True, timeout=60)
        return result.stdout.strip() if result.returncode == 0 else "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


class Tour:
    def __init__(self, arguments):
        self.arguments = arguments
        self.records = []
        self.runs_done = 0
        self.runs_total = 0
        self.driver = nvidia_driver(arguments.device)
        self.date = datetime.date.today().isoformat()
        self.copy_gb_s = None
        self.failed = []

    def program(self, name):
        if name in DEVICE_BASELINES or name in ("std_sort", "copy"):
            return [os.path.join(self.arguments.build, "common", "baselines"), "--algo", name]
        return [os.path.join(self.arguments.build, name, name)]

    def run(self, name, q, reps):
        """Runs one program at n = 2^q; returns its CSV record, or None when it was skipped."""
        command = self.program(name) + ["--log2", str(q), "--reps", str(reps), "--csv",
                                        "--no-header", "--device", str(self.arguments.device)]
        result = subprocess.run(command, capture_output=True, text=True)
        self.runs_done += 1
        progress = f"[{self.runs_done:3}/{self.runs_total}] 2^{q:<2} {name:16}"
        if result.returncode == 4:
            print(f"{progress} skipped: {result.stderr.strip()}", file=sys.stderr, flush=True)
            return None
        if result.returncode not in (0, 1):
            sys.exit(f"{' '.join(command)} failed with exit code {result.returncode}:\n"
                     f"{result.stderr}")
        fields = next(csv.reader([result.stdout.strip().splitlines()[-1]]))
        record = dict(zip(CSV_FIELDS, fields))
        record.update(nvidia_driver=self.driver, date=self.date,
                      copy_gb_s=f"{self.copy_gb_s:.1f}" if self.copy_gb_s else "")
        print(f"{progress} {float(record['sort_ms']):10.4f} ms  {record['validation']}",
              file=sys.stderr, flush=True)
        if record["validation"] != "pass":
            print(result.stderr, file=sys.stderr)
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
        stages = [name for name in stage_names() if os.path.exists(self.program(name)[0])]
        if self.arguments.no_baselines:
            return stages
        serial = ["std_sort"] if q <= self.arguments.serial_max else []
        return serial + stages + DEVICE_BASELINES

    def sweep(self, sizes, path):
        self.runs_total = 1 + sum(len(self.programs(q)) for q in sizes)
        self.measure_copy(max(sizes))
        for q in sizes:
            rows = []
            for name in self.programs(q):
                # std::sort takes a minute at 2^29: one run from 2^24 up is enough there.
                reps = (1 if q >= 24 else 3) if name == "std_sort" else repetitions(q)
                rows.append(self.run(name, q, reps))
            print_table(q, [row for row in rows if row is not None], self.copy_gb_s)
            # After every size, so that an interrupted sweep keeps what it measured.
            self.write_csv(path)

    def measure_transfers(self, q, path):
        """Host <-> device copies of 2^q keys, pageable and pinned (build/common/transfers)."""
        command = [os.path.join(self.arguments.build, "common", "transfers"), "--log2", str(q),
                   "--reps", "5", "--csv", "--device", str(self.arguments.device)]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            print(f"transfers skipped: {result.stderr.strip()}", file=sys.stderr)
            return
        rows = list(csv.DictReader(result.stdout.splitlines()))
        for row in rows:
            row.update(nvidia_driver=self.driver, date=self.date)
            print(f"transfer 2^{q} {row['memory']:8} {row['direction']:14} {float(row['ms']):9.3f} ms"
                  f" {row['gb_s']:>7} GB/s", file=sys.stderr)
        with open(path, "w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)

    def write_csv(self, path):
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        temporary = path + ".tmp"
        with open(temporary, "w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=CSV_FIELDS + EXTRA_FIELDS)
            writer.writeheader()
            writer.writerows(self.records)
        os.replace(temporary, path)


CSV_FIELDS = ("program,device,compute_capability,n,padded_n,order,distribution,seed,launches,"
              "passes,reps,sort_ms,total_ms,mkeys_per_s,effective_gb_s,validation,cuda_runtime,"
              "cuda_driver").split(",")
EXTRA_FIELDS = ["nvidia_driver", "date", "copy_gb_s"]


def floor_ms(record, copy_gb_s):
    """Passes x one read and one write of the padded array at the copy bandwidth."""
    if not record["passes"] or not copy_gb_s:
        return None
    return int(record["passes"]) * 8 * int(record["padded_n"]) / (copy_gb_s * 1e6)


def print_table(q, rows, copy_gb_s):
    """The seeds' progression table for one size. The first row (std::sort when it ran) is the
    base of the cumulative speedup; each stage's step speedup is over the row above it."""
    columns = ["program", "time ms", "step", "cumul.", "launches", "GB/s", "% copy", "floor ms",
               "x floor"]
    table = [columns]
    first = previous = None
    for row in rows:
        time = float(row["sort_ms"])
        is_stage = row["program"] not in DEVICE_BASELINES + ["std_sort"]
        floor = floor_ms(row, copy_gb_s)
        bandwidth = row["effective_gb_s"]
        table.append([
            row["program"],
            f"{time:.4f}",
            f"{previous / time:.2f}" if previous is not None and is_stage else "",
            f"{first / time:.2f}" if first is not None else "1.00",
            row["launches"],
            bandwidth,
            f"{100 * float(bandwidth) / copy_gb_s:.1f}%" if bandwidth else "",
            f"{floor:.4f}" if floor else "",
            f"{time / floor:.2f}" if floor else "",
        ])
        first = time if first is None else first
        if is_stage or previous is None:
            previous = time
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    print(f"\n2^{q} keys, copy bandwidth {copy_gb_s:.0f} GB/s (measured in this run)")
    for line in table:
        print("  ".join(cell.ljust(width) if i == 0 else cell.rjust(width)
                        for i, (cell, width) in enumerate(zip(line, widths))))
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="the Meson build folder (default: build)")
    parser.add_argument("--min", type=int, default=10, help="smallest size, log2 (default 10)")
    parser.add_argument("--max", type=int, default=29, help="largest size, log2 (default 29)")
    parser.add_argument("--sizes", help="comma-separated log2 sizes instead of --min/--max")
    parser.add_argument("--quick", action="store_true",
                        help="the demonstration: sizes 16, 20 and 24")
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
    if arguments.quick:
        sizes = [16, 20, 24]
    elif arguments.sizes:
        sizes = [int(q) for q in arguments.sizes.split(",")]
    else:
        sizes = list(range(arguments.min, arguments.max + 1))
    if any(q < 0 or q > 30 for q in sizes):
        sys.exit("sizes are log2 values from 0 to 30")
    missing = [path for path in (os.path.join(arguments.build, "common", "baselines"),)
               if not os.path.exists(path)]
    if missing:
        sys.exit(f"{missing[0]} not found: build first (meson setup build && meson compile -C build)")
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
