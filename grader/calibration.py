"""How fast this machine runs Python, so that a spec's absolute time limits travel between machines.

A spec may say ``calibration: {seconds: S}``: its absolute ``seconds`` limits were set on a
machine where :func:`workload` took S seconds of CPU time. Each run measures the workload
here and scales those limits by ``measured / S``, so a grading machine 1.5x slower than the
instructor's gives every call 1.5x the time. Limits relative to the reference (``factor``)
need no calibration: the reference is timed on the grading machine already.

The workload is the kind of code students write (loops over lists, dict counting, string
building, sorting, recursion), fixed and deterministic; its best time of a few runs is used,
because noise on a shared machine only ever adds time.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

#: What ``calibration.seconds`` in a spec refers to, in words for the README and the summary.
WORKLOAD = "grader.calibration.workload(): 200 rounds of list loops, dict counting, string building, sorting and recursion"


def _fib(n: int) -> int:
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


def workload(rounds: int = 200) -> int:
    """The fixed calibration workload; returns a checksum so nothing is optimised away."""
    check = 0
    for r in range(rounds):
        values = [(i * 7919 + r) % 1009 for i in range(2000)]
        counts: dict[int, int] = {}
        for v in values:
            counts[v % 97] = counts.get(v % 97, 0) + 1
        text = ""
        for v in values[:300]:
            text += str(v)
        check += sorted(values)[1000] + len(counts) + len(text) + _fib(14)
    return check


@dataclass(frozen=True)
class Calibration:
    """The stated and measured workload times and the factor applied to absolute limits."""

    stated_s: float
    measured_s: float

    @property
    def factor(self) -> float:
        return self.measured_s / self.stated_s

    def to_json(self) -> dict[str, float | str]:
        return {"workload": WORKLOAD, "stated_s": self.stated_s, "measured_s": round(self.measured_s, 4),
                "factor": round(self.factor, 3)}


@lru_cache(maxsize=1)
def measure(repeats: int = 3) -> float:
    """Best CPU time of the workload over ``repeats`` runs (measured once per process)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        workload()
        best = min(best, time.process_time() - start)
    return best


def calibrate(stated_s: float | None) -> Calibration | None:
    """The calibration of a spec that states one, measured on this machine; None otherwise."""
    if stated_s is None:
        return None
    return Calibration(stated_s=stated_s, measured_s=measure())
