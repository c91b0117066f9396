#!/usr/bin/env python3
"""cpu suite: network_dump, the generator's view of the reference network.

Usage: network_dump_test.py NETWORK_DUMP

- `network_dump N` prints the n/2 comparators of each of the q(q+1)/2 steps, for n = 2^q.
- `network_dump mirrored N` prints the mirrored form (chapter 20): each merge's first step pairs
  i with i ^ (size - 1), every comparator ascending, and replayed it sorts reversed keys.
- `network_dump swaps N` counts, per distribution, the compare-exchanges whose pair is out of
  order. For sorted, reversed and equal keys that count depends only on the keys' relative
  order, so this test replays the printed comparators on keys of the same order and must find
  the same counts; for every distribution the count is at most the compares.
- `network_dump lower STRIDE T` (the stages' get_lower_partner): for every stride of n = 2^10
  the n / 2 threads own every pair (i, i XOR stride) exactly once.
- `network_dump groups LOWEST STEPS N` (v6's get_first_key): the threads' groups of 2^STEPS keys
  cover the N keys once, and every pair of the pass's steps lies in one group.
- `network_dump group TOP_BIT LOWEST` (v13's group_key, group_slot, round_low): the 14 slot bits
  are index bits 0 .. 4 and the pass's own (TOP_BIT - 8 .. TOP_BIT, or 0 .. 13 for the merge),
  the group number's bits are the others, low ones first; the rounds step every slot bit of the
  pass once, top down, each on a register bit of its round; every layout gives the 14 slot bits
  5 lanes, 4 warp bits and 5 register bits, one each; the store's lanes hold slot bits 0 .. 4.
- Sizes that are not powers of two, or too large, are refused with exit code 2.
"""
import os
import subprocess
import sys

# The figure's own reader of `network_dump group`, so that what it draws is what is checked here.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs"))
import figures  # noqa: E402

program = sys.argv[1]
failures = 0


def check(ok, what):
    global failures
    print("ok  " if ok else "FAIL", what)
    failures += not ok


def run(*arguments):
    return subprocess.run([program, *arguments], capture_output=True, text=True, timeout=120)


def replay(n, keys):
    """Runs the printed ascending network on keys; returns the number of swaps."""
    swaps = 0
    for line in run(str(n)).stdout.splitlines():
        _, _, lower, upper, direction = line.split()
        lower, upper = int(lower), int(upper)
        out_of_order = (keys[lower] > keys[upper] if direction == "asc"
                        else keys[lower] < keys[upper])
        if out_of_order:
            keys[lower], keys[upper] = keys[upper], keys[lower]
            swaps += 1
    return swaps, keys


for q in (1, 4, 10):
    n = 1 << q
    lines = run(str(n)).stdout.splitlines()
    check(len(lines) == q * (q + 1) // 2 * n // 2,
          f"network_dump {n}: {len(lines)} comparators, q(q+1)/2 steps of n/2")
    counts = {}
    for line in run("swaps", str(n)).stdout.splitlines():
        name, compares, swaps = line.split()
        counts[name] = (int(compares), int(swaps))
    check(len(counts) == 7 and all(c == len(lines) and 0 <= s <= c for c, s in counts.values()),
          f"network_dump swaps {n}: 7 distributions, each with {len(lines)} compares and at "
          "most as many swaps")
    for name, keys in (("sorted", list(range(n))), ("reversed", list(range(n, 0, -1))),
                       ("equal", [5] * n)):
        swaps, result = replay(n, keys)
        check(result == sorted(result) and counts.get(name, (0, -1))[1] == swaps,
              f"network_dump swaps {n}: {name} {counts.get(name)}, the replay finds {swaps}")

