#!/usr/bin/env python3
"""cpu suite: network_dump, the generator's view of the reference network.

Usage: network_dump_test.py NETWORK_DUMP

- `network_dump N` prints the n/2 comparators of each of the q(q+1)/2 steps, for n = 2^q.
- `network_dump swaps N` counts, per distribution, the compare-exchanges whose pair is out of
  order. For sorted, reversed and equal keys that count depends only on the keys' relative
  order, so this test replays the printed comparators on keys of the same order and must find
  the same counts; for every distribution the count is at most the compares.
- Sizes that are not powers of two, or too large, are refused with exit code 2.
"""
import subprocess
import sys

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

for arguments in (["12"], ["0"], ["16", "up"], ["131072"], ["swaps", "1000"], ["swaps", "2097152"], []):
    result = run(*arguments)
    check(result.returncode == 2 and result.stdout == "" and "usage" in result.stderr,
          f"network_dump {' '.join(arguments)}: exit {result.returncode}, usage on stderr")
sys.exit(1 if failures else 0)
