"""Grade a whole class: parallel sandbox slots, the resumable store, progress, reports.

Each finished submission is saved to the store and written to its JSON file before the
next one is taken, so an interrupted run loses nothing; a rerun skips what is current.
"""
from __future__ import annotations

import queue
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol, Sequence

from grader.judge.score import total
from grader.judge.verdict import SubmissionError, SubmissionResult
from grader.plan import make_plan
from grader.run.sandbox import IsolationProfile, Limits, Sandbox
from grader.spec.model import Spec
from grader.store import Store
from grader.submissions import Submission


class Grader(Protocol):
    def grade(self, submission: Submission) -> SubmissionResult: ...


@dataclass
class BatchOptions:
    out_dir: Path
    jobs: int = 1
    regrade: bool = False
    limits: Limits = field(default_factory=Limits)
    profile: IsolationProfile | None = None


@dataclass
class BatchOutcome:
    results: list[SubmissionResult]
    graded: int
    skipped: int
    elapsed_s: float


def grader_factory(spec: Spec, options: BatchOptions, *, visibility: str | None = None) -> Callable[[int], tuple[Grader, Callable[[], None]]]:
    """Build one grader per sandbox slot; returns (grader, close) pairs on demand."""
    if spec.kind == "program":
        return lambda slot: (ProgramGrader(spec, limits=options.limits, profile=options.profile), lambda: None)
    from grader.pipeline import FunctionGrader

    plan = make_plan(spec, visibility=visibility)

    def make(slot: int) -> tuple[Grader, Callable[[], None]]:
        sandbox = Sandbox(options.profile, options.limits, slot=slot)
        return FunctionGrader(plan, sandbox), sandbox.close

    return make


class ProgramGrader:
    """Adapts the program pipeline (grader.programs) to the batch: unreadable files never reach it."""

    def __init__(self, spec: Spec, *, limits: Limits | None = None, profile: IsolationProfile | None = None,
                 public_only: bool = False):
        self.spec = spec
        self.limits = limits
        self.profile = profile
        self.public_only = public_only

    def grade(self, submission: Submission) -> SubmissionResult:
        from dataclasses import replace

        from grader.programs.grade import grade_program

        if submission.problems:
            errors = [SubmissionError(kind, message) for kind, message in submission.problems]
            return total(self.spec, submission.id, {}, [], errors, submission_digest=submission.digest)
        result = grade_program(self.spec, submission.id, submission.files, limits=self.limits, profile=self.profile,
                               public_only=self.public_only)
        notes = tuple(SubmissionError(SubmissionError.NOTE, n) for n in submission.notes)
        # One digest for every kind: the submission's own, which the store's resume rule compares.
        return replace(result, errors=result.errors + notes, submission_digest=submission.digest, spec_digest=self.spec.digest)


def internal_error(spec: Spec, submission: Submission, exc: BaseException) -> SubmissionResult:
    """A grader bug on one submission becomes that submission's error; the batch goes on."""
    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    error = SubmissionError("internal-error", f"the grader failed on this submission ({detail}); please report it")
    return total(spec, submission.id, {}, [], [error], submission_digest=submission.digest, extra={"traceback": traceback.format_exc()})


def reuse_current(
    spec: Spec, submissions: Sequence[Submission], options: BatchOptions, store: Store,
    on_result: Callable[[SubmissionResult, bool], None],
) -> tuple[dict[str, SubmissionResult], list[Submission]]:
    """The resume rule of every executor: a stored result of the same spec and files is reused."""
    reused: dict[str, SubmissionResult] = {}
    todo: list[Submission] = []
    for sub in submissions:
        previous = None if options.regrade else store.current(spec.assignment, sub.id, spec.digest, sub.digest)
        if previous:
            reused[sub.id] = previous
            on_result(previous, True)
        else:
            todo.append(sub)
    return reused, todo


def run_batch(
    spec: Spec,
    submissions: Sequence[Submission],
    options: BatchOptions,
    *,
    on_result: Callable[[SubmissionResult, bool], None] = lambda result, skipped: None,
) -> BatchOutcome:
    from grader.reports import write_submission_json

    started = time.perf_counter()
    store = Store(options.out_dir)
    results, pending = reuse_current(spec, submissions, options, store, on_result)
    skipped = len(results)
    todo: queue.Queue[Submission] = queue.Queue()
    for sub in pending:
        todo.put(sub)
    lock = threading.Lock()
    failures: list[BaseException] = []

    def worker(slot: int, make: Callable[[int], tuple[Grader, Callable[[], None]]]) -> None:
        grader, close = make(slot)
        try:
            while True:
                try:
                    sub = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    result = grader.grade(sub)
                except Exception as exc:  # one submission's grader failure must not stop the class
                    result = internal_error(spec, sub, exc)
                store.save(result)
                write_submission_json(result, options.out_dir)
                with lock:
                    results[sub.id] = result
                on_result(result, False)
        except BaseException as exc:
            failures.append(exc)
        finally:
            close()

    try:
        if not todo.empty():
            make = grader_factory(spec, options)
            slots = max(1, min(options.jobs, todo.qsize()))
            threads = [threading.Thread(target=worker, args=(slot, make), daemon=True) for slot in range(slots)]
            for t in threads:
                t.start()
            for t in threads:
                while t.is_alive():
                    t.join(0.2)
            if failures:
                raise failures[0]
    finally:
        store.close()
    ordered = [results[s.id] for s in submissions if s.id in results]
    return BatchOutcome(ordered, len(ordered) - skipped, skipped, time.perf_counter() - started)
