"""Outputs that hold against hostile submissions (issue #12): writer isolation, poisoned stored
verdicts, bounds on what one submission makes the grader keep, escaping in terminal and CSV."""
from __future__ import annotations

import importlib.util
import json
import sqlite3
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
