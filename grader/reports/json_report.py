"""The JSON verdicts (the CLI contract): one file per submission plus a class summary."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from grader.judge.verdict import STATUSES, SubmissionResult
from grader.reports._atomic import atomic_write_bytes, atomic_write_json, safe_name
from grader.reports._common import BaseReporter, function_names, mean, median
from grader.spec.model import Spec

SUMMARY_NAME = "summary"
# A submission called "summary" must not overwrite the class summary.
_RESERVED = frozenset({SUMMARY_NAME})


STAFF_DIR = "staff"  # staff-only: full verdicts with tracebacks and hidden cases' messages


def submission_json_path(submission: str, out_dir: Path) -> Path:
    return Path(out_dir) / f"{safe_name(submission, _RESERVED)}.json"


def staff_json_path(submission: str, out_dir: Path) -> Path:
    return Path(out_dir) / STAFF_DIR / f"{safe_name(submission, _RESERVED)}.json"


def write_submission_json(result: SubmissionResult, out_dir: Path, *, durable: bool = True) -> Path:
    """Write ``DIR/<id>.json`` (what the student may see) and ``DIR/staff/<id>.json`` (the full
    verdict) for one finished submission; the pipeline calls this as each ends (``durable``:
    see :func:`~grader.reports._atomic.atomic_write_bytes`)."""
    encoded = result.encoded()
    atomic_write_bytes(staff_json_path(result.submission, out_dir), encoded.staff + b"\n", durable=durable)
    return atomic_write_bytes(submission_json_path(result.submission, out_dir), encoded.student + b"\n", durable=durable)


def summarize(results: Sequence[SubmissionResult], spec: Spec) -> dict[str, Any]:
    """The class summary: score statistics, per-function means, status counts, one row per submission."""
    scores = [r.score for r in results]
    per_function: dict[str, float | None] = {}
    for name in function_names(spec, results):
        values = [r.functions[name].score for r in results if name in r.functions]
        per_function[name] = _round(mean(values))
    status_counts = {status: 0 for status in STATUSES}
    for result in results:
        counted = getattr(result.tests, "statuses", None)   # counted already when they wait in the store
        for status, count in (counted.items() if counted is not None else ((t.status, 1) for t in result.tests)):
            status_counts[status] = status_counts.get(status, 0) + count
    return {
        "assignment": spec.assignment,
        "title": spec.title,
        "max_score": spec.max_score,
        # the isolation profiles the class was graded under (each names its layers: container+uid+landlock+seccomp)
        "isolation": sorted({r.isolation for r in results if r.isolation}),
        "counts": {
            "submissions": len(results),
            # A note (a file handed in under another name) is not an error of the submission.
            "with_errors": sum(1 for r in results if any(not e.is_note for e in r.errors)),
            "full_score": sum(1 for r in results if r.score >= r.max_score),
            "tests": sum(len(r.tests) for r in results),
        },
        "score": {
            "mean": _round(mean(scores)),
            "median": _round(median(scores)),
            "max": max(scores) if scores else None,
            "min": min(scores) if scores else None,
        },
        "function_mean": per_function,
        "status_counts": status_counts,
        **_time_limits(spec),
        "submissions": [
            {
                "submission": r.submission,
                "score": r.score,
                "max_score": r.max_score,
                "errors": sum(1 for e in r.errors if not e.is_note),
                "file": submission_json_path(r.submission, Path(".")).name,
            }
            for r in results
        ],
    }


def _time_limits(spec: Spec) -> dict[str, Any]:
    """How this machine's speed scaled the spec's absolute time limits (specs that state a calibration)."""
    from grader.calibration import calibrate

    calibration = calibrate(spec.calibration_s)
    return {"time_limits": calibration.to_json()} if calibration else {}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


class JsonReporter(BaseReporter):
    """``DIR/<id>.json`` per submission and ``DIR/summary.json``."""

    name = "json"

    def write(self, results: Sequence[SubmissionResult], spec: Spec, out_dir: Path) -> list[Path]:
        # After a batch, each file was written as its submission finished: only fill gaps.
        if self.options.get("skip_existing"):
            written = [p if p.exists() else write_submission_json(r, out_dir)
                       for r, p in ((r, submission_json_path(r.submission, out_dir)) for r in results)]
        else:
            written = [write_submission_json(result, out_dir) for result in results]
        written += [staff_json_path(r.submission, out_dir) for r in results]
        written.append(atomic_write_json(Path(out_dir) / f"{SUMMARY_NAME}.json", summarize(results, spec)))
        return written
