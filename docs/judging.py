"""The course's judgements of recorded runs, apart from how the tables show them: which of two
programs is faster (and whether the runs say so beyond their spread), up to which size, and
whether a prediction held. Plain values in, plain values out; docs/tables.py renders them and
tests/docs/tables_test.py checks them on runs whose answer is known."""
import math
import statistics

import course


def spread_percent(values):
    """How far the slowest of several runs is above the fastest, in percent."""
    return 100 * (max(values) - min(values)) / min(values)


def against_previous(runs, stage, previous, q):
    """(speedup, verdict) at 2^q: how many times faster the median run of `stage` is than that
    of `previous`, and "faster" or "slower" where every run of one was faster than every run of
    the other, else "overlap". None where either was not measured."""
    mine, theirs = runs.get((stage, q)), runs.get((previous, q))
    if not mine or not theirs:
        return None
    speedup = statistics.median(theirs) / statistics.median(mine)
    verdict = ("faster" if max(mine) < min(theirs) else
               "slower" if min(mine) > max(theirs) else "overlap")
    return speedup, verdict


def against_all(runs, stage, rivals, q):
    """(the rival with the fastest median run, the stage's speedup over it, the verdict) at 2^q:
    "faster" only where every run of the stage beat every run of every rival, "slower" where
    every run of that fastest rival beat every run of the stage, else "overlap"."""
    fastest = min(rivals, key=lambda rival: statistics.median(runs[(rival, q)]))
    verdicts = [against_previous(runs, stage, rival, q)[1] for rival in rivals]
    speedup, against_fastest = against_previous(runs, stage, fastest, q)
    verdict = ("faster" if all(v == "faster" for v in verdicts) else
               "slower" if against_fastest == "slower" else "overlap")
    return fastest, speedup, verdict


def faster_up_to(tour, stage, program):
    """The largest log2 n up to which `stage` is faster than `program` at every measured size
    (None if not at the smallest)."""
    best = None
    for q in tour.sizes():
        mine, theirs = tour.time(stage, q), tour.time(program, q)
        if mine is None or theirs is None or mine >= theirs:
            break
        best = q
    return best


def faster_from(times, program, other):
    """The log2 length from which `program` is faster than `other` in times {program: {log2
    length: ms}}: slower at every shorter length both were measured at, faster at it and every
    longer one. None where they do not cross exactly once."""
    lengths = sorted(set(times.get(program, {})) & set(times.get(other, {})))
    faster = [times[program][s] < times[other][s] for s in lengths]
    for index, s in enumerate(lengths):
        if index > 0 and not any(faster[:index]) and all(faster[index:]):
            return s
    return None


def stages_beat_cpu_from(tour):
    """The smallest log2 n from which every stage is faster than std::sort at every larger size
    where std::sort ran (None if at no size)."""
    answer = None
    for q in reversed(tour.sizes()):
        serial = tour.time("std_sort", q)
        if serial is None:
            continue
        stages = course.course_stage_names()
        if any((tour.time(stage, q) or math.inf) >= serial for stage in stages):
            break
        answer = q
    return answer


def prediction_verdict(low, high, measured):
    """"within", "above" or "below" the predicted range [low, high] (a speedup)."""
    return "within" if low <= measured <= high else "above" if measured > high else "below"
