#!/usr/bin/env python3
"""Makes the generated parts of the course text: figures, embedded diffs, result tables, plots.

    python3 docs/generate.py --network-dump build/common/network_dump          write them
    python3 docs/generate.py --network-dump build/common/network_dump --check  compare only

(`meson compile -C build docs` runs the first; the docs test suite runs the second.)

Nothing here is typed by hand:
  - figures of the network come from the host reference network (common/network_dump);
  - the diffs embedded in the chapters come from the stage sources;
  - every measured number comes from the CSV files in docs/results/, recorded by
    common/tour.py, common/transfers.cu and common/measure_banks.py on the GPU named in them.
A generated block in a Markdown file sits between
    <!-- BEGIN GENERATED name -->  and  <!-- END GENERATED name -->
and is rewritten from scratch; everything outside the markers is prose. With --check nothing is
written: the script lists what is out of date and exits 1, or exits 0 when all is current. It
also checks that every stage has its chapter. Python 3 standard library only.
"""
import argparse
import csv
import difflib
import math
import os
import re
import subprocess
import sys

DOCS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(DOCS)
FIGURES = os.path.join(DOCS, "figures")
RESULTS = os.path.join(DOCS, "results")
TOUR_CSV = os.path.join(RESULTS, "h100_tour.csv")
TRANSFERS_CSV = os.path.join(RESULTS, "h100_transfers.csv")
BANKS_CSV = os.path.join(RESULTS, "h100_bank_conflicts.csv")
SASS_CSV = os.path.join(RESULTS, "h100_sass_memory.csv")
# An earlier run of the same builds at four sizes (.ci/gpu-run bench), to show the spread
# between two runs of the same program.
REPEAT_CSV = os.path.join(RESULTS, "h100_repeat.csv")

# Each stage's chapter, in reading order (the first two chapters introduce the network and v0).
CHAPTERS = {
    "v0_naive": "02_v0_naive.md",
    "v1_fused": "03_v1_fused.md",
    "v2_shared": "04_v2_shared.md",
    "v3_warp": "05_v3_warp.md",
    "v4_half_threads": "06_v4_half_threads.md",
    "v5_bank_free": "07_v5_bank_free.md",
}
BASELINES = ["cub_radix", "cub_merge", "thrust"]
HEADLINE_SIZES = [20, 24, 27, 29]


# ---------------------------------------------------------------------------------------------
# The stages and their sources


def stage_names():
    with open(os.path.join(ROOT, "meson.build")) as file:
        text = file.read()
    return re.findall(r"'([^']+)'", re.search(r"stages = \[(.*?)\]", text, re.S).group(1))


def read(path):
    with open(path) as file:
        return file.read()


def stage_diff(previous, stage):
    """The unified diff of every file of the stage that differs from the previous stage."""
    blocks = []
    for name in ("bitonic_sort.cu", "bitonic_index.h", "meson.build"):
        before = read(os.path.join(ROOT, previous, name)).splitlines(keepends=True)
        after = read(os.path.join(ROOT, stage, name)).splitlines(keepends=True)
        diff = "".join(difflib.unified_diff(before, after, f"{previous}/{name}",
                                            f"{stage}/{name}"))
        if diff:
            blocks.append(f"`{name}`:\n\n```diff\n{diff}```\n")
        else:
            blocks.append(f"`{name}`: unchanged, byte for byte.\n")
    command = f"diff -u {previous}/bitonic_sort.cu {stage}/bitonic_sort.cu"
    return (f"Regenerated from the sources by `docs/generate.py` (the same as `{command}`, and "
            f"likewise for the header).\n\n" + "\n".join(blocks))


# ---------------------------------------------------------------------------------------------
# Measurements


def load_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


class Results:
    """The tour's records by (program, log2 n)."""

    def __init__(self, path):
        self.rows = load_csv(path)
        self.by_key = {}
        for row in self.rows:
            q = int(row["n"]).bit_length() - 1
            if row["program"] == "copy":
                self.copy = row
            else:
                self.by_key[(row["program"], q)] = row
        first = self.rows[0] if self.rows else {}
        self.gpu = first.get("device", "?")
        self.driver = first.get("nvidia_driver", "?")
        self.cuda = first.get("cuda_runtime", "?")
        self.date = first.get("date", "?")
        self.copy_gb_s = float(self.copy["effective_gb_s"]) if self.rows else 0.0

    def sizes(self):
        return sorted({q for (_, q) in self.by_key})

    def get(self, program, q):
        return self.by_key.get((program, q))

    def time(self, program, q):
        row = self.get(program, q)
        return float(row["sort_ms"]) if row else None

    def floor(self, program, q):
        row = self.get(program, q)
        if not row or not row["passes"]:
            return None
        return int(row["passes"]) * 8 * int(row["padded_n"]) / (self.copy_gb_s * 1e6)

    def source(self):
        return (f"Measured on one {self.gpu} (driver {self.driver}, CUDA {self.cuda}) on "
                f"{self.date} by `common/tour.py`; data: `docs/results/{os.path.basename(TOUR_CSV)}`"
                f". Median of the timed runs after one warm-up; copy bandwidth "
                f"{self.copy_gb_s:.0f} GB/s, measured in the same run.")


