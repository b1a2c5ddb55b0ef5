"""Outputs that hold against hostile submissions (issue #12): writer isolation, poisoned stored
verdicts, bounds on what one submission makes the grader keep, escaping in terminal and CSV."""
from __future__ import annotations

import importlib.util
import json
import sqlite3
from dataclasses import replace
from pathlib import Path

from grader.judge.verdict import Violation
from grader.reports import REPORT_ERRORS, register_reporter, REPORTERS, write_reports
from grader.store import Store

FIXTURES = Path(__file__).parent / "fixtures" / "reports"
_spec = importlib.util.spec_from_file_location("reports_batch_trust", FIXTURES / "batch.py")
batch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)


# ----------------------------------------------------------------- class 7: writers and the store
def test_a_failing_writer_never_stops_the_writers_after_it(tmp_path):
    class Exploding:
        name = "exploding_for_test"

        def __init__(self, options=None):
            pass

        def write(self, results, spec, out_dir):
            raise TypeError("'<' not supported between instances of 'dict' and 'int'")

    register_reporter(Exploding)
    told = []
    try:
        written = write_reports(batch.make_batch(), batch.make_spec(), tmp_path, ["exploding_for_test", "csv", "markdown"],
                                on_error=lambda name, message: told.append((name, message)))
    finally:
        REPORTERS.pop("exploding_for_test")
    assert (tmp_path / "grades.csv") in written and (tmp_path / "summary.json") in written
    assert any(p.parent.name == "feedback" for p in written)
    assert told and told[0][0] == "exploding_for_test" and "TypeError" in told[0][1]
    staff = (tmp_path / REPORT_ERRORS).read_text()
    assert "Traceback" in staff and "exploding_for_test" in staff


def test_a_poisoned_stored_verdict_is_regraded_not_fatal(tmp_path):
    good, victim = batch.make_batch()[:2]
    with Store(tmp_path) as store:
        store.save(good)
        store.save(victim)
    row = json.loads(sqlite3.connect(tmp_path / Store.FILENAME).execute(
        "SELECT result FROM results WHERE submission=?", (victim.submission,)).fetchone()[0])
    fn = next(iter(row["functions"].values()))
    fn["violations"] = [Violation("banned-call", "builtins.sum", "runtime", None).to_json() | {"line": {"d": {}}}]
    db = sqlite3.connect(tmp_path / Store.FILENAME)
    db.execute("UPDATE results SET result=? WHERE submission=?", (json.dumps(row), victim.submission))
    db.execute("INSERT INTO results VALUES ('x', 'garbage', '', '', 0, 0, '{not json', 0)")
    db.commit()
    db.close()
    with Store(tmp_path) as store:
        assert store.current(victim.assignment, victim.submission, victim.spec_digest, victim.submission_digest) is None
        assert store.load("x", "garbage") is None
        assert [r.submission for r in store.all(good.assignment)] == [good.submission]
        assert store.load(good.assignment, good.submission).score == good.score


# ----------------------------------------------------------------- class 10: terminal and spreadsheet
FORGED_ID = "evil\x1b[2K\r\x1b[32mtop_student: 60/50\x1b[0m\u202e"


def test_ids_and_student_text_reach_the_terminal_with_every_control_code_escaped(tmp_path):
    import io

    from rich.console import Console

    from grader.progress import Progress
    from grader.reports.terminal import render_check, render_summary

    victim = replace(batch.make_batch()[0], submission=FORGED_ID)
    stream = io.StringIO()
    with Progress(1, stream=stream) as progress:
        progress.advance(victim)
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=200)
    console.print(render_summary([victim], batch.make_spec()))
    console.print(render_check(victim, batch.make_spec()))
    for shown in (stream.getvalue(), buffer.getvalue().replace("\x1b[", "")):  # rich's own styling removed
        assert "\x1b[2K" not in shown and "\r" not in shown and "\u202e" not in shown
    assert "\\x1b[2K\\x0d" in stream.getvalue()


def test_formula_cells_are_neutralised_at_the_start_and_after_any_separator(tmp_path):
    import csv

    ids = ["=HYPERLINK(\"http://x\")", "alice;=cmd|' /C calc'!A0", "bob,@SUM(A1)", "carol\n+1", "\t-2+3", "dave-ok"]
    results = [replace(r, submission=i) for r, i in zip(batch.make_batch() * 3, ids)]
    write_reports(results, batch.make_spec(), tmp_path, ["csv"])
    for name in ("grades.csv", "gradebook.csv"):
        rows = list(csv.reader((tmp_path / name).open(newline="")))
        cells = [row[0] for row in rows[1:]]
        assert cells[-1] == "dave-ok"
        for cell in cells[:-1]:
            for piece in __import__("re").split(r"[,;\t|\r\n]", cell):
                assert not piece.strip().startswith(("=", "+", "-", "@")), (name, cell)


def test_csv_cells_show_control_codes_as_escapes(tmp_path):
    """``cat grades.csv`` must not run an id's terminal escapes or reorder its line."""
    import csv

    ids = ["eve\x1b[2J\x1b[1;1Htop: 60/50", "mallory\u202eel", "zed\rforged"]
    results = [replace(r, submission=i) for r, i in zip(batch.make_batch() * 3, ids)]
    write_reports(results, batch.make_spec(), tmp_path, ["csv"])
    for name in ("grades.csv", "gradebook.csv"):
        text = (tmp_path / name).read_text()
        assert "\x1b" not in text and "\u202e" not in text
        cells = {row[0] for row in list(csv.reader((tmp_path / name).open(newline="")))[1:]}
        assert {"eve\\x1b[2J\\x1b[1;1Htop: 60/50", "mallory\\u202eel", "zed\\x0dforged"} <= cells, cells


# ----------------------------------------------------------------- class 8: bounds on what is kept
def test_each_value_text_and_the_whole_verdict_are_bounded_with_a_note():
    from grader.judge.bounds import MAX_RESULT_CHARS, MAX_TEXT_CHARS, MAX_VALUE_CHARS, bound_result

    base = batch.make_batch()[0]
    huge = tuple(replace(t, actual="x" * 3_000_000, stdout="y" * 1_000_000, message="z" * 500_000,
                         staff={"traceback": "t" * 400_000}) for t in base.tests) * 20
    result = bound_result(replace(base, tests=huge, stdout="w" * 2_000_000))
    size = len(json.dumps(result.to_json(), default=repr))
    assert size <= MAX_RESULT_CHARS, size
    first = result.tests[0]
    assert "1,000,000 characters" in first.stdout and ("3,000,002 characters" in first.actual or first.actual is None)
    assert result.extra.get("truncated")
    small = bound_result(replace(base, tests=(replace(base.tests[0], actual="x" * (MAX_VALUE_CHARS + 10),
                                                      stdout="o" * (MAX_TEXT_CHARS + 1)),)))
    assert small.tests[0].actual.startswith("'xxx") and "truncated by the grader" in small.tests[0].actual
    assert len(small.tests[0].stdout) <= MAX_TEXT_CHARS and f"{MAX_TEXT_CHARS + 1:,} characters" in small.tests[0].stdout
    assert "truncated" not in small.extra
    untouched = bound_result(base)
    assert untouched.tests == base.tests
