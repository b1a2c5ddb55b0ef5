"""Turn observations of student calls into verdicts and scores, deterministically.

The judge knows nothing of processes: the pipeline hands it an :class:`Observation` (what
a call did) and the expected value, and gets back frozen verdicts. Every score in every
report is computed here and nowhere else.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Literal, Sequence

from grader.spec.model import Case, FunctionSpec, Spec

from .bounds import bound_result, bound_test
from .compare import JudgeContext, judge
from .verdict import FunctionResult, Status, SubmissionError, SubmissionResult, TestResult, Violation


@dataclass(frozen=True)
class Observation:
    """What one call of the student's function did, in plain data."""

    outcome: Literal["returned", "raised", "timeout", "crashed", "not-run"]
    value: Any = None
    time_s: float = 0.0
    stdout: str = ""
    message: str = ""  # already phrased for the student (exception, crash or timeout)
    staff: dict[str, Any] = field(default_factory=dict)


_OUTCOME_STATUS: dict[str, Status] = {"raised": "error", "timeout": "timeout", "crashed": "crashed", "not-run": "error"}


def round_score(value: float) -> float:
    return round(value + 0.0, 4)


def case_points(fn: FunctionSpec, case: Case) -> float:
    total_weight = fn.total_weight
    return fn.points * case.weight / total_weight if total_weight else 0.0


def judge_case(fn: FunctionSpec, case: Case, expected: Any, seen: Observation, context: JudgeContext) -> TestResult:
    points = case_points(fn, case)
    public = case.is_public
    staff = dict(seen.staff)
    actual = None
    if seen.outcome != "returned":
        status, score, message = _OUTCOME_STATUS[seen.outcome], 0.0, seen.message
    else:
        verdict = judge(expected, seen.value, fn.compare, context)
        status = "passed" if verdict.passed else "failed"
        score = round_score(points if verdict.passed else points * verdict.fraction)
        message = verdict.message
        if not public and not verdict.passed:
            # A hidden case's failure message may quote its expected value: keep it for staff only.
            staff["message"] = message
            message = "wrong answer on a hidden case" + (" (partial credit)" if verdict.fraction else "")
        if public:
            actual = seen.value
    # Positional (the fields' order): judged for every case of every submission.
    return bound_test(TestResult(case.name, fn.name, case.visibility, status, score, round_score(points),
                                 round(seen.time_s, 6), message, list(case.args) if public else None,
                                 expected if public else None, actual, seen.stdout if public else "", staff))


def mark_banned(test: TestResult, violation: Violation) -> TestResult:
    where = f" (line {violation.line})" if violation.line else ""
    return replace(test, status="banned", score=0.0, message=f"uses banned {violation.banned}{where}")


def score_function(fn: FunctionSpec, tests: Sequence[TestResult], violations: Sequence[Violation], found_as: str | None) -> tuple[FunctionResult, list[TestResult]]:
    """Apply the ban policy to a function's case verdicts and total them."""
    counting = [v for v in violations if v.counts]
    policy = fn.bans
    tests = list(tests)
    if counting and policy.penalty == "zero":
        tests = [mark_banned(t, counting[0]) for t in tests]
    elif counting:
        runtime_cases = {v.case for v in counting if v.case}
        tests = [mark_banned(t, next(v for v in counting if v.case == t.name)) if t.name in runtime_cases and policy.penalty != "warn" else t for t in tests]
    score = _exact_total(fn, tests)
    if counting and policy.penalty == "deduct":
        score = max(0.0, score - policy.deduct)
    result = FunctionResult(
        name=fn.name,
        score=round_score(score),
        max_score=round_score(fn.points),
        extra_credit=fn.extra_credit,
        violations=tuple(violations),
        found_as=found_as,
    )
    return result, tests


def _exact_total(fn: FunctionSpec, tests: Sequence[TestResult]) -> float:
    """Sum unrounded case points, so ten cases of 1/3 point add up to exactly the function's points."""
    points = {case.name: case_points(fn, case) for case in fn.cases}
    exact = 0.0
    for t in tests:
        if t.score and t.max_score:
            fraction = 1.0 if t.score >= t.max_score else t.score / t.max_score
            exact += points.get(t.name, t.max_score) * fraction
    return exact


def total(spec: Spec, submission: str, functions: dict[str, FunctionResult], tests: Iterable[TestResult], errors: Iterable[SubmissionError], **extra: Any) -> SubmissionResult:
    score = sum(f.score for f in functions.values())
    return bound_result(SubmissionResult(
        submission=submission,
        assignment=spec.assignment,
        score=round_score(score),
        max_score=round_score(spec.max_score),
        functions=functions,
        tests=tuple(tests),
        errors=tuple(errors),
        spec_digest=spec.digest,
        **extra,
    ))
