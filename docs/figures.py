"""The course's figures, drawn from the reference network and the stages' index rules.

Every figure is made here from what tools/network_dump prints: the host reference network, and
the index functions of the stages' bitonic_index.h (get_lower_partner, get_first_key, v13's
group_key, group_slot and round_low, and v14's plan of passes), called as
the kernels call them; the measured plots are drawn from the recorded CSV files (docs/tables.py
reads them)."""
import math
import subprocess

from drawing import ASCENDING, DESCENDING, PALETTE, Svg, log_plot

KERNEL_COLOURS = {"block_sort": "#7fb3d5", "bitonic_step": "#f5b041", "block_merge": "#82c99a"}


def network(dump, n, mirrored=False):
    """[(size, stride, [(lower, upper, ascending)])] from tools/network_dump: chapter 1's network,
    or its mirrored form."""
    form = ["mirrored"] if mirrored else []
    output = subprocess.run([dump, *form, str(n)], capture_output=True, text=True,
                            check=True).stdout
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
    for lower, upper, _ in comparators:
        for index, column in enumerate(columns):
            if all(upper < low or lower > up for low, up in column):
                column.append((lower, upper))
                placed.append(index)
                break
        else:
            columns.append([(lower, upper)])
            placed.append(len(columns) - 1)
    return placed, max(1, len(columns))


def draw_network(dump, n, row, column, kernel_of=None, tile=None, shared=False, title="",
                 mirrored=False):
    """The network as wires (rows) and comparators (vertical arrows). kernel_of(size, stride)
    names the kernel that runs a step; consecutive steps of one launch share a coloured box.
    mirrored: the network's mirrored form, whose first step of each merge is labelled so."""
    steps = network(dump, n, mirrored)
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
        label = "mirror" if mirrored and stride == size // 2 else f"{stride}"
        svg.text(x0 + width * column / 2, top + n * row + (38 if tile else 16), label, 10,
                 "middle", "#555")
    svg.text(left - 10, top + n * row + (38 if tile else 16), "stride", 10, "end", "#555")
    return svg.render()


def network_figure(dump):
    return draw_network(dump, 16, 18, 11, title=[
        "The bitonic network for n = 16",
        "Arrows point to where the larger key goes: blue ascending pairs, red descending."])


def mirrored_figure(dump):
    return draw_network(dump, 16, 18, 11, mirrored=True, title=[
        "The same network in its mirrored form (chapter 20)",
        "Each merge opens with i against i ^ (size - 1); every arrow points down: ascending."])


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


def register_top_figure(lanes=8, run=4):
    """v16's register_top on one array of lanes * run keys, runs of `run` keys for short (the
    kernel's are 16): each lane sorts its keys, then rounds 1, 2, 4, ... lanes apart keep, in
    both lanes of a pair, min(a[k], b[run - 1 - k]) merged: the better half of the two runs."""
    # Keys 0 .. 99 from a fixed linear congruential sequence, so the figure never changes.
    keys, state = [], 7
    for _ in range(lanes * run):
        state = (state * 1103515245 + 12345) % 2**31
        keys.append(state % 100)
    # Lane l holds keys l, l + lanes, l + 2 lanes, ... of the array, as thread j holds j, j + T.
    runs = [[keys[k * lanes + lane] for k in range(run)] for lane in range(lanes)]
    rows = [(f"loaded: lane l holds keys l, l + {lanes}, l + {2 * lanes}, ... of the array", runs,
             None)]
    runs = [sorted(r) for r in runs]
    rows.append(("each lane sorts its run in registers", runs, None))
    distance = 1
    while distance < lanes:
        runs = [sorted(min(runs[lane][k], runs[lane ^ distance][run - 1 - k]) for k in range(run))
                for lane in range(lanes)]
        rows.append((f"keep_better_half, partner lane ^ {distance}", runs, distance))
        distance *= 2
    cell, gap, left, top, band = 26, 14, 20, 40, 78
    width = left * 2 + lanes * (run * cell + gap)
    svg = Svg(width, top + len(rows) * band)
    svg.text(12, 22, f"register_top on one array of {lanes * run} keys, {lanes} lanes, runs of "
             f"{run} (the kernel's are 16)", 14, weight="bold")
    smallest = sorted(keys)[:run]
    for index, (title, row_runs, distance) in enumerate(rows):
        base = top + index * band + 44
        svg.text(left, base - 30, title, 11)
        for lane, lane_run in enumerate(row_runs):
            x0 = left + lane * (run * cell + gap)
            if index == 0:
                svg.text(x0 + run * cell / 2, base + 28, f"lane {lane}", 9, "middle")
            for k, key in enumerate(lane_run):
                kept = index == len(rows) - 1 and key in smallest
                svg.rect(x0 + k * cell + 1, base - 10, cell - 2, 20,
                         "#cfe3f5" if kept else "#f4f4f4", "#9ab")
                svg.text(x0 + k * cell + cell / 2, base + 4, str(key), 10, "middle")
            partner = lane ^ distance if distance else lane
            if partner > lane:
                x1 = x0 + run * cell / 2
                x2 = left + partner * (run * cell + gap) + run * cell / 2
                lift = 8 + 4 * math.log2(distance)
                svg.path(f"M {x1:.1f} {base - 11:.1f} C {x1:.1f} {base - 11 - lift:.1f} "
                         f"{x2:.1f} {base - 11 - lift:.1f} {x2:.1f} {base - 11:.1f}", ASCENDING,
                         1.1)
    return svg.render()