def ms(value):
    if value is None:
        return ""
    if value >= 100:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.4f}"


def table(header, rows, align=None):
    align = align or ["l"] + ["r"] * (len(header) - 1)
    marks = {"l": ":---", "r": "---:"}
    lines = ["| " + " | ".join(header) + " |",
             "| " + " | ".join(marks[a] for a in align) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def stage_table(results, stage, previous):
    """A stage against the stage before it and against its floor, at the headline sizes."""
    rows = []
    for q in HEADLINE_SIZES:
        time, before = results.time(stage, q), results.time(previous, q)
        if time is None or before is None:
            continue
        row = results.get(stage, q)
        floor = results.floor(stage, q)
        rows.append([f"2^{q}", ms(before), ms(time), f"{before / time:.2f}x", row["launches"],
                     ms(floor), f"{time / floor:.2f}", f"{float(row['effective_gb_s']):.0f}"])
    header = ["n", f"{previous} ms", f"{stage} ms", "step speedup", "launches", "floor ms",
              "time / floor", "effective GB/s"]
    return table(header, rows) + "\n" + results.source() + "\n"


def v0_table(results):
    rows = []
    for q in results.sizes():
        if q % 2 == 0 or q in (27, 29):
            time = results.time("v0_naive", q)
            row = results.get("v0_naive", q)
            floor = results.floor("v0_naive", q)
            rows.append([f"2^{q}", row["launches"], ms(time), ms(floor), f"{time / floor:.2f}",
                         f"{float(row['effective_gb_s']):.0f}",
                         f"{100 * float(row['effective_gb_s']) / results.copy_gb_s:.0f}%",
                         f"{1000 * time / int(row['launches']):.1f}"])
    return (table(["n", "launches", "sort ms", "floor ms", "time / floor", "effective GB/s",
                   "% of copy", "us per launch"], rows) + "\n" + results.source() + "\n")


def progression(results, q):
    """The seeds' table: every program at one size, speedups over the row above and the first."""
    rows = []
    first = previous = None
    for program in ["std_sort"] + stage_names() + BASELINES:
        time = results.time(program, q)
        if time is None:
            continue
        row = results.get(program, q)
        is_stage = program not in ["std_sort"] + BASELINES
        floor = results.floor(program, q)
        rows.append([f"`{program}`", ms(time),
                     f"{previous / time:.2f}" if previous and is_stage else "",
                     f"{first / time:.1f}" if first else "1.0",
                     row["launches"],
                     f"{float(row['effective_gb_s']):.0f}" if row["effective_gb_s"] else "",
                     f"{100 * float(row['effective_gb_s']) / results.copy_gb_s:.0f}%"
                     if row["effective_gb_s"] else "",
                     f"{time / floor:.2f}" if floor else ""])
        first = first or time
        if is_stage or previous is None:
            previous = time
    return table(["program", "sort ms", "step speedup", "cumulative speedup", "launches",
                  "effective GB/s", "% of copy", "time / floor"], rows)


def readme_results(results):
    ideas = {
        "v0_naive": "one launch per compare step, global memory",
        "v1_fused": "steps inside a block fused into one launch",
        "v2_shared": "fused steps run in shared memory",
        "v3_warp": "strides below 32 exchange through shuffles",
        "v4_half_threads": "one thread per compare pair",
        "v5_bank_free": "tile loads without bank conflicts",
    }
    rows = []
    for stage in stage_names():
        cells = [f"[`{stage}`](docs/{CHAPTERS.get(stage, '')})", ideas.get(stage, ""),
                 results.get(stage, 29)["launches"] if results.get(stage, 29) else ""]
        for q in (20, 24, 29):
            cells.append(ms(results.time(stage, q)))
        time, floor = results.time(stage, 29), results.floor(stage, 29)
        cells.append(f"{time / floor:.2f}" if time and floor else "")
        rows.append(cells)
    for program in ["cub_radix", "std_sort"]:
        label = {"cub_radix": "CUB radix sort (baseline)",
                 "std_sort": "std::sort, one CPU core (baseline)"}[program]
        rows.append([label, "", ""] + [ms(results.time(program, q)) for q in (20, 24, 29)] + [""])
    return (table(["stage", "the one idea", "launches at 2^29", "2^20 ms", "2^24 ms", "2^29 ms",
                   "2^29 time / floor"], rows, ["l", "l"] + ["r"] * 5) + "\n" +
            results.source() + " The floor is the stage's passes (launches) times one read and "
            "write of the array at the copy bandwidth; `docs/08_results.md` has the full story.\n")


def crossover(results):
    rows = []
    for q in results.sizes():
        v5 = results.time("v5_bank_free", q)
        cells = [f"2^{q}", ms(v5)]
        for program in BASELINES:
            time = results.time(program, q)
            cells += [ms(time), f"{v5 / time:.1f}x" if time else ""]
        serial = results.time("std_sort", q)
        cells += [ms(serial), f"{serial / v5:.1f}x" if serial else ""]
        rows.append(cells)
    header = ["n", "v5 ms", "CUB radix ms", "v5 / radix", "CUB merge ms", "v5 / merge",
              "thrust ms", "v5 / thrust", "std::sort ms", "std::sort / v5"]
    return table(header, rows) + "\n" + results.source() + "\n"


def totals(results):
    """Sort time against total time (pinned transfers included) for v5 and CUB radix."""
    rows = []
    for q in HEADLINE_SIZES:
        for program in ("v5_bank_free", "cub_radix"):
            row = results.get(program, q)
            sort, total = float(row["sort_ms"]), float(row["total_ms"])
            rows.append([f"2^{q}", f"`{program}`", ms(sort), ms(total),
                         f"{100 * (total - sort) / total:.0f}%"])
    return table(["n", "program", "sort ms", "total ms (pinned copies + sort)",
                  "share of the copies"], rows) + "\n" + results.source() + "\n"


def transfers_table():
    rows = load_csv(TRANSFERS_CSV)
    if not rows:
        return "(no transfer measurements recorded yet)\n"
    body = [[row["memory"], row["direction"].replace("_", " "),
             f"{int(row['bytes']) / 2**30:.0f} GiB", ms(float(row["ms"])),
             f"{float(row['gb_s']):.1f}"] for row in rows]
    first = rows[0]
    return (table(["host memory", "direction", "size", "ms", "GB/s"], body,
                  ["l", "l", "r", "r", "r"]) +
            f"\nMeasured on one {first['device']} (driver {first['nvidia_driver']}, CUDA "
            f"{first['cuda_runtime']}) on {first['date']} by `common/transfers.cu` (median of "
            f"{first['reps']} copies after one warm-up); data: "
            f"`docs/results/{os.path.basename(TRANSFERS_CSV)}`.\n")


def banks_table():
    rows = load_csv(BANKS_CSV)
    body = []
    for row in rows:
        if row["stage"] not in ("v4_half_threads", "v5_bank_free"):
            continue
        body.append([f"`{row['stage']}`", f"`{row['kernel']}`",
                     row["shared_store_instructions"], row["shared_store_wavefronts"],
                     row["shared_load_instructions"], row["shared_load_wavefronts"],
                     row["store_bank_conflicts"], row["load_bank_conflicts"]])
    first = rows[0]
    return (table(["stage", "kernel", "shared stores", "store wavefronts", "shared loads",
                   "load wavefronts", "store conflicts", "load conflicts"], body,
                  ["l", "l"] + ["r"] * 6) +
            f"\nCounted by Nsight Compute on one {first['gpu']} (driver {first['nvidia_driver']}) on"
            f" {first['date']}, first launch of each kernel at n = {first['n']} keys, by "
            f"`common/measure_banks.py`; data: `docs/results/{os.path.basename(BANKS_CSV)}`. "
            "Instructions are warp instructions (`smsp__sass_inst_executed_op_shared_st/ld.sum`); "
            "wavefronts are the passes the shared-memory pipeline made for them "
            "(`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st/ld.sum`); conflicts are "
            "`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st/ld.sum`.\n")


def sass_table():
    rows = load_csv(SASS_CSV)
    wanted = ("LDG.E", "STS", "STS.64", "LDS", "LDS.64", "STG.E", "SHFL.BFLY", "BAR.SYNC.DEFER")
    counts = {}
    for row in rows:
        if row["kernel"] == "block_sort":
            counts.setdefault(row["stage"], {})[row["instruction"]] = row["count"]
    body = [[f"`{stage}`"] + [counts[stage].get(op, "0") for op in wanted]
            for stage in counts]
    first = rows[0]
    return (table(["block_sort of"] + [f"`{op}`" for op in wanted], body) +
            f"\nInstructions in the machine code of `block_sort` (each appears once in the code "
            f"however often it runs), from `cuobjdump -sass` of the build used for the "
            f"measurements ({first['gpu']}, {first['date']}; data: "
            f"`docs/results/{os.path.basename(SASS_CSV)}`).\n")


# ---------------------------------------------------------------------------------------------
# SVG figures


class Svg:
    def __init__(self, width, height):
        self.width, self.height, self.parts = width, height, []

    def add(self, element):
        self.parts.append(element)

    def line(self, x1, y1, x2, y2, stroke="#222", width=1.0, dash=None):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                 f'stroke="{stroke}" stroke-width="{width:.1f}"{extra}/>')

    def rect(self, x, y, w, h, fill, stroke="none", opacity=1.0, rx=0):
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{rx}" '
                 f'fill="{fill}" stroke="{stroke}" fill-opacity="{opacity:.2f}"/>')

    def circle(self, cx, cy, r, fill):
        self.add(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}"/>')

    def polygon(self, points, fill):
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        self.add(f'<polygon points="{coords}" fill="{fill}"/>')

    def polyline(self, points, stroke, width=1.5, dash=None):
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<polyline points="{coords}" fill="none" stroke="{stroke}" '
                 f'stroke-width="{width:.1f}"{extra}/>')

    def path(self, d, stroke, width=1.0):
        self.add(f'<path d="{d}" fill="none" stroke="{stroke}" stroke-width="{width:.1f}"/>')

    def text(self, x, y, content, size=12, anchor="start", fill="#222", weight="normal",
             rotate=None):
        transform = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate else ""
        content = content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
                 f'fill="{fill}" font-weight="{weight}"{transform}>{content}</text>')

    def render(self):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
                f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" '
                f'font-family="DejaVu Sans, Arial, sans-serif">\n'
                f'<rect width="{self.width}" height="{self.height}" fill="white"/>\n' +
                "\n".join(self.parts) + "\n</svg>\n")


