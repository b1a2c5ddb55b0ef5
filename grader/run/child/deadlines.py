"""The wall-clock deadlines of a piece of student code limited to some CPU time, in one place
for the child (which stops itself) and the parent (which stops a child that does not).

Verdicts rest on CPU time; the wall clock only catches code that gains none (a sleep, a
lock) and, much later, code that a busy machine slows down.  Standalone: no imports.
"""
from __future__ import annotations

#: The parent waits this much longer than the child's own deadline, so that the child's
#: verdict (which says more) normally arrives before the parent's.
PARENT_GRACE = 1.0


def blocked_after(cpu_s: float) -> float:
    """Code limited to ``cpu_s`` that has gained no CPU time by now is blocked, not slow."""
    return 3 * cpu_s + 0.5


def slowed_until(cpu_s: float) -> float:
    """Code still gaining CPU time but under ``cpu_s`` may run this long: a busy machine slows
    it down, it does not make it use more CPU time, so it never turns it into a timeout."""
    return 10 * cpu_s + 5.0
