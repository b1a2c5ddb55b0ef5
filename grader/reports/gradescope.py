"""Gradescope's ``results.json``, as its autograder specification defines it.

One submission (the usual case inside Gradescope's ``run_autograder``) writes
``DIR/results.json``; a batch writes ``DIR/gradescope/<id>/results.json`` per submission.

Choices, all overridable through the report options:

* Hidden cases get test visibility ``"after_published"`` (option
  ``gradescope_hidden_visibility``): a student cannot probe them by resubmitting before the
  deadline, and once grades are published sees which hidden case failed, by name and
  status only. ``"hidden"`` would never show them at all, which hides where points went.
* Public cases are ``"visible"``; the submission-level ``visibility`` defaults to
  ``"visible"`` (option ``gradescope_visibility``).
* ``stdout_visibility`` is ``"hidden"``: the grader's own stdout is for staff.
* The top-level ``score`` is the judge's total; Gradescope uses it instead of summing
  the tests, so a ban penalty or extra credit is never re-derived here.
* ``leaderboard`` is written only when the spec has a ``leaderboard:`` list. Each entry is
  a column name or ``{name, order: asc|desc, key}``; its value is
  ``result.extra["leaderboard"][key or name]`` (``key: score`` means the total score).
  Entries without a value for a submission are left out for it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from grader.judge.verdict import SubmissionResult, TestResult, shown_duration
from grader.reports._atomic import atomic_write_json, safe_name
from grader.reports._common import (
    BaseReporter,
    CaseView,
    all_violations,
    function_names,
    hidden_tests,
    is_extra_credit,
    score_line,
    status_summary,
    violation_location,
    violation_text,
)
from grader.spec.model import Spec

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
OUTPUT_FORMATS = ("text", "html", "simple_format", "md", "ansi")


def _visibility(value: Any, option: str) -> str:
    if value not in VISIBILITIES:
        raise ValueError(f"{option} must be one of {', '.join(VISIBILITIES)}, not {value!r}")
    return value


def case_output(test: TestResult) -> str:
    """What a student reads under one Gradescope test."""
    view = CaseView.of(test)
    if not view.public:
        return f"Hidden case: {view.status}."
    lines = [f"Call: {view.call}"] if view.call is not None else []
    if view.status == "passed":
        if view.actual is not None:
            lines.append(f"Returned: {view.actual}")
    else:
        if view.expected is not None:
            lines.append(f"Expected: {view.expected}")
        if view.actual is not None:
            lines.append(f"Got:      {view.actual}")
        else:
            lines.append(f"Result:   {view.status}")
    if view.diff:
        lines += ["Difference (- expected, + got):", *view.diff]
    if view.message:
        lines.append(view.message)
    lines.append(f"Time: {view.time_s:.3f}s")
    return "\n".join(lines)


def submission_output(result: SubmissionResult, spec: Spec) -> str:
    lines = [score_line(result)]
    problems = [e for e in result.errors if not e.is_note]
    advice = [e for e in result.errors if e.is_note]
    if problems:
        lines += ["", "Problems with the submission:"]
        lines += [f"- {e.message}" + (f" (line {e.line})" if e.line else "") + (f"\n{e.excerpt}" if e.excerpt else "") for e in problems]
    if advice:
        lines += ["", "Notes:"]
        lines += [f"- {e.message}" for e in advice]
    violations = all_violations(result)
    if violations:
        lines += ["", "Banned functions:"]
        lines += [f"- {violation_location(v, spec)}: {violation_text(v)}" for v in violations]
    hidden = hidden_tests(result)
    if hidden:
        lines += ["", f"Hidden cases ({len(hidden)}): {status_summary(hidden)}."]
    return "\n".join(lines)


def leaderboard(result: SubmissionResult, spec: Spec) -> list[dict[str, Any]] | None:
    if not spec.leaderboard:
        return None
    values = result.extra.get("leaderboard", {}) if isinstance(result.extra, dict) else {}
    board = []
    for column in spec.leaderboard:
        value = result.score if column.key == "score" else values.get(column.key)
        if value is None:
            continue
        item: dict[str, Any] = {"name": column.name, "value": value}
        if column.order is not None:
            item["order"] = column.order
        board.append(item)
    return board


class GradescopeReporter(BaseReporter):
    """Gradescope ``results.json``."""

    name = "gradescope"

    def results_json(self, result: SubmissionResult, spec: Spec) -> dict[str, Any]:
        hidden_vis = _visibility(self.options.get("gradescope_hidden_visibility", "after_published"),
                                 "gradescope_hidden_visibility")
        top_vis = _visibility(self.options.get("gradescope_visibility", "visible"),
                              "gradescope_visibility")
        order = {name: i for i, name in enumerate(function_names(spec, [result]), start=1)}
        per_function: dict[str, int] = {}
        tests = []
        for test in result.tests:
            per_function[test.function] = per_function.get(test.function, 0) + 1
            tags = [test.function, test.visibility]
            if is_extra_credit(spec, test.function, [result]):
                tags.append("extra_credit")
            tests.append({
                "name": f"{test.function}: {test.name}",
                "number": f"{order.get(test.function, len(order) + 1)}.{per_function[test.function]}",
                "score": test.score,
                "max_score": test.max_score,
                "status": "passed" if test.passed else "failed",
                "output": case_output(test),
                "output_format": "text",
                "tags": tags,
                "visibility": "visible" if test.visibility == "public" else hidden_vis,
            })
        data: dict[str, Any] = {
            "score": result.score,
            "execution_time": shown_duration(result.duration_s),
            "output": submission_output(result, spec),
            "output_format": "text",
            "visibility": top_vis,
            "stdout_visibility": "hidden",
            "tests": tests,
        }
        board = leaderboard(result, spec)
        if board is not None:
            data["leaderboard"] = board
        return data

    def write(self, results: Sequence[SubmissionResult], spec: Spec, out_dir: Path) -> list[Path]:
        out_dir = Path(out_dir)
        if len(results) == 1:
            return [atomic_write_json(out_dir / "results.json", self.results_json(results[0], spec))]
        return [
            atomic_write_json(out_dir / "gradescope" / safe_name(r.submission) / "results.json",
                              self.results_json(r, spec))
            for r in results
        ]
