"""Progress for long runs: a live bar on a terminal, one line per submission in logs."""
from __future__ import annotations

import sys
from typing import Any

from grader.judge.verdict import SubmissionResult
from grader.textsafe import terminal_safe


class Progress:
    """Context manager fed by the batch as each submission finishes (thread-safe enough:
    rich's Progress locks internally, and plain prints are whole lines)."""

    def __init__(self, total: int, *, stream: Any = None, label: str = "grading"):
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.label = label
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> "Progress":
        if self.stream.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            TimeRemainingColumn(), TextColumn("{task.fields[last]}", markup=False), console=Console(file=self.stream), transient=False)
            self._bar.__enter__()
            self._task = self._bar.add_task(self.label, total=self.total, last="")
        return self

    def advance(self, result: SubmissionResult, skipped: bool = False) -> None:
        self.done += 1
        note = " (unchanged)" if skipped else ""
        line = f"{terminal_safe(result.submission)}: {result.score:g}/{result.max_score:g}{note}"
        if self._bar is not None:
            self._bar.update(self._task, advance=1, last=line)
        else:
            print(f"[{self.done}/{self.total}] {line}", file=self.stream, flush=True)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)
