"""Where submissions are graded: locally (:func:`grader.batch.run_batch`, the default) or on a cluster.

Every executor has run_batch's contract: ``(spec, submissions, options, *, on_result) ->
BatchOutcome``, each finished submission saved to the store and written to its JSON file
by the coordinating process as it arrives. Executors other than the local one are
optional extras and are imported only when asked for, so the grader runs without them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from grader.errors import ExitCode, GraderError

if TYPE_CHECKING:
    from grader.batch import BatchOptions, BatchOutcome
    from grader.judge.verdict import SubmissionResult
    from grader.spec.model import Spec
    from grader.submissions import Submission

EXECUTORS = ("local", "dask")


def run(
    executor: str,
    spec: "Spec",
    submissions: Sequence["Submission"],
    options: "BatchOptions",
    *,
    scheduler: str | None = None,
    on_result: Callable[["SubmissionResult", bool], None] = lambda result, skipped: None,
) -> "BatchOutcome":
    """Grade ``submissions`` with the named executor (``local`` or ``dask``)."""
    if executor == "local":
        if scheduler:
            raise GraderError("--scheduler is only used with --executor dask", exit_code=ExitCode.USAGE)
        from grader.batch import run_batch

        return run_batch(spec, submissions, options, on_result=on_result)
    if executor == "dask":
        if not scheduler:
            raise GraderError(
                "--executor dask needs the address of a Dask scheduler",
                hint="pass --scheduler tcp://HOST:8786 (start one with `dask scheduler`, and `dask worker tcp://HOST:8786` on each machine)",
                exit_code=ExitCode.USAGE,
            )
        from grader.executors.dask_executor import run_on_dask

        return run_on_dask(spec, submissions, options, scheduler, on_result=on_result)
    raise GraderError(f"unknown executor {executor!r} (choose from {', '.join(EXECUTORS)})", exit_code=ExitCode.USAGE)