n = 1 << 10
for stride in (1 << s for s in range(10)):
    pairs = [tuple(map(int, line.split()[1:])) for line in
             run("lower", str(stride), str(n // 2)).stdout.splitlines()]
    expected = sorted((i, i ^ stride) for i in range(n) if i & stride == 0)
    check(sorted(pairs) == expected, f"network_dump lower {stride} {n // 2}: every pair once")

for lowest, steps in ((1, 1), (1, 6), (4, 3), (16, 6), (32, 5)):
    firsts = [int(line.split()[1]) for line in
              run("groups", str(lowest), str(steps), str(n)).stdout.splitlines()]
    groups = [[first + m * lowest for m in range(1 << steps)] for first in firsts]
    covered = sorted(key for group in groups for key in group)
    owner = {key: thread for thread, group in enumerate(groups) for key in group}
    closed = all(owner[key] == owner[key ^ (lowest << j)]
                 for key in range(n) for j in range(steps))
    check(len(firsts) == n >> steps and covered == list(range(n)) and closed,
          f"network_dump groups {lowest} {steps} {n}: {len(firsts)} groups cover the keys once "
          "and hold every pair of the pass")


for top_bit, lowest in ((13, 0), (13, 5), (14, 5), (20, 5), (30, 5)):
    keys, groups, rounds, store, roles = figures.group_pass(program, top_bit, lowest)
    own = list(range(14)) if top_bit == 13 else list(range(5)) + list(range(top_bit - 8,
                                                                               top_bit + 1))
    check(sorted(keys) == list(range(14)) and sorted(keys.values()) == own and
          all(keys[b] < keys[b + 1] for b in range(13)),
          f"network_dump group {top_bit} {lowest}: slot bits are index bits {own[0]} .. 4 and the "
          "pass's own, in order")
    others = [bit for bit in range(21) if bit not in own]
    check(list(groups.values()) == others[:len(groups)] and sorted(groups) == list(range(len(groups)))
          and (len(groups) == len(others) or top_bit == 30),
          f"network_dump group {top_bit} {lowest}: the group number fills the other index bits up "
          "to 20, low bits first")
    stepped = [bit for _, first, last in rounds for bit in range(first, last - 1, -1)]
    check(stepped == list(range(13, lowest - 1, -1)),
          f"network_dump group {top_bit} {lowest}: the rounds step slot bits 13 .. {lowest} once each")
    on_registers = all(roles[low][bit][0] == "register"
                       for low, first, last in rounds for bit in range(last, first + 1))
    check(on_registers, f"network_dump group {top_bit} {lowest}: every step is on a register bit")
    counts_ok = all(sorted(layout) == list(range(14)) and
                    sorted(role for role, _ in layout.values()) == ["lane"] * 5 + ["register"] * 5
                    + ["warp"] * 4 for layout in roles.values())
    check(counts_ok and set(roles) == {low for low, _, _ in rounds} | {store},
          f"network_dump group {top_bit} {lowest}: each layout gives the 14 slot bits 5 lane, 4 warp "
          "and 5 register bits")
    check(all(roles[store][bit] == ("lane", bit) for bit in range(5)),
          f"network_dump group {top_bit} {lowest}: the store's lanes hold slot bits 0 .. 4")

# The mirrored form (chapter 20): the same steps, each merge's first pairing i with i ^ (size - 1),
# every comparator ascending, and it sorts the reversed keys.
mirrored = [line.split() for line in run("mirrored", "8").stdout.splitlines()]
keys = list(range(8, 0, -1))
for _, _, lower, upper, _ in mirrored:
    lower, upper = int(lower), int(upper)
    keys[lower], keys[upper] = min(keys[lower], keys[upper]), max(keys[lower], keys[upper])
check(len(mirrored) == 24 and all(line[4] == "asc" for line in mirrored) and
      mirrored[4][:4] == ["4", "2", "0", "3"] and mirrored[12][:4] == ["8", "4", "0", "7"] and
      keys == sorted(keys),
      "network_dump mirrored 8: 6 steps of 4, (0, 3) opens the merge of 4 and (0, 7) that of 8, "
      "all ascending, and they sort")
for arguments in (["12"], ["0"], ["16", "up"], ["131072"], ["swaps", "1000"], ["swaps", "2097152"],
                  ["mirrored", "12"], ["mirrored"],
                  ["lower", "3", "8"], ["lower", "4", "0"], ["groups", "4", "0", "64"],
                  ["groups", "4", "5", "64"], ["groups", "4", "40", "64"], ["group", "12", "5"],
                  ["group", "31", "5"], ["group", "20", "3"], ["group", "20"], []):
    result = run(*arguments)
    check(result.returncode == 2 and result.stdout == "" and "usage" in result.stderr,
          f"network_dump {' '.join(arguments)}: exit {result.returncode}, usage on stderr")
sys.exit(1 if failures else 0)
