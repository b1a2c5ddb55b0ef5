"""One path after the judge: a grading session hands every verdict to the registered sinks.

The local pool (grader.batch), the Dask executor, program assignments and ``grader check``
differ only in where the calls run; what happens to a verdict is the same for all of them,
and lives here, the way pytest's ``pytest_runtest_logreport`` reaches every reporter:

    resume (reuse a stored result of the same spec and files)
      -> each verdict, in the order it arrives, to every sink: store, per-submission JSON,
         progress, streaming reporters, in the order they were registered.

A sink is anything with ``accept(result, reused)`` and ``close()``.
"""
from __future__ import annotations

import os
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Protocol, Sequence

from grader.judge.score import total
from grader.judge.verdict import SubmissionError, SubmissionResult
from grader.spec.model import Spec
from grader.store import Store
from grader.submissions import Submission, files_read


class Sink(Protocol):
    """Receives every finished verdict of a session (``reused``: taken from the store, not graded now)."""

    def accept(self, result: SubmissionResult, reused: bool) -> None: ...

    def close(self) -> None: ...


class Grader(Protocol):
    def grade(self, submission: Submission) -> SubmissionResult: ...


class StoreSink:
    """Saves each new verdict in the resumable SQLite store (a reused one is there already)."""

    def __init__(self, store: Store):
        self.store = store

    def accept(self, result: SubmissionResult, reused: bool) -> None:
        if not reused:
            self.store.save(result)

    def close(self) -> None:
        self.store.close()


class JsonSink:
    """Writes ``<id>.json`` and ``staff/<id>.json`` for each new verdict, atomically, as it arrives.

    Without an fsync each (two per submission were most of the coordinator's time): the store
    is the durable record, and the files are synced together when the session closes. Until
    then a marker file says that files may be unsynced; a session that finds it (the last run
    was killed, or the machine went down, before its files reached the disk) writes every
    reused verdict's files again from the store, so no file a crash lost stays lost.
    """

    MARKER = ".unsynced-reports"

    def __init__(self, out_dir: Path):
        from grader.reports._atomic import atomic_write_bytes

        self.out_dir = out_dir
        marker = out_dir / self.MARKER
        self.rebuild = marker.exists()
        atomic_write_bytes(marker, b"per-submission files written since this appeared may not be on the disk yet\n")
        _sync_entry(out_dir)

    def accept(self, result: SubmissionResult, reused: bool) -> None:
        from grader.reports import write_submission_json

        if not reused or self.rebuild:
            write_submission_json(result, self.out_dir, durable=False)

    def close(self) -> None:
        from grader.reports._atomic import sync_folder

        sync_folder(self.out_dir)
        try:
            (self.out_dir / self.MARKER).unlink()
        except FileNotFoundError:
            pass


def _sync_entry(folder: Path) -> None:
    """Make the folder's entries (a new marker) durable: fsync the directory itself."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class CallbackSink:
    """Adapts a plain ``fn(result, reused)`` (a progress bar's ``advance``) to a sink."""

    def __init__(self, fn: Callable[[SubmissionResult, bool], None]):
        self.fn = fn

    def accept(self, result: SubmissionResult, reused: bool) -> None:
        self.fn(result, reused)

    def close(self) -> None:
        pass


@dataclass
class Outcome:
    """What a session graded: results in the submissions' order, and how many were reused."""

    results: list[SubmissionResult]
    graded: int
    skipped: int
    elapsed_s: float


def internal_error(spec: Spec, submission: Submission, exc: BaseException) -> SubmissionResult:
    """A grader bug on one submission becomes that submission's error; the batch goes on."""
    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    error = SubmissionError("internal-error", f"the grader failed on this submission ({detail}); please report it")
    # The exception's own traceback, so a failure reported from elsewhere (a worker process
    # that died) is described as well as one caught here.
    staff = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return total(spec, submission.id, {}, [], [error], submission_digest=submission.digest, extra={"traceback": staff})


def grade_one(spec: Spec, grader: Grader, submission: Submission) -> SubmissionResult:
    """Grade one submission wherever the grader runs (this process, a worker process, a
    cluster); a grader failure becomes the submission's internal error, never the batch's."""
    try:
        with files_read(submission) as ready:
            return grader.grade(ready)
    except Exception as exc:  # one submission's grader failure must not stop the class
        return internal_error(spec, submission, exc)


class GradingSession:
    """One run of one spec: the resume rule, then every verdict to every sink, one at a time."""

    def __init__(self, spec: Spec, sinks: Iterable[Sink] = (), *, store: Store | None = None, regrade: bool = False):
        self.spec = spec
        self.store = store
        self.regrade = regrade
        self.sinks = list(sinks)
        self.results: dict[str, SubmissionResult] = {}
        self.reused = 0
        self._lock = threading.Lock()
        self._started = time.perf_counter()

    def pending(self, submissions: Sequence[Submission]) -> list[Submission]:
        """The submissions to grade now; a stored result of this spec and these files is delivered as reused."""
        todo = []
        for sub in submissions:
            previous = None
            if self.store is not None and not self.regrade:
                previous = self.store.current(self.spec.assignment, sub.id, self.spec.digest, sub.digest)
            if previous is not None:
                self.deliver(previous, reused=True)
            else:
                todo.append(sub)
        return todo

    def deliver(self, result: SubmissionResult, *, reused: bool = False) -> bool:
        """Hand a verdict to every sink; only a submission's first verdict counts (a retried task's is dropped)."""
        with self._lock:
            if result.submission in self.results:
                return False
            self.reused += reused
            for sink in self.sinks:
                sink.accept(result, reused)
            # Kept for the class-wide reports; with a store, its case results stay there (read
            # back on demand), so the session's memory does not grow with the class.
            self.results[result.submission] = self.store.slim(result) if self.store is not None else result
        return True

    def grade(self, grader: Grader, submission: Submission) -> SubmissionResult:
        """Grade one submission here and deliver it; a grader failure becomes its internal error."""
        result = grade_one(self.spec, grader, submission)
        self.deliver(result)
        return result

    def outcome(self, submissions: Sequence[Submission]) -> Outcome:
        ordered = [self.results[s.id] for s in submissions if s.id in self.results]
        return Outcome(ordered, len(ordered) - self.reused, self.reused, time.perf_counter() - self._started)

    def close(self) -> None:
        for sink in self.sinks:
            sink.close()

    def __enter__(self) -> "GradingSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_session(spec: Spec, out_dir: Path, *, regrade: bool = False, sinks: Sequence[Sink] = (),
                 on_result: Callable[[SubmissionResult, bool], None] | None = None) -> GradingSession:
    """The session of ``grader grade``: the store, the per-submission JSON, then any other sinks and progress."""
    store = Store(out_dir)
    registered: list[Sink] = [StoreSink(store), JsonSink(out_dir), *sinks]
    if on_result is not None:
        registered.append(CallbackSink(on_result))
    return GradingSession(spec, registered, store=store, regrade=regrade)
