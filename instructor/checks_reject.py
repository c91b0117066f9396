#!/usr/bin/env python3
"""gpu suite: the exercises' checks reject wrong answers and answers that do no GPU work.

Usage: checks_reject.py wrong|host|faked|async CHECKS_PROGRAM

CHECKS_PROGRAM is the checks of exercises 1 to 3 (tests/exercise_*_test.*) linked with one set
of answers:
  wrong  instructor/wrong_answers.cu: GPU answers that each make the mistake its exercise warns
         about, with the launches of a right answer;
  host   instructor/host_answers.cu: the right keys, sorted on the host, with no launch at all;
  faked  instructor/faked_answers.cu: the same, with the launches of a right answer counted
         (CHECK_LAUNCH()) though none ran: caught by the check that the sort only queues its
         work on the GPU (tests/gpu_queue.h) and by the one that counts what the GPU ran
         (tests/gpu_activity.h, from CUPTI);
  async  instructor/async_answers.cu: the faked answers' host sort queued behind asynchronous
         copies (cudaMemcpyAsync, cudaLaunchHostFunc), so that the sort returns at once: caught
         by the count of what the GPU ran alone.
Every test case that the answer gets wrong must fail, on assertions and not by crashing, and
on exactly the assertions that catch that mistake: so the test shows both that the check can
fail and that the check's other assertions accept what is right in the answer. The faked and
the async answers must pass every other test case: only the checks named for them catch them.
Exits 77 (SKIP) without a GPU, as the program does.
"""
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

UNPADDED_LAUNCHES = "run.launches == launches_per_sort(static_cast<unsigned>(next_power_of_two(n)))"
QUEUED = {"returned_ms < kQueueingMs"}
# The cases that count what the GPU ran (tests/gpu_activity.h), and their two assertions.
ACTIVITY_CASES = ["the GPU runs the unpadded sort's kernels, and no key crosses to the host",
                  "the GPU runs the sort of pairs, and no key or value crosses to the host",
                  "the GPU runs the sort of floats, and no key crosses to the host"]
RAN = [{"activity.kernels == network", "activity.host_bytes == 0"},
       {"activity.kernels >= network", "activity.host_bytes == 0"},
       {"activity.kernels >= network", "activity.host_bytes == 0"}]
# mode -> {test case: the assertions that must fail (their source text, as doctest reports it)}
EXPECTED = {
    "wrong": {
        "every n from 1 to 100 without padding": {"validation.passed()"},
        "keys sorted, each value still with its key": {"pairs_out == pairs_in"},
        "floats in IEEE 754 totalOrder, bit for bit": {"patterns(output) == patterns(expected)"},
    },
    "host": {
        "every n from 1 to 100 without padding": {UNPADDED_LAUNCHES},
        "larger n without padding: 1000, 2^20 + 1, 3 x 2^19": {UNPADDED_LAUNCHES},
        "keys sorted, each value still with its key":
            {"launches >= launches_per_sort(n)"},
        "floats in IEEE 754 totalOrder, bit for bit": {"launches >= launches_per_sort(n)"},
        **dict(zip(ACTIVITY_CASES, RAN)),
    },
    # Each check's case that times the sort's return behind a busy kernel (tests/gpu_queue.h),
    # and each that counts what the GPU ran.
    "faked": {"the unpadded sort only queues its work on the GPU": QUEUED,
              "the sort of pairs only queues its work on the GPU": QUEUED,
              "the sort of floats only queues its work on the GPU": QUEUED,
              **dict(zip(ACTIVITY_CASES, RAN))},
    "async": dict(zip(ACTIVITY_CASES, RAN)),
}

mode, program = sys.argv[1], sys.argv[2]
result = subprocess.run([program, "--reporters=xml", "--no-colors"], capture_output=True,
                        text=True, timeout=1700)
if result.returncode == 77:
    print(result.stdout.strip())
    sys.exit(77)
try:
    report = ElementTree.fromstring(result.stdout)
except ElementTree.ParseError as error:
    print(f"FAIL: the checks' XML report cannot be read ({error}); exit code "
          f"{result.returncode}\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    sys.exit(1)

failures = 0
found = {case.get("name"): case for case in report.iter("TestCase")}
for name, assertion in EXPECTED[mode].items():
    case = found.get(name)
    if case is None:
        print(f"FAIL  '{name}': no such test case ran")
        failures += 1
        continue
    crashed = [e for e in case.iter("Exception") if e.get("crash") == "true"]
    failed = {e.findtext("Original", "").strip() for e in case.iter("Expression")
              if e.get("success") == "false"}
    count = sum(1 for e in case.iter("Expression") if e.get("success") == "false")
    ok = not crashed and failed == assertion
    print(f"{'ok  ' if ok else 'FAIL'}  '{name}': {count} failed assertions, on "
          f"{sorted(failed) or 'none'}{'; it crashed' if crashed else ''} "
          f"(expected: {sorted(assertion)})")
    failures += not ok
if mode in ("faked", "async"):
    for name, case in found.items():
        failed = [e for e in case.iter("Expression") if e.get("success") == "false"]
        if name not in EXPECTED[mode] and (failed or list(case.iter("Exception"))):
            print(f"FAIL  '{name}': the {mode} answers must pass it, but {len(failed)} assertions "
                  "failed or it threw")
            failures += 1
if result.returncode != 1:
    print(f"FAIL  the checks exited {result.returncode}, expected 1 (some test case failed)")
    failures += 1
sys.exit(1 if failures else 0)
