"""A program's criteria (games, wording, style) carry no call: no writer may invent one."""
from __future__ import annotations

import json

from grader.judge.verdict import FunctionResult, SubmissionResult, TestResult
from grader.reports import write_reports
from grader.spec.loader import load_spec

from conftest import ROOT


def program_result() -> SubmissionResult:
    tests = (
        TestResult("run1/session", "games", "public", "failed", 0, 5, message="final total +15.00 Euro, expected +10.00 Euro"),
        TestResult("run1/game1", "games", "public", "failed", 0, 5, expected="won 10.0 Euro", actual="won 15.0 Euro"),
        TestResult("style/header", "style", "public", "passed", 3, 3),
    )
    return SubmissionResult("stud", "epl131_blackjack", 3, 13, {"games": FunctionResult("games", 0, 10), "style": FunctionResult("style", 3, 3)}, tests)


def test_program_criteria_render_without_calls(tmp_path):
    spec = load_spec(ROOT / "specs" / "blackjack.yaml")
    write_reports([program_result()], spec, tmp_path, ["markdown", "junit", "gradescope", "html"])
    md = (tmp_path / "feedback" / "stud.md").read_text()
    assert "games()" not in md and "None" not in md
    assert "final total +15.00 Euro, expected +10.00 Euro" in md
    assert "'won 10.0 Euro'" in md and "'won 15.0 Euro'" in md
    junit = (tmp_path / "junit.xml").read_text()
    assert "call: " not in junit and "expected: None" not in junit
    gradescope = json.loads((tmp_path / "results.json").read_text())
    outputs = "\n".join(t["output"] for t in gradescope["tests"])
    assert "Call: None" not in outputs and "Expected: None" not in outputs
    page = (tmp_path / "report" / "students").glob("*.html")
    assert all("<div>call</div>" not in p.read_text() for p in page)
