"""The consecutive-timeout rule: a function that loops forever is not run to its every timeout.

An endless loop costs its whole time limit on every case, which made one student's loops
most of a class's grading time. After ``stop_after_timeouts`` cases in a row time out, the
function's remaining cases are not run: they score as timeouts, and each says why.

The count is one submission's, kept by the parent across the sessions its cases run in
(public cases in one, hidden ones in a fresh other, ``state: fresh`` cases one session
each): a function's count goes on from its public cases into its hidden ones, and a
function stopped anywhere runs no more cases anywhere. A function's first case starts from
the count the function before it (spec order) ended on, so a submission whose every function
loops shows it on the first case of each; any case that finishes resets the count, a
function the submission lacks resets it too. ``stop_after_timeouts: 0`` never stops that
function (its timeouts still count for the next one).
"""
from __future__ import annotations

from typing import Protocol, Sequence

from .score import Observation


class _Outcome(Protocol):
    @property
    def status(self) -> str: ...


class _Function(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def stop_after_timeouts(self) -> int: ...


def _trailing_timeouts(results: Sequence[_Outcome]) -> int:
    count = 0
    for result in reversed(results):
        if result.status != "timeout":
            break
        count += 1
    return count


class TimeoutRule:
    """What the rule has learned of one submission: each function's count of timeouts in a row."""

    def __init__(self, functions: Sequence[_Function]):
        self._order = [fn.name for fn in functions]
        self._limits = {fn.name: fn.stop_after_timeouts for fn in functions}
        self._count: dict[str, int] = {}   # a function's timeouts in a row at the end of its cases run so far
        self._stopped: set[str] = set()    # functions whose remaining cases are skipped

    def limit(self, function: str) -> int:
        return self._limits[function]

    def _carried(self, function: str) -> int:
        """The count the nearest function before this one (spec order) ended on, as known now."""
        before = self._order[:self._order.index(function)]
        return next((self._count[name] for name in reversed(before) if name in self._count), 0)

    def begin(self, function: str) -> None:
        """Cases of ``function`` are about to run: its first ever starts from the carried count."""
        self._count.setdefault(function, self._carried(function))

    def missing(self, function: str) -> None:
        """The submission does not define ``function``: nothing to run, and the count restarts."""
        self._count[function] = 0

    def count(self, function: str, results: Sequence[_Outcome]) -> int:
        """Timeouts in a row after ``results``, this run's results of ``function`` so far."""
        trailing = _trailing_timeouts(results)
        return self._count.get(function, 0) + trailing if trailing == len(results) else trailing

    def should_stop(self, function: str, results: Sequence[_Outcome]) -> bool:
        """Asked after every answer of the current function: skip the rest now?"""
        limit = self._limits[function]
        return function in self._stopped or (limit > 0 and self.count(function, results) >= limit)

    def finish(self, function: str, results: Sequence[_Outcome], skipped: int) -> None:
        """Remember how this run of ``function`` ended (skipped cases count as timeouts)."""
        if skipped or self.should_stop(function, results):
            self._stopped.add(function)
        self._count[function] = self.count(function, results) + skipped

    def stopped(self, function: str) -> bool:
        return function in self._stopped

    def skipped(self, function: str, count: int) -> Observation:
        """What a case that was not run reports: it counts as a timeout, and says why."""
        limit = self._limits[function]
        return Observation("timeout", message=(
            f"not run: {limit} cases in a row timed out, so the remaining {count} case(s) of "
            f"{function} were skipped and count as timeouts (the spec's stop_after_timeouts: {limit})"))
