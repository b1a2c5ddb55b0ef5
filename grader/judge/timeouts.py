"""The consecutive-timeout rule: a function that loops forever is not run to its every timeout.

An endless loop costs its whole time limit on every case, which made one student's loops
most of a class's grading time. After ``stop_after_timeouts`` cases in a row time out, the
function's remaining cases are not run: they score as timeouts, and each says why.
The count runs on across the submission's functions in spec order (a submission whose every
function loops shows it on the first case of each) and any case that finishes resets it.
"""
from __future__ import annotations

from typing import Protocol, Sequence

from .score import Observation


class _Outcome(Protocol):
    @property
    def status(self) -> str: ...


def _trailing_timeouts(results: Sequence[_Outcome]) -> int:
    count = 0
    for result in reversed(results):
        if result.status != "timeout":
            break
        count += 1
    return count


class TimeoutStreak:
    """Cases in a row that timed out in one submission, and whether to stop a function's calls."""

    def __init__(self, limit: int):
        self.limit = limit
        self.carried = 0  # timeouts in a row at the end of the functions before this one
        self.stopped: set[str] = set()  # functions whose remaining cases are skipped

    def _streak(self, results: Sequence[_Outcome]) -> int:
        trailing = _trailing_timeouts(results)
        return self.carried + trailing if trailing == len(results) else trailing

    def should_stop(self, results: Sequence[_Outcome]) -> bool:
        """Asked after every answer of the current function: skip the rest now?"""
        return self.limit > 0 and self._streak(results) >= self.limit

    def skipped(self, function: str, count: int) -> Observation:
        """What a case that was not run reports: it counts as a timeout, and says why."""
        return Observation("timeout", message=(
            f"not run: {self.limit} cases in a row timed out, so the remaining {count} case(s) of "
            f"{function} were skipped and count as timeouts (the spec's stop_after_timeouts: {self.limit})"))

    def finish(self, results: Sequence[_Outcome], skipped: int) -> None:
        """Carry the streak to the next function (skipped cases count as timeouts)."""
        self.carried = self._streak(results) + skipped if skipped else self._streak(results)

    def reset(self) -> None:
        self.carried = 0