ASCENDING, DESCENDING = "#1f5fa8", "#c0392b"
KERNEL_COLOURS = {"block_sort": "#7fb3d5", "bitonic_step": "#f5b041", "block_merge": "#82c99a"}


def network(dump, n):
    """[(size, stride, [(lower, upper, ascending)])] from common/network_dump."""
    output = subprocess.run([dump, str(n)], capture_output=True, text=True, check=True).stdout
    steps = {}
    for line in output.splitlines():
        size, stride, lower, upper, direction = line.split()
        steps.setdefault((int(size), int(stride)), []).append(
            (int(lower), int(upper), direction == "asc"))
    return [(size, stride, comparators) for (size, stride), comparators in steps.items()]


def comparator_columns(comparators):
    """Sub-columns within a step so that comparators drawn in one column never overlap."""
    columns = []
    placed = []
    for lower, upper, ascending in comparators:
        for index, column in enumerate(columns):
            if all(upper < low or lower > up for low, up in column):
                column.append((lower, upper))
                placed.append(index)
                break
        else:
            columns.append([(lower, upper)])
            placed.append(len(columns) - 1)
    return placed, max(1, len(columns))


def draw_network(dump, n, row, column, kernel_of=None, tile=None, shared=False, title=""):
    """The network as wires (rows) and comparators (vertical arrows). kernel_of(size, stride)
    names the kernel that runs a step; consecutive steps of one launch share a coloured box."""
    steps = network(dump, n)
    left, top, gap = 64, 112 if kernel_of else 74, 14
    layout, x = [], left
    for size, stride, comparators in steps:
        placed, width = comparator_columns(comparators)
        layout.append((x, size, stride, comparators, placed, width))
        x += width * column + gap
    width_total, height_total = x + 24, top + n * row + 54
    svg = Svg(int(width_total), int(height_total))
    for line_number, line in enumerate(title):
        svg.text(12, 20 + 17 * line_number, line, 14 if line_number == 0 else 12,
                 weight="bold" if line_number == 0 else "normal")
    # The merges: one label over the steps of each size.
    for size in sorted({size for _, size, _, _, _, _ in layout}):
        columns = [(x0, width) for x0, s, _, _, _, w in layout if s == size for width in [w]]
        first, last = columns[0][0], columns[-1][0] + columns[-1][1] * column
        label_y = top - (34 if kernel_of else 10)
        svg.line(first, label_y + 4, last, label_y + 4, "#888", 0.8)
        svg.text((first + last) / 2, label_y, f"size {size}", 10, "middle", "#555")
    if kernel_of:
        launches, current = [], None
        for x0, size, stride, comparators, placed, width in layout:
            kernel = kernel_of(size, stride)
            if kernel == "bitonic_step" or kernel != (current[0] if current else None):
                current = [kernel, x0, x0 + width * column]
                launches.append(current)
            else:
                current[2] = x0 + width * column
        for number, (kernel, x0, x1) in enumerate(launches, start=1):
            svg.rect(x0 - 6, top - 26, x1 - x0 + 12, n * row + 30, KERNEL_COLOURS[kernel],
                     opacity=0.35, rx=4)
            svg.text((x0 + x1) / 2, top - 12, str(number), 11, "middle", weight="bold")
        legend_x = 12
        for kernel, colour in KERNEL_COLOURS.items():
            svg.rect(legend_x, 44, 12, 12, colour, opacity=0.6)
            label = kernel + (" (shared memory)" if shared and kernel != "bitonic_step" else "")
            svg.text(legend_x + 16, 54, label, 11)
            legend_x += 22 + 7 * len(label)
        svg.text(legend_x + 10, 54, "numbers: launches in order", 11, fill="#555")
    for wire in range(n):
        y = top + wire * row + row / 2
        svg.line(left - 10, y, width_total - 16, y, "#999", 0.8)
        svg.text(left - 16, y + 4, str(wire), 10, "end", "#555")
    if tile:
        for boundary in range(tile, n, tile):
            y = top + boundary * row
            svg.line(left - 40, y, width_total - 16, y, "#555", 1.0, dash="4,3")
        svg.text(12, top + n * row + 20, f"dashed: tile boundaries ({tile} keys per tile here)",
                 11, fill="#555")
    for x0, size, stride, comparators, placed, width in layout:
        for (lower, upper, ascending), sub in zip(comparators, placed):
            cx = x0 + sub * column + column / 2
            y1, y2 = top + lower * row + row / 2, top + upper * row + row / 2
            colour = ASCENDING if ascending else DESCENDING
            svg.line(cx, y1, cx, y2, colour, 1.4)
            svg.circle(cx, y1 if ascending else y2, 2.2, colour)
            tip = y2 if ascending else y1
            direction = 1 if ascending else -1
            svg.polygon([(cx, tip), (cx - 3.2, tip - 6 * direction), (cx + 3.2, tip - 6 * direction)],
                        colour)
        svg.text(x0 + width * column / 2, top + n * row + (38 if tile else 16), f"{stride}", 10,
                 "middle", "#555")
    svg.text(left - 10, top + n * row + (38 if tile else 16), "stride", 10, "end", "#555")
    return svg.render()