def lower_partners(dump, stride, threads):
    """[(lower, upper)] of threads 0 .. threads-1 at `stride`: the stages' get_lower_partner,
    printed by tools/network_dump."""
    output = subprocess.run([dump, "lower", str(stride), str(threads)], capture_output=True,
                            text=True, check=True).stdout
    return [tuple(int(v) for v in line.split()[1:]) for line in output.splitlines()]


def first_keys(dump, lowest, steps, n):
    """[first key] of each thread of a multistep pass: v6's get_first_key (tools/network_dump)."""
    output = subprocess.run([dump, "groups", str(lowest), str(steps), str(n)],
                            capture_output=True, text=True, check=True).stdout
    return [int(line.split()[1]) for line in output.splitlines()]


def lower_partner_figure(dump):
    n, cell = 16, 30
    strides = [1, 2, 4, 8]
    left, top, band = 80, 46, 78
    svg = Svg(left + n * cell + 30, top + len(strides) * band + 36)
    svg.text(12, 20, "get_lower_partner(t, stride): the pair of thread t", 14, weight="bold")
    svg.text(12, 37, "lower = 2 (t - t % stride) + t % stride, upper = lower + stride", 12)
    for index, stride in enumerate(strides):
        base = top + index * band + 44
        svg.text(left - 12, base + 4, f"stride {stride}", 11, "end")
        owner = {lower: thread
                 for thread, (lower, _) in enumerate(lower_partners(dump, stride, n // 2))}
        for element in range(n):
            x = left + element * cell
            is_lower = element in owner
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




def warp_slot_figure():
    """v4's register layout (warp_slot with two keys per thread): lane l holds keys l and l + 32
    of its warp's run of 64, and a shuffle of stride s pairs the same register of lanes l and
    l ^ s. The picture shows 16 lanes and stride 4 to keep it readable."""
    lanes, cell = 16, 34
    left, top = 96, 54
    svg = Svg(left + lanes * cell + 24, top + 2 * 58 + 92)
    svg.text(12, 22, "warp_slot with two keys per thread: register k of lane l holds key l + 32 k",
             14, weight="bold")
    svg.text(12, 40, "(the first 16 of the 32 lanes shown; arcs: the pairs of one shuffle, stride 4)",
             11, fill="#555")
    for lane in range(lanes):
        svg.text(left + lane * cell + cell / 2, top + 6, f"lane {lane}" if lane < 1 else str(lane),
                 9, "middle", "#555")
    for register in range(2):
        y = top + 18 + register * 58
        svg.text(left - 10, y + 15, f"register {register}", 11, "end")
        for lane in range(lanes):
            x = left + lane * cell
            svg.rect(x + 2, y, cell - 4, 22, "#eef3f8" if register == 0 else "#f8efe2", "#9ab")
            svg.text(x + cell / 2, y + 15, str(lane + 32 * register), 10, "middle")
        for lane in range(lanes):
            partner = lane ^ 4
            if partner > lane:
                x1, x2 = left + lane * cell + cell / 2, left + partner * cell + cell / 2
                svg.path(f"M {x1:.1f} {y + 23:.1f} C {x1:.1f} {y + 40:.1f} {x2:.1f} {y + 40:.1f} "
                         f"{x2:.1f} {y + 23:.1f}", ASCENDING, 1.0)
    base = top + 2 * 58 + 30
    svg.text(12, base, "Key and lane differ by 32 k in register k, so key ^ stride (stride < 32) is "
                       "in the same register of lane ^ stride:", 11)
    svg.text(12, base + 17, "one shuffle per register exchanges every pair. The stride-32 pair, "
                            "keys l and l + 32, is the two registers of one lane.", 11)
    return svg.render()


def store_figure():
    """Chapter 21: the first 64 keys (256 bytes) of a warp's 512 as two ways of storing them
    write them. Thread-major (v18), lane l holds keys 16 l .. 16 l + 15 and its store v writes
    registers 4 v .. 4 v + 3; through the tile (v19), register k of lane l is key l + 32 k, and
    the warp's store of register k writes keys 32 k .. 32 k + 31. Each cell is a key, coloured by
    the store instruction of the warp that writes it; the boxes are sectors of 32 bytes."""
    keys, cell = 64, 13
    left, top, row = 24, 58, 92
    svg = Svg(left + keys * cell + 24, top + 2 * row + 20)
    svg.text(12, 22, "Which store of a warp writes each key: the first 64 of its 512 keys "
             "(boxes: 32-byte sectors)", 14, weight="bold")
    svg.text(12, 40, "colour: the warp's store instruction; a sector of two colours is written by "
             "two stores", 11, fill="#555")
    panels = [("v18, thread-major: lane l holds keys 16 l .. 16 l + 15, store v writes its "
               "registers 4 v .. 4 v + 3", lambda key: (key % 16) // 4, "store v = {}"),
              ("v19, through the tile: register k of lane l is key l + 32 k, the warp's store k "
               "writes keys 32 k .. 32 k + 31", lambda key: key // 32, "store k = {}")]
    for panel, (title, store_of, label) in enumerate(panels):
        y = top + panel * row
        svg.text(left, y, title, 11)
        for key in range(keys):
            svg.rect(left + key * cell, y + 10, cell - 1, 22, PALETTE[1 + store_of(key)], "#fff")
        for sector in range(keys // 8):
            svg.rect(left + sector * 8 * cell - 1, y + 8, 8 * cell, 26, "none", "#222")
        for lane in range(0, keys, 16 if panel == 0 else 32):
            svg.text(left + lane * cell, y + 46, f"key {lane}" + (f" (lane {lane // 16})"
                                                                   if panel == 0 else ""), 9,
                     fill="#555")
        shown = sorted({store_of(key) for key in range(keys)})
        for place, store in enumerate(shown):
            x = left + place * 110
            svg.rect(x, y + 56, 12, 12, PALETTE[1 + store])
            svg.text(x + 16, y + 66, label.format(store), 10)
    return svg.render()


def multistep_figure(dump):
    """The group of keys one thread of v6's multistep holds for a pass of three steps with
    lowest stride 4 (strides 16, 8, 4), on 64 keys: get_first_key and first + m * 4."""
    n, cell = 64, 12
    steps, lowest = 3, 4
    left, top = 20, 58
    svg = Svg(left + n * cell + 30, 300)
    svg.text(12, 22, "multistep, 3 steps from stride 16: the 8 keys a thread holds, first + m * 4",
             14, weight="bold")
    svg.text(12, 40, "n = 64 for the picture; colours: threads 0, 1 and 5 (first = 0, 1, 33)", 11,
             fill="#555")
    colours = {0: ASCENDING, 1: "#2e7d4f", 5: DESCENDING}
    firsts = first_keys(dump, lowest, steps, n)
    owner = {first + m * lowest: thread
             for thread, first in enumerate(firsts) for m in range(1 << steps)}
    for key in range(n):
        x = left + key * cell
        thread = owner[key]
        fill = colours.get(thread, "#f0f0f0")
        svg.rect(x + 1, top, cell - 2, 18, fill, "#bbb", opacity=0.85 if thread in colours else 1)
        if key % 8 == 0:
            svg.text(x + cell / 2, top + 32, str(key), 9, "middle", "#555")
    # The three steps of thread 5's group, as pairs of its registers m and m + 2^j.
    first = firsts[5]
    for j, y in zip(range(steps - 1, -1, -1), (top + 76, top + 126, top + 176)):
        stride = lowest << j
        svg.text(12, y - 8, f"step {steps - j}: stride {stride}, registers m and m + {1 << j} "
                            f"(keys {first + 0} and {first + stride}, ...)", 11)
        for m in range(1 << steps):
            x = left + (first + m * lowest) * cell + cell / 2
            svg.circle(x, y + 10, 4, DESCENDING)
            if (m >> j) & 1 == 0:
                x2 = left + (first + (m + (1 << j)) * lowest) * cell + cell / 2
                svg.path(f"M {x:.1f} {y + 6:.1f} C {x:.1f} {y - 8:.1f} {x2:.1f} {y - 8:.1f} "
                         f"{x2:.1f} {y + 6:.1f}", "#555", 1.0)
    svg.text(12, 292, "Every pair of the three steps lies in one thread's group: load 8 keys, "
                      "compare in registers three times, store 8 keys.", 11)
    return svg.render()


def group_pass(dump, top_bit, lowest_bit):
    """One group_steps pass of v13 as tools/network_dump prints it (v13's group_key, group_slot,
    round_low): {slot bit: index bit}, {group bit: index bit}, [(round low, first, last)], the
    store's layout and {layout: {slot bit: (role, bit)}}."""
    output = subprocess.run([dump, "group", str(top_bit), str(lowest_bit)], capture_output=True,
                            text=True, check=True).stdout
    keys, groups, rounds, roles, store = {}, {}, [], {}, None
    for line in output.splitlines():
        kind, *values = line.split()
        if kind == "key":
            keys[int(values[0])] = int(values[1])
        elif kind == "group":
            groups[int(values[0])] = int(values[1])
        elif kind == "round":
            rounds.append(tuple(int(v) for v in values))
        elif kind == "store":
            store = int(values[0])
        else:
            roles.setdefault(int(values[0]), {})[int(values[1])] = (values[2], int(values[3]))
    return keys, groups, rounds, store, roles


GROUP_ROLE_COLOURS = {"lane": "#cfe2f3", "warp": "#e6e6e6", "register": "#f9d7a8"}


def group_panel(svg, dump, top, title, top_bit, lowest_bit, bits=21):
    """Index bits bits-1 .. 0 of one pass: which are the group's slot bits and which its
    number, then each round's layout of the slot bits (lane, warp or register bit), the steps
    of the round outlined. Returns the height drawn."""
    keys, groups, rounds, store, roles = group_pass(dump, top_bit, lowest_bit)
    slot_at = {index: slot for slot, index in keys.items()}
    left, cell = 214, 31
    x_of = {index: left + (bits - 1 - index) * cell for index in range(bits)}
    svg.text(12, top, title, 12, weight="bold")
    y = top + 14
    for index in range(bits):
        svg.text(x_of[index] + cell / 2, y + 9, str(index), 9, "middle", "#555")
    svg.text(left - 10, y + 9, "index bit", 10, "end", "#555")
    y += 14
    svg.text(left - 10, y + 14, "the block holds", 10, "end")
    for index in range(bits):
        x = x_of[index]
        if index in slot_at:
            slot = slot_at[index]
            svg.rect(x + 1, y, cell - 2, 20, "#fdebd0" if slot >= 5 else "#d6eaf8", "#999")
            svg.text(x + cell / 2, y + 14, f"s{slot}", 9, "middle")
        else:
            group = next(j for j, i in groups.items() if i == index) if index in groups.values() \
                else None
            svg.rect(x + 1, y, cell - 2, 20, "#ffffff", "#ccc")
            svg.text(x + cell / 2, y + 14, f"g{group}" if group is not None else "g", 9,
                     "middle", "#888")
    y += 30
    plan = [(f"round {number + 1}: strides 2^{keys[first]} .. 2^{keys[last]}", low, first, last)
            for number, (low, first, last) in enumerate(rounds)]
    plan.append((f"store (layout {store})", store, None, None))
    for label, low, first, last in plan:
        svg.text(left - 10, y + 14, label, 10, "end")
        for slot, (role, bit) in roles[low].items():
            x = x_of[keys[slot]]
            stepped = first is not None and last <= slot <= first
            svg.rect(x + 1, y, cell - 2, 20, GROUP_ROLE_COLOURS[role],
                     "#c0392b" if stepped else "#aaa")
            if stepped:
                svg.rect(x + 2, y + 1, cell - 4, 18, "none", "#c0392b")
            svg.text(x + cell / 2, y + 14, {"lane": "L", "warp": "W", "register": "R"}[role] + str(bit),
                     9, "middle")
        y += 26
    return y - top


def group_figure(dump):
    """v13's groups: the 14 index bits a block of group_steps holds in a pass of global strides
    (2^20 .. 2^12, on 2^21 keys for the picture) and in the merge below 2^14, and where each of
    them lives in each round (group_key, group_slot and round_low, printed by network_dump)."""
    svg = Svg(214 + 21 * 31 + 20, 0)
    svg.text(12, 22, "group_steps: the 2^14 keys of any 14 index bits, and where each bit lives",
             14, weight="bold")
    svg.text(12, 40, "s: a slot bit of the group (blue: lanes load and store along them); g: a bit "
                     "of the group's number, blockIdx.x", 11, fill="#555")
    svg.text(12, 56, "L: lane bit, W: warp bit, R: register bit of the thread that holds the key; "
                     "outlined: the round's steps, all on R bits", 11, fill="#555")
    bottom = 84 + group_panel(svg, dump, 84, "A pass of 9 global strides, 2^20 .. 2^12", 20, 5)
    bottom += 18 + group_panel(svg, dump, bottom + 18, "The merge below 2^14: strides 2^13 .. 1",
                               13, 0)
    svg.text(12, bottom + 14, "Between rounds the block trades keys through shared memory "
                              "(exchange_group): the bits change roles; every key stays in its "
                              "group.", 11)
    svg.height = bottom + 28
    return svg.render()


def span_plan(dump, n):
    """v14_span's launches for n keys, as tools/network_dump prints them (its for_each_launch):
    [(kernel, size, stride, steps)]."""
    output = subprocess.run([dump, "plan", str(n)], capture_output=True, text=True,
                            check=True).stdout
    return [(kernel, int(size), int(stride), int(steps))
            for _, kernel, size, stride, steps in (line.split() for line in output.splitlines())]


def span_passes(dump, n):
    """{stage: launches_per_sort(n)} of v13_any_bits and v14_span, from tools/network_dump."""
    output = subprocess.run([dump, "passes", str(n)], capture_output=True, text=True,
                            check=True).stdout
    return {stage: int(count) for stage, count in (line.split() for line in output.splitlines())}


def span_figure(dump, q=20):
    """v14_span's plan of passes for 2^q keys: one row per merge above block_sort's tile, one
    cell per compare step (its stride's bit), each coloured and numbered by the pass that runs
    it, so that a pass that spans two merges shows at the end of one row and the start of the
    next."""
    plan = span_plan(dump, 1 << q)
    cell, left, top = 30, 120, 78
    svg = Svg(left + q * cell + 20, 0)
    svg.text(12, 22, f"v14_span's passes for 2^{q} keys, from its for_each_launch", 14,
             weight="bold")
    svg.text(12, 40, "a row per merge, a cell per compare step at its stride's bit; the number and "
                     "colour say which pass runs it", 11, fill="#555")
    svg.text(12, 56, f"{len(plan)} passes: block_sort runs every merge up to its tile (not drawn), "
                     f"and v13 makes {span_passes(dump, 1 << q)['v13_any_bits']}", 11, fill="#555")
    owner = {}
    for number, (kernel, size, stride, steps) in enumerate(plan):
        for _ in range(steps if kernel != "block_sort" else 0):
            owner[(size, stride)] = number
            size, stride = (size, stride // 2) if stride > 1 else (size * 2, size)
    sizes = sorted({size for size, _ in owner})
    for bit in range(q):
        svg.text(left + (q - 1 - bit) * cell + cell / 2, top - 6, f"2^{bit}", 8, "middle", "#555")
    svg.text(left - 10, top - 6, "stride", 10, "end", "#555")
    y = top
    for size in sizes:
        svg.text(left - 10, y + 15, f"merge 2^{size.bit_length() - 1}", 10, "end")
        for bit in range(size.bit_length() - 1):
            number = owner[(size, 1 << bit)]
            x = left + (q - 1 - bit) * cell
            svg.rect(x + 1, y, cell - 2, 20, PALETTE[1 + number % (len(PALETTE) - 1)],
                     opacity=0.55)
            svg.text(x + cell / 2, y + 14, str(number), 9, "middle")
        y += 24
    svg.text(12, y + 16, "A pass holds the 2^14 keys whose indices differ in 14 bits: it runs "
                         "the steps in order while their strides are among them.", 11)
    svg.height = y + 30
    return svg.render()


def stage_plot(series, title, y_label, names, **options):
    """A log plot of stages and baselines, each with its own colour, baselines dashed."""
    colours = {name: PALETTE[index % len(PALETTE)] for index, name in enumerate(names)}
    dashed = [name for name in names if name.startswith(("cub", "std", "thrust", "torch"))]
    return log_plot(series, title, y_label, colours, dashed, **options)
