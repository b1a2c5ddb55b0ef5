"""The report registry, write_reports, atomic writes, file names, and the JSON/CSV writers."""
from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from grader.errors import GraderError
from grader.judge.verdict import SubmissionResult
from grader.reports import (
    REPORTERS,
    UnknownFormatError,
    atomic_write_text,
    get_reporter,
    register_reporter,
    safe_name,
    write_reports,
    write_submission_json,
)
from grader.reports._atomic import TEMP_PREFIX

FIXTURES = Path(__file__).parent / "fixtures" / "reports"
_spec = importlib.util.spec_from_file_location("reports_batch_core", FIXTURES / "batch.py")
batch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)

FILE_FORMATS = [name for name in REPORTERS if name != "terminal"]
GOOD = "def add(a, b):\n    return a + b\n\ndef divmod2(a, b):\n    return a // b, a % b\n\ndef shout(text):\n    return text.upper() + '!'\n"


def _temp_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.startswith(TEMP_PREFIX)]


def test_registry_names_every_format():
    assert set(REPORTERS) == {"json", "csv", "gradescope", "junit", "markdown", "html", "terminal"}
    for name, cls in REPORTERS.items():
        assert cls.name == name


def test_unknown_format_names_the_known_ones():
    with pytest.raises(UnknownFormatError) as info:
        get_reporter("pdf")
    message = str(info.value)
    assert "'pdf'" in message
    for name in REPORTERS:
        assert name in message


def test_register_refuses_a_second_class_for_a_name():
    class Fake:
        name = "json"

        def __init__(self, options=None):
            pass

        def write(self, results, spec, out_dir):
            return []

    with pytest.raises(ValueError, match="already registered"):
        register_reporter(Fake)


def test_a_built_in_format_not_imported_yet_is_still_taken():
    """Built-in formats are imported when first asked for; a plug-in registering one of their
    names first is refused all the same (a fresh interpreter: nothing imported them)."""
    code = ("import pytest\nfrom grader.reports import register_reporter, get_reporter\n"
            "class Fake:\n    name = 'csv'\n"
            "with pytest.raises(ValueError, match='already registered by CsvReporter'):\n"
            "    register_reporter(Fake)\n"
            "assert get_reporter('csv').__name__ == 'CsvReporter'\nprint('refused')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "refused", done.stderr


def test_write_reports_checks_every_name_before_writing(tmp_path):
    with pytest.raises(UnknownFormatError):
        write_reports(batch.make_batch(), batch.make_spec(), tmp_path, ["csv", "nope"])
    assert list(tmp_path.iterdir()) == []


def test_write_reports_always_writes_json_and_leaves_no_temp_files(tmp_path):
    written = write_reports(batch.make_batch(), batch.make_spec(), tmp_path, ["csv"])
    assert (tmp_path / "summary.json") in written
    assert (tmp_path / "alice.json") in written
    assert (tmp_path / "grades.csv") in written
    assert all(p.exists() for p in written)
    assert _temp_files(tmp_path) == []


def test_every_file_format_together_leaves_no_temp_files(tmp_path):
    written = write_reports(batch.make_batch(), batch.make_spec(True), tmp_path, FILE_FORMATS)
    on_disk = {p for p in tmp_path.rglob("*") if p.is_file()}
    assert set(written) == on_disk
    assert _temp_files(tmp_path) == []


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    target = tmp_path / "grades.csv"
    atomic_write_text(target, "old\n")

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(target, "new\n")
    assert target.read_text() == "old\n"
    assert _temp_files(tmp_path) == []


def test_atomic_write_replaces_and_is_readable(tmp_path):
    target = tmp_path / "sub" / "x.txt"
    atomic_write_text(target, "one")
    atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert oct(target.stat().st_mode & 0o777) == oct(0o644)


def test_safe_name_is_stable_unique_and_path_free():
    assert safe_name("gburdell3") == "gburdell3"
    weird = safe_name("../../etc/passwd")
    assert "/" not in weird and ".." not in weird
    assert safe_name("a b") != safe_name("a_b")
    assert safe_name("a b") == safe_name("a b")
    assert safe_name("summary", frozenset({"summary"})) != "summary"


def test_no_id_is_named_as_another_ids_changed_name():
    # The red team's pair: "a b" was named a_b-c8687a08, which is also an id of its own.
    changed = safe_name("a b")
    assert safe_name("a_b-c8687a08") == "a_b-c8687a08" and changed != "a_b-c8687a08"
    assert safe_name(changed) != changed   # a changed name, handed in as an id, is changed again
    ids = ["a b", "a_b", "a+b", "summary", changed, "a_b-c8687a08", "../x", "x", "_x", "x.", "Jane Doe"]
    for reserved in (frozenset(), frozenset({"summary"})):
        names = [safe_name(i, reserved) for i in ids]
        assert len(set(names)) == len(ids), names


def test_ids_that_would_share_a_report_file_are_found_before_grading(tmp_path, monkeypatch):
    from grader.reports import _atomic
    from grader.submissions import discover

    assert _atomic.clashing_ids(["a b", "a+b", "a_b", "x"]) == []
    monkeypatch.setattr(_atomic, "_changed_name", lambda submission, cleaned: f"{cleaned}~0")   # hashes that collide
    assert _atomic.clashing_ids(["a b", "a+b", "x"]) == [("a b", "a+b")]
    (tmp_path / "a b.py").write_text("x = 1\n")
    (tmp_path / "a+b.py").write_text("x = 1\n")
    with pytest.raises(GraderError, match="would share report files: 'a b' and 'a\\+b'"):
        discover([tmp_path], ("mini.py",))


def test_every_per_student_file_of_two_look_alike_ids_is_its_own(tmp_path):
    import hashlib

    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "a b.py").write_text(GOOD)
    lookalike = f"a_b-{hashlib.sha256(b'a b').hexdigest()[:8]}"   # the name "a b" had before
    (klass / f"{lookalike}.py").write_text("def add(a, b)\n")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(FIXTURES.parent / "specs" / "mini.yaml"), str(klass),
                           "--out", str(out), "--format", "json,csv,markdown,gradescope"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert {r["id"]: r["score"] for r in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))} == {"a b": "25", lookalike: "0"}
    for folder in (out, out / "staff"):
        verdicts = [json.loads(p.read_text()) for p in folder.glob("*.json") if p.name != "summary.json"]
        assert sorted((v["submission"], v["score"]) for v in verdicts) == [("a b", 25.0), (lookalike, 0.0)]
    assert sorted(json.loads(p.read_text())["score"] for p in (out / "gradescope").glob("*/results.json")) == [0.0, 25.0]
    assert (out / "feedback" / f"{lookalike}.md").is_file() and len(list((out / "feedback").glob("*.md"))) == 2


