"""A note (advice such as which upload was graded) is never an error, in any report format."""
from __future__ import annotations

import dataclasses
import importlib.util
import json
import xml.etree.ElementTree as ET

from conftest import FIXTURES
from grader.judge.verdict import SubmissionError
from grader.reports import write_reports

_spec = importlib.util.spec_from_file_location("reports_batch_notes", FIXTURES / "reports" / "batch.py")
batch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)
NOTE = "took doejane_123456_7890130_hw3-1.py, the latest of 2 uploads of hw3.py"


def noted_batch():
    results = batch.make_batch()
    first = results[0]
    assert not first.errors
    return [dataclasses.replace(first, errors=(SubmissionError(SubmissionError.NOTE, NOTE),)), *results[1:]], first.submission


def test_notes_are_never_errors_in_any_format(tmp_path):
    results, who = noted_batch()
    write_reports(results, batch.make_spec(), tmp_path, ["json", "junit", "markdown", "html", "gradescope", "csv"])
    suite = next(s for s in ET.parse(tmp_path / "junit.xml").getroot() if s.get("name", "").endswith(who))
    assert suite.find(".//error") is None and suite.get("errors") == "0"
    assert any(p.get("value") == NOTE for p in suite.iter("property"))
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert next(s for s in summary["submissions"] if s["submission"] == who)["errors"] == 0
    feedback = (tmp_path / "feedback" / f"{who}.md").read_text()
    assert "## Problems with the submission" not in feedback and "## Notes" in feedback and "the latest of 2 uploads" in feedback
    page = (tmp_path / "report" / "students" / f"{who}.html").read_text()
    assert "Problems with the submission" not in page and "<h2>Notes</h2>" in page
    gradescope = json.loads((tmp_path / "gradescope" / who / "results.json").read_text())
    assert "Problems" not in gradescope["output"] and f"Notes:\n- {NOTE}" in gradescope["output"]
    index = (tmp_path / "report" / "index.html").read_text()
    assert NOTE not in index.split("<h2>Submission errors</h2>")[-1].split("<h2>")[0] or "<h2>Submission errors</h2>" not in index