def network_figure(dump):
    return draw_network(dump, 16, 18, 11, title=[
        "The bitonic network for n = 16",
        "Arrows point to where the larger key goes: blue ascending pairs, red descending."])


def kernels_figure(dump, shared):
    n, tile = 32, 8

    def kernel_of(size, stride):
        if size <= tile:
            return "block_sort"
        return "bitonic_step" if stride >= tile else "block_merge"

    stage = "v2_shared" if shared else "v1_fused"
    return draw_network(dump, n, 12, 8, kernel_of, tile, shared, title=[
        f"{stage}: the launch that runs each step",
        "n = 32 and a tile of 8 keys for the picture; the stage's tile is 1024 keys."])


def shuffle_figure():
    lanes, cell = 32, 22
    strides = [16, 8, 4, 2, 1]
    left, top, band = 70, 40, 74
    svg = Svg(left + lanes * cell + 20, top + len(strides) * band + 20)
    svg.text(12, 22, "__shfl_xor_sync(mask, key, stride): lane l swaps keys with lane l ^ stride",
             14, weight="bold")
    for index, stride in enumerate(strides):
        base = top + index * band + 52
        svg.text(left - 10, base + 4, f"stride {stride}", 11, "end")
        for lane in range(lanes):
            x = left + lane * cell
            svg.rect(x + 1, base - 8, cell - 2, 16, "#eef3f8", "#9ab")
            svg.text(x + cell / 2, base + 4, str(lane), 9, "middle")
            partner = lane ^ stride
            if partner > lane:
                x1, x2 = x + cell / 2, left + partner * cell + cell / 2
                height = 6 + 38 * math.log2(2 * stride) / 5
                colour = ASCENDING if lane % 2 == 0 else "#4a9a6a"
                svg.path(f"M {x1:.1f} {base - 9:.1f} C {x1:.1f} {base - 9 - height:.1f} "
                         f"{x2:.1f} {base - 9 - height:.1f} {x2:.1f} {base - 9:.1f}", colour, 1.1)
    return svg.render()