# ------------------------------------------------------------------ json

def test_submission_json_round_trips(tmp_path):
    for result in batch.make_batch():
        path = write_submission_json(result, tmp_path)
        data = json.loads(path.read_text())
        assert data == json.loads(json.dumps(result.to_json(include_staff=False)))
        staff = json.loads((tmp_path / "staff" / path.name).read_text())
        assert staff == json.loads(json.dumps(result.to_json()))
        for kept in (data, staff):
            again = SubmissionResult.from_json(kept)
            assert again.score == result.score and again.submission == result.submission


def test_a_submission_called_summary_does_not_overwrite_the_summary(tmp_path):
    result = batch.make_batch()[0]
    clash = replace(result, submission="summary")
    write_reports([clash], batch.make_spec(), tmp_path, [])
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["submissions"][0]["submission"] == "summary"
    assert (tmp_path / summary["submissions"][0]["file"]).exists()


def test_summary_reports_the_judges_scores(tmp_path):
    results = batch.make_batch()
    write_reports(results, batch.make_spec(), tmp_path, [])
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["assignment"] == "hw_demo"
    assert summary["counts"]["submissions"] == 6
    assert summary["counts"]["with_errors"] == 2
    assert summary["score"] == {"mean": 8.75, "median": 7.5, "max": 25, "min": 0}
    assert summary["function_mean"]["sum_list"] == 2.5
    assert list(summary["function_mean"]) == ["scrabbleScore", "sum_list", "bonus"]
    assert summary["status_counts"]["timeout"] == 1
    assert sum(summary["status_counts"].values()) == sum(len(r.tests) for r in results)
    rows = {row["submission"]: row for row in summary["submissions"]}
    assert rows["dave"]["errors"] == 2
    assert rows["alice"]["score"] == 25  # extra credit above max is the judge's call, kept as is


def test_summary_of_no_submissions(tmp_path):
    write_reports([], batch.make_spec(), tmp_path, ["csv"])
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["score"]["mean"] is None and summary["submissions"] == []


# ------------------------------------------------------------------ csv

def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_grades_csv_has_spec_order_columns(tmp_path):
    write_reports(batch.make_batch(), batch.make_spec(), tmp_path, ["csv"])
    with (tmp_path / "grades.csv").open(newline="") as handle:
        header = next(csv.reader(handle))
    assert header == ["id", "score", "max_score", "scrabbleScore", "sum_list", "bonus"]
    rows = {r["id"]: r for r in _csv(tmp_path / "grades.csv")}
    assert rows["bob"] == {"id": "bob", "score": "10", "max_score": "20",
                           "scrabbleScore": "5", "sum_list": "5", "bonus": "0"}
    assert rows["mal/../<b>lory</b>"]["score"] == "2.5"


def test_gradebook_uses_the_configured_id_column(tmp_path):
    write_reports(batch.make_batch(), batch.make_spec(), tmp_path, ["csv"],
                  {"id_column": "Username", "points_possible_row": True})
    rows = _csv(tmp_path / "gradebook.csv")
    assert list(rows[0]) == ["Username", "Demo Homework 7", "hw_demo: scrabbleScore",
                             "hw_demo: sum_list", "hw_demo: bonus"]
    assert rows[0]["Username"] == "Points Possible" and rows[0]["Demo Homework 7"] == "20"
    by_id = {r["Username"]: r for r in rows[1:]}
    assert by_id["carol"]["Demo Homework 7"] == "10"
    assert by_id["carol"]["hw_demo: sum_list"] == "0"


def test_gradebook_default_id_column_and_formula_ids(tmp_path):
    result = batch.make_batch()[1]
    evil = replace(result, submission="=HYPERLINK(\"x\")")
    write_reports([evil], batch.make_spec(), tmp_path, ["csv"])
    text = (tmp_path / "gradebook.csv").read_text()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][0] == "SIS User ID"
    assert rows[1][0].startswith("'=")
