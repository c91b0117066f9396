#!/usr/bin/env python3
"""torch_rows: torch.sort on the rows of a matrix, measured like the course's programs.

    python3 tools/torch_rows.py --log2 27 --segment 256 --csv

Sorts n = 2^Q int32 keys as n / L rows of L keys (torch.sort(rows, dim=-1), which also returns
every key's index in its row as int64: PyTorch has no sort of keys alone), on the GPU, and prints
one record with the columns of the programs' --csv report (common/report.cpp). The keys are
uniform over int32, drawn by torch's own generator from --seed. Timing as the programs time
(README, "How we measure"): CUDA events around the call, one warm-up, the median of --reps runs,
each on a fresh copy of the keys. Validation: every row of the result must be in order, its
indices must name each position of the row once, and each index must point at an input key
equal to the sorted key beside it. With --top K, torch.topk(rows, K, dim=-1, sorted=True) instead
(largest=True with --order desc): the K keys of each row must be the first K of its sorted row, and
their indices distinct positions of the row pointing at equal keys. With --type float the keys are
float32 from torch.randn instead (no NaN: torch.sort puts every NaN last, unlike totalOrder).

Exit codes as the programs': 0 success, 1 validation failed, 2 bad command line, 3 no usable
CUDA device; 77 when PyTorch cannot be imported (one line says so: the experiment skips it).
"""
import argparse
import csv
import os
import statistics
import sys

PROGRAM = "torch_rows"


def fail(code, message):
    print(f"{PROGRAM}: {message}", file=sys.stderr)
    sys.exit(code)


def arguments():
    parser = argparse.ArgumentParser(prog=PROGRAM, description=__doc__.splitlines()[0])
    parser.add_argument("--log2", type=int, default=20, help="sort 2^Q keys, Q from 1 to 30")
    parser.add_argument("--segment", type=int, default=0,
                        help="L, keys per row: a power of two from 2 to n (default: one row)")
    parser.add_argument("--order", choices=["asc", "desc"], default="asc")
    parser.add_argument("--top", type=int, default=0,
                        help="torch.topk: keep the first K of each row, K from 1 to L")
    parser.add_argument("--type", choices=["int", "float"], default="int",
                        help="int32 keys (default) or float32 keys")
    parser.add_argument("--reps", type=int, default=10, help="timed runs after one warm-up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--csv", action="store_true", help="one CSV record with its header")
    # A mistake is one line, as in the programs.
    parser.error = lambda message: fail(2, f"error: {message} (see --help)")
    given = parser.parse_args()
    n = 1 << given.log2 if 1 <= given.log2 <= 30 else 0
    segment = given.segment or n
    if n == 0:
        fail(2, f"error: --log2 expects a whole number from 1 to 30, got {given.log2}")
    if segment < 2 or segment > n or segment & (segment - 1):
        fail(2, f"error: --segment expects a power of two from 2 to n = {n}, got {segment}")
    if given.top < 0 or given.top > segment:
        fail(2, f"error: --top expects a whole number from 1 to L = {segment}, got {given.top}")
    if given.reps < 1:
        fail(2, f"error: --reps expects at least 1, got {given.reps}")
    return given, n, segment


def check_rows(torch, rows, values, indices, descending):
    """The number of rows whose result is wrong: out of order, or indices that are not a
    permutation of the row pointing at the sorted keys."""
    before, after = values[:, :-1], values[:, 1:]
    out_of_order = (after > before if descending else after < before).any(dim=1)
    positions = torch.arange(rows.shape[1], device=rows.device).expand_as(indices)
    not_permutation = (indices.sort(dim=1).values != positions).any(dim=1)
    wrong_keys = (torch.gather(rows, 1, indices) != values).any(dim=1)
    return int((out_of_order | not_permutation | wrong_keys).sum())


def check_top_rows(torch, rows, values, indices, descending):
    """The number of rows whose top-k is wrong: not the first K keys of the sorted row, or
    indices that repeat a position or point at other keys."""
    top = values.shape[1]
    expected = torch.sort(rows, dim=-1, descending=descending).values[:, :top]
    wrong_values = (values != expected).any(dim=1)
    ordered = indices.sort(dim=1).values
    repeated = (ordered[:, 1:] == ordered[:, :-1]).any(dim=1)
    wrong_keys = (torch.gather(rows, 1, indices) != values).any(dim=1)
    return int((wrong_values | repeated | wrong_keys).sum())


def main():
    given, n, segment = arguments()
    # tests/docs/commands_test.py checks that the commands the text gives are accepted.
    if os.environ.get("COURSE_ARGUMENTS_ONLY"):
        return
    try:
        import torch
    except ImportError as error:
        print(f"{PROGRAM}: skipped: PyTorch cannot be imported ({error})", file=sys.stderr)
        sys.exit(77)
    if not torch.cuda.is_available():
        fail(3, "error: no usable CUDA device (torch.cuda.is_available() is False)")
    device = torch.device("cuda", 0)
    generator = torch.Generator(device=device).manual_seed(given.seed)
    # int64 bounds, then int32: randint's upper bound is exclusive and must fit its dtype.
    if given.type == "float":
        keys = torch.randn((n // segment, segment), generator=generator, device=device,
                           dtype=torch.float32)
    else:
        keys = torch.randint(-2**31, 2**31, (n // segment, segment), generator=generator,
                             device=device, dtype=torch.int64).to(torch.int32)
    descending = given.order == "desc"
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for run in range(1 + given.reps):
        rows = keys.clone()
        start.record()
        if given.top:
            values, indices = torch.topk(rows, given.top, dim=-1, largest=descending,
                                         sorted=True)
        else:
            values, indices = torch.sort(rows, dim=-1, descending=descending)
        stop.record()
        stop.synchronize()
        if run > 0:
            times.append(start.elapsed_time(stop))
    wrong = (check_top_rows if given.top else check_rows)(torch, keys, values, indices,
                                                           descending)
    if wrong:
        print(f"{PROGRAM}: validation failed: {wrong} of {n // segment} rows are wrong",
              file=sys.stderr)
    sort_ms = statistics.median(times)
    major, minor = torch.cuda.get_device_capability(device)
    call = "torch.topk" if given.top else "torch.sort"
    record = {"program": f"{call} (torch {torch.__version__})",
              "device": torch.cuda.get_device_name(device),
              "compute_capability": f"{major}.{minor}", "n": n, "padded_n": n,
              "order": given.order, "distribution": "uniform", "seed": given.seed,
              "segment": segment if given.segment else 0, "values": "indices", "top": given.top,
              "type": "float32" if given.type == "float" else "int32", "launches": "",
              "passes": "", "reps": given.reps, "sort_ms": f"{sort_ms:.6f}", "total_ms": "",
              "mkeys_per_s": f"{n / (sort_ms * 1e3):.3f}", "effective_gb_s": "",
              "exchange_ms": "", "exchange_gb_s": "",
              "validation": "FAIL" if wrong else "pass", "cuda_runtime": torch.version.cuda,
              "cuda_driver": ""}
    if given.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=list(record))
        writer.writeheader()
        writer.writerow(record)
    else:
        for name, value in record.items():
            print(f"{name:20}{value}")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