def lower_partner_figure():
    n, cell = 16, 30
    strides = [1, 2, 4, 8]
    left, top, band = 80, 46, 78
    svg = Svg(left + n * cell + 30, top + len(strides) * band + 36)
    svg.text(12, 20, "get_lower_partner(t, stride): the pair of thread t", 14, weight="bold")
    svg.text(12, 37, "lower = 2 (t - t % stride) + t % stride, upper = lower + stride", 12)
    for index, stride in enumerate(strides):
        base = top + index * band + 44
        svg.text(left - 12, base + 4, f"stride {stride}", 11, "end")
        owner = {}
        for thread in range(n // 2):
            offset = thread & (stride - 1)
            owner[2 * (thread - offset) + offset] = thread
        for element in range(n):
            x = left + element * cell
            is_lower = (element & stride) == 0
            svg.rect(x + 1, base - 10, cell - 2, 20, "#d6e6f5" if is_lower else "#f8e0c8", "#889")
            svg.text(x + cell / 2, base + 4, str(element), 10, "middle")
            if is_lower:
                thread = owner[element]
                svg.text(x + cell / 2, base + 24, f"t{thread}", 10, "middle", ASCENDING, "bold")
                x2 = left + (element + stride) * cell + cell / 2
                height = 8 + 6 * math.log2(stride)
                svg.path(f"M {x + cell / 2:.1f} {base - 11:.1f} C {x + cell / 2:.1f} "
                         f"{base - 11 - height:.1f} {x2:.1f} {base - 11 - height:.1f} {x2:.1f} "
                         f"{base - 11:.1f}", "#555", 0.9)
    svg.text(left, top + len(strides) * band + 12,
             "blue: lower elements (bit `stride` is 0) and the thread that owns the pair", 11,
             fill="#555")
    svg.text(left, top + len(strides) * band + 27, "orange: upper elements", 11, fill="#555")
    return svg.render()


def banks_figure():
    lanes, cell = 32, 20
    left, top, panel = 60, 40, 150
    svg = Svg(left + lanes * cell + 30, top + 2 * panel + 30)
    svg.text(12, 22, "The first tile store (k = 0) of one warp: lane -> shared-memory bank", 14,
             weight="bold")
    mappings = [("v4_half_threads: lane l writes word 2l (bank 2l mod 32)", lambda l: 2 * l),
                ("v5_bank_free: lane l writes word l (bank l)", lambda l: l)]
    for index, (label, word) in enumerate(mappings):
        base = top + index * panel + 20
        svg.text(left, base, label, 12, weight="bold")
        hits = {}
        for lane in range(lanes):
            hits.setdefault(word(lane) % 32, []).append(lane)
        for lane in range(lanes):
            x = left + lane * cell
            svg.rect(x + 1, base + 12, cell - 2, 16, "#eef3f8", "#9ab")
            svg.text(x + cell / 2, base + 24, str(lane), 8, "middle")
            bank = word(lane) % 32
            conflict = len(hits[bank]) > 1
            svg.line(x + cell / 2, base + 29, left + bank * cell + cell / 2, base + 92,
                     DESCENDING if conflict else ASCENDING, 1.0)
        for bank in range(32):
            x = left + bank * cell
            count = len(hits.get(bank, []))
            fill = "#f5b7b1" if count > 1 else ("#d5f5e3" if count == 1 else "#f4f4f4")
            svg.rect(x + 1, base + 93, cell - 2, 16, fill, "#9ab")
            svg.text(x + cell / 2, base + 105, str(bank), 8, "middle")
        svg.text(left - 8, base + 24, "lane", 9, "end", "#555")
        svg.text(left - 8, base + 105, "bank", 9, "end", "#555")
        worst = max(len(v) for v in hits.values())
        svg.text(left, base + 126, f"most lanes on one bank: {worst}"
                 + (" (2-way conflict: red)" if worst > 1 else " (no conflict)"), 11,
                 fill=DESCENDING if worst > 1 else "#2e7d4f")
    return svg.render()


PALETTE = ["#888888", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
           "#e377c2", "#17becf", "#bcbd22"]


def colour_of(program):
    """One colour per program, the same in every plot."""
    programs = ["std_sort"] + stage_names() + BASELINES
    return PALETTE[programs.index(program) % len(PALETTE)] if program in programs else "#000"


def log_plot(series, title, y_label, y_log=True, reference=None, y_ticks=None):
    """A line plot with a log2 x axis (n) and a log10 (or linear) y axis."""
    width, height = 760, 480
    left, right, top, bottom = 70, 190, 40, 50
    xs = sorted({q for points in series.values() for q, _ in points})
    ys = [y for points in series.values() for _, y in points if y > 0]
    x0, x1 = min(xs), max(xs)
    if y_ticks:
        y0, y1 = math.log10(y_ticks[0]), math.log10(y_ticks[-1])
    elif y_log:
        y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
    else:
        y0, y1 = 0, math.ceil(max(ys))

    def px(q):
        return left + (q - x0) / (x1 - x0) * (width - left - right)

    def py(y):
        value = math.log10(y) if y_log else y
        return top + (1 - (value - y0) / (y1 - y0)) * (height - top - bottom)

    svg = Svg(width, height)
    svg.text(left, 24, title, 14, weight="bold")
    for q in xs:
        svg.line(px(q), top, px(q), height - bottom, "#eee", 1)
        if (x1 - q) % 2 == 0:
            svg.text(px(q), height - bottom + 16, f"2^{q}", 10, "middle")
    values = y_ticks or ([10 ** tick for tick in range(int(y0), int(y1) + 1)] if y_log
                         else list(range(0, int(y1) + 1)))
    for value in values:
        svg.line(left, py(value), width - right, py(value), "#ddd", 1)
        svg.text(left - 6, py(value) + 4, f"{value:g}", 10, "end")
    if reference is not None:
        svg.line(left, py(reference), width - right, py(reference), "#555", 1.2, dash="5,4")
    svg.text((left + width - right) / 2, height - 12, "n (keys)", 11, "middle")
    svg.text(18, (top + height - bottom) / 2, y_label, 11, "middle", rotate=-90)
    for index, (name, points) in enumerate(series.items()):
        colour = colour_of(name)
        dash = "5,3" if name in BASELINES or name == "std_sort" else None
        svg.polyline([(px(q), py(y)) for q, y in points if y > 0], colour, 1.8, dash)
        for q, y in points:
            svg.circle(px(q), py(y), 2.2, colour)
        legend_y = top + 10 + index * 18
        svg.line(width - right + 14, legend_y, width - right + 38, legend_y, colour, 2.2)
        svg.text(width - right + 44, legend_y + 4, name, 11)
    return svg.render()


def time_plot(results):
    series = {}
    for program in ["std_sort"] + stage_names() + BASELINES:
        points = [(q, results.time(program, q)) for q in results.sizes()
                  if results.time(program, q)]
        if points:
            series[program] = points
    return log_plot(series, f"Sort time against n, {results.gpu}", "sort time (ms)")


def floor_plot(results):
    series = {}
    for stage in stage_names():
        points = [(q, results.time(stage, q) / results.floor(stage, q)) for q in results.sizes()
                  if q >= 18 and results.time(stage, q) and results.floor(stage, q)]
        series[stage] = points
    return log_plot(series, "Time over the stage's own floor (dashed line: at the floor)",
                    "time / floor", reference=1.0, y_ticks=[0.8, 1, 1.5, 2, 3, 5, 8])


# ---------------------------------------------------------------------------------------------
# Putting it together


def tile_size(stage):
    """kTileSize from the stage's bitonic_index.h (None for v0, which has no tile)."""
    match = re.search(r"constexpr unsigned kTileSize = (\d+);",
                      read(os.path.join(ROOT, stage, "bitonic_index.h")))
    return int(match.group(1)) if match else None


def in_block_launch_cost(results, stage, q):
    """The estimated time of one in-block launch of a one-thread-per-key stage (v1..v3), in
    v0 launches at the same n (see fused_estimate)."""
    t = int(math.log2(tile_size(stage)))
    launches = int(results.get(stage, q)["launches"])
    in_block = 1 + max(0, q - t)
    per_step = results.time("v0_naive", q) / int(results.get("v0_naive", q)["launches"])
    in_block_ms = results.time(stage, q) - (launches - in_block) * per_step
    return in_block_ms, in_block, per_step


def fused_estimate(results, stages):
    """How long the in-block launches of v1..v3 take, estimated from the measurements: those
    stages run v0's bitonic_step unchanged, so their bitonic_step launches should cost what
    v0's launches cost at the same n; the rest of the time is the in-block launches'."""
    rows = []
    for stage in stages:
        for q in HEADLINE_SIZES:
            launches = int(results.get(stage, q)["launches"])
            in_block_ms, in_block, per_step = in_block_launch_cost(results, stage, q)
            rows.append([f"`{stage}`", f"2^{q}", str(launches - in_block), str(in_block),
                         ms(per_step), ms(in_block_ms), ms(in_block_ms / in_block),
                         f"{in_block_ms / in_block / per_step:.1f}"])
    return (table(["stage", "n", "bitonic_step launches", "in-block launches",
                   "v0 ms per launch", "in-block ms (estimate)", "ms per in-block launch",
                   "in v0 launches"], rows) +
            "\nEstimate: stage time minus its bitonic_step launches at v0's measured time per "
            "launch. " + results.source() + "\n")


def repeatability(results):
    """The same stages at the same sizes in two runs: how far apart two measurements of one
    program fall, the yardstick for differences between stages."""
    earlier = {}
    for row in load_csv(REPEAT_CSV):
        if row["program"] != "copy":
            earlier[(row["program"], int(row["n"]).bit_length() - 1)] = float(row["sort_ms"])
    rows = []
    for stage in stage_names():
        cells = [f"`{stage}`"]
        for q in HEADLINE_SIZES:
            before, now = earlier.get((stage, q)), results.time(stage, q)
            cells.append(f"{100 * (now - before) / before:+.1f}%" if before and now else "")
        rows.append(cells)
    first = load_csv(REPEAT_CSV)[0]
    return (table(["stage"] + [f"2^{q}" for q in HEADLINE_SIZES], rows) +
            f"\nDifference between the tour's sort time and an earlier run's "
            f"(`docs/results/{os.path.basename(REPEAT_CSV)}`, {first['device']}, "
            f"{first.get('date', '')}, same sources), as a share of the earlier one.\n")


def lower_partner_examples():
    """Worked examples of get_lower_partner (the formula of bitonic_index.h, evaluated here;
    tests/index_pair_test.cpp checks the header's function on the same examples)."""
    rows = []
    for thread, stride in [(0, 1), (1, 1), (6, 1), (6, 2), (6, 4), (6, 8), (11, 4), (13, 8)]:
        offset = thread & (stride - 1)
        run_start = 2 * (thread - offset)
        lower = run_start + offset
        rows.append([str(thread), f"{thread:04b}", str(stride), str(offset), str(run_start),
                     f"{lower} ({lower:05b})", str(lower + stride)])
    return table(["thread t", "t in binary", "stride", "offset = t & (stride - 1)",
                  "run start = 2 (t - offset)", "lower", "upper = lower + stride"], rows)


def crossover_size(results, program):
    """The largest n up to which v5 is faster than `program` at every measured size."""
    best = None
    for q in results.sizes():
        if results.time("v5_bank_free", q) >= results.time(program, q):
            break
        best = q
    return f"2^{best}" if best is not None else "no size"


def cpu_crossover_size(results):
    """The smallest n from which every stage is faster than std::sort at every larger size."""
    answer = None
    for q in reversed(results.sizes()):
        if any(results.time(stage, q) >= results.time("std_sort", q) for stage in stage_names()):
            break
        answer = q
    return f"2^{answer}" if answer is not None else "no size"


def inline_value(results, name):
    """v:KIND:ARGS, one measured number for the prose, e.g. v:time:v5_bank_free:29."""
    kind, *args = name.split(":")[1:]
    if kind == "copy":
        return f"{results.copy_gb_s:.0f} GB/s"
    if kind == "crossover":
        return crossover_size(results, args[0])
    if kind == "cpu-crossover":
        return cpu_crossover_size(results)
    program, q = args[0], int(args[-1])
    row = results.get(program, q)
    if kind == "time":
        return f"{ms(results.time(program, q))} ms"
    if kind == "total":
        return f"{ms(float(row['total_ms']))} ms"
    if kind == "floor":
        return f"{ms(results.floor(program, q))} ms"
    if kind == "xfloor":
        return f"{results.time(program, q) / results.floor(program, q):.2f}"
    if kind == "percent":
        return f"{100 * float(row['effective_gb_s']) / results.copy_gb_s:.0f}%"
    if kind == "launches":
        return row["launches"]
    if kind == "in-block":
        in_block_ms, in_block, per_step = in_block_launch_cost(results, program, q)
        return f"{in_block_ms / in_block / per_step:.1f}"
    if kind == "in-block-share":
        in_block_ms, _, _ = in_block_launch_cost(results, program, q)
        return f"{100 * in_block_ms / results.time(program, q):.0f}%"
    if kind == "speedup":
        # How many times faster `program` is than args[1] at n = 2^q.
        return f"{results.time(args[1], q) / results.time(program, q):.2f}x"
    raise KeyError(name)


def generated_blocks(results):
    """name -> function making the Markdown of that block."""
    stages = stage_names()
    blocks = {
        "readme-results": lambda: readme_results(results),
        "v0-table": lambda: v0_table(results),
        "crossover": lambda: crossover(results),
        "totals": lambda: totals(results),
        "transfers": transfers_table,
        "banks-ncu": banks_table,
        "sass-tile": sass_table,
        "lower-partner-examples": lower_partner_examples,
        "repeatability": lambda: repeatability(results),
        "fused-estimate": lambda: fused_estimate(results, ["v1_fused", "v2_shared", "v3_warp"]),
    }
    for q in results.sizes():
        blocks[f"progression-{q}"] = (lambda q=q: progression(results, q) + "\n" +
                                      results.source() + "\n")
    for previous, stage in zip(stages, stages[1:]):
        blocks[f"diff-{stage}"] = lambda p=previous, s=stage: stage_diff(p, s)
        blocks[f"table-{stage}"] = lambda p=previous, s=stage: stage_table(results, s, p)
    return blocks


BLOCK = re.compile(r"(<!-- BEGIN GENERATED (\S+) -->\n?)(.*?)(<!-- END GENERATED \2 -->)", re.S)


def fill_markdown(text, blocks, results, path, problems):
    def replace(match):
        name = match.group(2)
        try:
            if name.startswith("v:"):
                return match.group(1) + inline_value(results, name) + match.group(4)
            return match.group(1) + blocks[name]() + match.group(4)
        except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
            problems.append(f"{path}: cannot make generated block '{name}'")
            return match.group(0)

    return BLOCK.sub(replace, text)


def expected_files(arguments):
    results = Results(TOUR_CSV)
    files = {
        os.path.join(FIGURES, "network16.svg"): network_figure(arguments.network_dump),
        os.path.join(FIGURES, "kernels_v1.svg"): kernels_figure(arguments.network_dump, False),
        os.path.join(FIGURES, "kernels_v2.svg"): kernels_figure(arguments.network_dump, True),
        os.path.join(FIGURES, "shuffle_xor.svg"): shuffle_figure(),
        os.path.join(FIGURES, "lower_partner.svg"): lower_partner_figure(),
        os.path.join(FIGURES, "banks.svg"): banks_figure(),
    }
    problems = []
    if results.rows:
        files[os.path.join(FIGURES, "results_time.svg")] = time_plot(results)
        files[os.path.join(FIGURES, "results_floor.svg")] = floor_plot(results)
    else:
        problems.append(f"{TOUR_CSV} is missing: run common/tour.py on a GPU first")
    blocks = generated_blocks(results) if results.rows else {}
    markdown = [os.path.join(ROOT, "README.md")] + sorted(
        os.path.join(DOCS, name) for name in os.listdir(DOCS) if name.endswith(".md"))
    for path in markdown:
        text = read(path)
        files[path] = fill_markdown(text, blocks, results, os.path.relpath(path, ROOT), problems)
    for stage in stage_names():
        chapter = CHAPTERS.get(stage)
        if not chapter or not os.path.exists(os.path.join(DOCS, chapter)):
            problems.append(f"stage {stage} has no chapter in docs/ (add it to CHAPTERS here)")
    return files, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network-dump", required=True,
                        help="the network_dump program (build/common/network_dump)")
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    arguments = parser.parse_args()
    files, problems = expected_files(arguments)
    stale = []
    for path, content in files.items():
        current = read(path) if os.path.exists(path) else None
        if current != content:
            stale.append(os.path.relpath(path, ROOT))
            if not arguments.check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as file:
                    file.write(content)
    for problem in problems:
        print("problem:", problem)
    if arguments.check:
        for path in stale:
            print("out of date:", path)
        if stale or problems:
            print("run: meson compile -C build docs (or python3 docs/generate.py "
                  "--network-dump build/common/network_dump)")
            return 1
        print(f"{len(files)} generated files and blocks are current")
        return 0
    print(f"wrote {len(stale)} of {len(files)} files" + (f": {', '.join(stale)}" if stale else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
