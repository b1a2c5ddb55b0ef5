"""No output leaks a hidden case: sentinel strings planted in hidden cases' fields.

HIDDEN is in hidden cases' args/expected/actual: no output file may contain it.
HIDDEN_NOTE (hidden message/stdout/staff) and STAFF (tracebacks) may only appear in the
staff-only per-submission JSON under DIR/staff/, which is SubmissionResult.to_json() by contract; the HTML
class page (report/index.html, the instructor's) shows hidden failures' messages, no tracebacks.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from grader.reports import REPORTERS, render_check, render_feedback, render_summary, write_reports
from grader.reports.terminal import render_to_text

FIXTURES = Path(__file__).parent / "fixtures" / "reports"
_spec = importlib.util.spec_from_file_location("reports_batch_leaks", FIXTURES / "batch.py")
batch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)


def _outputs(tmp_path, results):
    formats = [name for name in REPORTERS if name != "terminal"]
    return write_reports(results, batch.make_spec(True), tmp_path, formats)


def test_the_sentinels_are_really_in_the_verdicts():
    hidden = [t for r in batch.make_batch() for t in r.tests if t.visibility == "hidden"]
    assert hidden and all(batch.HIDDEN in repr((t.args, t.expected, t.actual)) for t in hidden)
    assert all(batch.HIDDEN_NOTE in t.message for t in hidden)


def test_no_file_contains_hidden_values(tmp_path):
    written = _outputs(tmp_path, batch.make_batch())
    assert len(written) > 20
    for path in written:
        data = path.read_bytes()
        assert batch.HIDDEN.encode() not in data, path
        if path.parent == tmp_path / "staff":
            continue  # the staff JSON verdict keeps messages and tracebacks
        if path == tmp_path / "report" / "index.html":
            assert batch.HIDDEN_NOTE.encode() in data  # the class page is the instructor's: hidden failures shown
            assert batch.STAFF.encode() not in data, path
            continue
        assert batch.HIDDEN_NOTE.encode() not in data, path
        assert batch.STAFF.encode() not in data, path


def test_single_submission_outputs_leak_nothing(tmp_path):
    written = _outputs(tmp_path, batch.make_batch()[1:2])
    assert tmp_path / "results.json" in written
    text = (tmp_path / "results.json").read_text()
    assert batch.HIDDEN not in text and batch.HIDDEN_NOTE not in text and batch.STAFF not in text


def test_nothing_printed_leaks():
    spec = batch.make_spec()
    results = batch.make_batch()
    texts = [render_to_text(render_summary(results, spec), width=200)]
    texts += [render_to_text(render_check(r, spec), width=200) for r in results]
    texts += [render_feedback(r, spec) for r in results]
    for text in texts:
        for sentinel in (batch.HIDDEN, batch.HIDDEN_NOTE, batch.STAFF):
            assert sentinel not in text
