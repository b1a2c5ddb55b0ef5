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

import json
import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from functools import lru_cache

from . import usercache

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


def _best(repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.thread_time()
        workload()
        best = min(best, time.thread_time() - start)
    return best


class _Background:
    """A measurement running in a forked process (CPU time is the process's own, so it is
    the same figure), started before the spec is loaded so that the two overlap."""

    def __init__(self) -> None:
        self.pid = 0
        self.fd = -1
        self.reused: float | None = None   # a recent measurement taken instead (check only)

    def start(self, repeats: int) -> None:
        if self.pid or not hasattr(os, "fork") or threading.active_count() > 1:
            return                       # forking beside other threads is unsafe: measure inline later
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                os.write(w, repr(_best(repeats)).encode())
            finally:
                os._exit(0)
        os.close(w)
        self.pid, self.fd = pid, r

    def result(self) -> float | None:
        if not self.pid:
            return None
        pid, fd, self.pid, self.fd = self.pid, self.fd, 0, -1
        try:
            with os.fdopen(fd, "rb") as f:
                text = f.read()
        finally:
            os.waitpid(pid, 0)
        try:
            return float(text)
        except ValueError:
            return None


_BACKGROUND = _Background()   # at most one early measurement per process, read by measure()
RECENT_S = 3600.0             # how long `grader check` may reuse this machine's last measurement


def _node() -> str:
    """This machine's name (``platform.node()``, without the 4 ms of importing ``platform``)."""
    return os.uname().nodename if hasattr(os, "uname") else os.environ.get("COMPUTERNAME", "")


def _recent_file() -> Path:
    return usercache.folder() / f"calibration-{_node()}-py{sys.version_info[0]}{sys.version_info[1]}.json"


def recent() -> float | None:
    """This machine's measurement from the last hour (written by every measurement), if any."""
    try:
        path = _recent_file()
        st = path.stat()
        if not usercache.trusted(st):
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        measured, when = float(data["measured_s"]), float(data["at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return measured if 0 < measured < 60 and 0 <= time.time() - when < RECENT_S else None


def _remember(measured: float) -> None:
    try:
        path = _recent_file()
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        temp.write_text(json.dumps({"measured_s": measured, "at": time.time()}), encoding="utf-8")
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except OSError:
        pass


def measure_in_background(repeats: int = 3, *, reuse_recent: bool = False) -> None:
    """Begin :func:`measure` now in a forked process; :func:`measure` collects its figure.

    ``reuse_recent`` (a student's ``grader check``, run again and again): this machine's
    measurement from the last hour stands in, and nothing is measured. ``grader grade``
    always measures."""
    if reuse_recent:
        found = recent()
        if found is not None:
            _BACKGROUND.reused = found
            return
    _BACKGROUND.start(repeats)


@lru_cache(maxsize=1)
def measure(repeats: int = 3) -> float:
    """Best CPU time of the workload over ``repeats`` runs (measured once per process)."""
    if _BACKGROUND.reused is not None:
        return _BACKGROUND.reused
    early = _BACKGROUND.result()
    measured = early if early is not None else _best(repeats)
    _remember(measured)
    return measured


def calibrate(stated_s: float | None) -> Calibration | None:
    """The calibration of a spec that states one, measured on this machine; None otherwise."""
    if stated_s is None:
        return None
    return Calibration(stated_s=stated_s, measured_s=measure())
