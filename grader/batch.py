"""Grade a whole class on this machine: parallel sandbox slots feeding one grading session.

Each finished submission goes through the session (grader.session) to the store, its JSON
file and the progress bar as it arrives, so an interrupted run loses nothing; a rerun skips
what is current. Function assignments with more than one job are graded in worker processes
(grader.pool: the parent's Python work per submission would otherwise share one GIL); one
job, and program assignments (whose time goes to the programs themselves), use threads here.
"""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from grader.judge.score import total
from grader.judge.verdict import SubmissionError, SubmissionResult
from grader.plan import Plan, make_plan
from grader.run.sandbox import IsolationProfile, Limits, Sandbox, kept_sandbox, probe
from grader.session import Grader, GradingSession, Outcome, Sink, internal_error, open_session
from grader.spec.model import Spec
from grader.submissions import Submission

__all__ = ["BatchOptions", "BatchOutcome", "Grader", "ProgramGrader", "grade_in_workers", "grader_factory", "internal_error", "run_batch"]

BatchOutcome = Outcome


@dataclass
class BatchOptions:
    out_dir: Path
    jobs: int = 1
    regrade: bool = False
    limits: Limits = field(default_factory=Limits)
    profile: IsolationProfile | None = None
    sinks: Sequence[Sink] = ()  # streaming reporters, after the store and the JSON files
    plan: Plan | None = None    # the spec's plan when the caller made it already (validation needs it too)


GraderFactory = Callable[[int], tuple[Grader, Callable[[], None]]]


def grader_factory(spec: Spec, *, limits: Limits | None = None, profile: IsolationProfile | None = None,
                   public_only: bool = False, plan: Plan | None = None) -> GraderFactory:
    """Build one grader per sandbox slot on demand, as (grader, close) pairs; the spec's kind decides which."""
    if spec.kind == "program":
        return lambda slot: (ProgramGrader(spec, limits=limits, profile=profile, public_only=public_only), lambda: None)
    from grader.pipeline import FunctionGrader, watch_list

    if plan is None or plan.spec is not spec:
        plan = make_plan(spec, visibility="public" if public_only else None)

    def make(slot: int) -> tuple[Grader, Callable[[], None]]:
        watch = watch_list(spec)
        sandbox = kept_sandbox(profile or probe(), limits or Limits(), watch) if slot == 0 else None
        if sandbox is None:
            sandbox = Sandbox(profile, limits or Limits(), slot=slot, watch=watch)
        return FunctionGrader(plan, sandbox), sandbox.close

    return make


class ProgramGrader:
    """Adapts the program pipeline (grader.programs) to the session: unreadable files never reach it."""

    def __init__(self, spec: Spec, *, limits: Limits | None = None, profile: IsolationProfile | None = None,
                 public_only: bool = False):
        self.spec = spec
        self.limits = limits
        self.profile = profile
        self.public_only = public_only

    def grade(self, submission: Submission) -> SubmissionResult:
        from grader.programs.grade import grade_program

        if submission.problems:
            errors = [SubmissionError(kind, message) for kind, message in submission.problems]
            return total(self.spec, submission.id, {}, [], errors, submission_digest=submission.digest)
        result = grade_program(self.spec, submission.id, submission.files, limits=self.limits, profile=self.profile,
                               public_only=self.public_only)
        notes = tuple(SubmissionError(SubmissionError.NOTE, n) for n in submission.notes)
        # One digest for every kind: the submission's own, which the store's resume rule compares.
        return replace(result, errors=result.errors + notes, submission_digest=submission.digest, spec_digest=self.spec.digest)


def grade_in_pool(session: GradingSession, make: GraderFactory, todo: Sequence[Submission], jobs: int) -> None:
    """Grade ``todo`` in ``jobs`` sandbox slots, each verdict delivered to the session as it finishes."""
    work: queue.Queue[Submission] = queue.Queue()
    for sub in todo:
        work.put(sub)
    failures: list[BaseException] = []

    def worker(slot: int) -> None:
        try:
            grader, close = make(slot)
        except BaseException as exc:
            failures.append(exc)
            return
        try:
            while not failures:
                try:
                    sub = work.get_nowait()
                except queue.Empty:
                    return
                session.grade(grader, sub)
        except BaseException as exc:
            failures.append(exc)
        finally:
            close()

    threads = [threading.Thread(target=worker, args=(slot,), daemon=True) for slot in range(max(1, min(jobs, len(todo))))]
    for t in threads:
        t.start()
    for t in threads:
        while t.is_alive():
            t.join(0.2)
    if failures:
        raise failures[0]


def run_batch(
    spec: Spec,
    submissions: Sequence[Submission],
    options: BatchOptions,
    *,
    on_result: Callable[[SubmissionResult, bool], None] = lambda result, skipped: None,
) -> Outcome:
    """Grade a class locally: resume, then the pool, every verdict through one session."""
    from grader import pool   # here, not at the top: ``grader check`` imports this module and never needs it

    with open_session(spec, options.out_dir, regrade=options.regrade, sinks=options.sinks, on_result=on_result) as session:
        todo = session.pending(submissions)
        for language in {s.lang for s in todo if s.language and not s.problems}:
            language.require()          # a missing toolchain stops here, never as every student's 0
        jobs = max(1, min(options.jobs, len(todo)))
        if jobs > 1 and spec.kind == "functions" and pool.available():
            grade_in_workers(session, spec, options, todo, jobs)
        elif todo:
            grade_in_pool(session, grader_factory(spec, limits=options.limits, profile=options.profile, plan=options.plan),
                          todo, options.jobs)
        return session.outcome(submissions)


def grade_in_workers(session: GradingSession, spec: Spec, options: BatchOptions, todo: Sequence[Submission], jobs: int) -> None:
    """Grade ``todo`` in ``jobs`` worker processes (slots 0..jobs-1), each verdict delivered here as it finishes."""
    from grader import pool

    plan = options.plan if options.plan is not None and options.plan.spec is spec else make_plan(spec)
    job = pool.WorkerJob.from_plan(plan, limits=options.limits, profile=options.profile or probe())
    with pool.WorkerPool(job, range(jobs)) as workers:
        for result in workers.grade(todo):
            session.deliver(result)
