"""Gradescope results.json against a JSON Schema written from Gradescope's specification."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import jsonschema
import pytest

from grader.reports import write_reports
from grader.reports.gradescope import GradescopeReporter

FIXTURES = Path(__file__).parent / "fixtures" / "reports"
_spec = importlib.util.spec_from_file_location("reports_batch_gs", FIXTURES / "batch.py")
batch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)

SCHEMA = json.loads((FIXTURES / "gradescope_results.schema.json").read_text())


def _validate(data):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)


def test_schema_rejects_what_gradescope_rejects():
    with pytest.raises(jsonschema.ValidationError):
        _validate({"score": 1, "tests": [{"status": "error"}]})
    with pytest.raises(jsonschema.ValidationError):
        _validate({"score": 1, "visibility": "public"})
    with pytest.raises(jsonschema.ValidationError):
        _validate({"tests": [{"name": "no score anywhere"}]})


def test_single_submission_writes_results_json_at_the_top(tmp_path):
    [path] = GradescopeReporter().write(batch.make_batch()[1:2], batch.make_spec(), tmp_path)
    assert path == tmp_path / "results.json"
    data = json.loads(path.read_text())
    _validate(data)
    assert data["score"] == 10
    assert isinstance(data["execution_time"], (int, float))
    assert "leaderboard" not in data


def test_batch_writes_one_results_json_per_submission(tmp_path):
    results = batch.make_batch()
    written = write_reports(results, batch.make_spec(), tmp_path, ["gradescope"])
    files = sorted(p for p in written if p.name == "results.json")
    assert len(files) == len(results)
    assert all(p.parent.parent == tmp_path / "gradescope" for p in files)
    assert not (tmp_path / "results.json").exists()
    for path in files:
        _validate(json.loads(path.read_text()))


def test_tests_mirror_the_verdicts():
    bob = batch.make_batch()[1]
    data = GradescopeReporter().results_json(bob, batch.make_spec())
    assert len(data["tests"]) == len(bob.tests)
    for entry, test in zip(data["tests"], bob.tests):
        assert entry["score"] == test.score and entry["max_score"] == test.max_score
        assert entry["status"] == ("passed" if test.status == "passed" else "failed")
        assert entry["visibility"] == ("visible" if test.visibility == "public" else "after_published")
        assert test.function in entry["tags"]
    numbers = [e["number"] for e in data["tests"]]
    assert numbers[:3] == ["1.1", "1.2", "1.3"] and len(set(numbers)) == len(numbers)
    multiline = data["tests"][1]
    assert "line two" in multiline["output"] and "line 2" in multiline["output"]
    assert "extra_credit" in data["tests"][-1]["tags"]
    assert "Hidden cases (4): 1 passed, 2 failed, 1 timeout." in data["output"]
    assert data["stdout_visibility"] == "hidden"


def test_hidden_visibility_is_configurable_and_checked():
    bob = batch.make_batch()[1]
    data = GradescopeReporter({"gradescope_hidden_visibility": "hidden"}).results_json(bob, batch.make_spec())
    assert {e["visibility"] for e in data["tests"]} == {"visible", "hidden"}
    with pytest.raises(ValueError, match="gradescope_hidden_visibility"):
        GradescopeReporter({"gradescope_hidden_visibility": "secret"}).results_json(bob, batch.make_spec())


def test_submission_problems_and_violations_reach_the_student():
    results = batch.make_batch()
    carol = GradescopeReporter().results_json(results[2], batch.make_spec())
    assert "hw_demo.py:12:11" in carol["output"] and "builtins.sum" in carol["output"]
    eve = GradescopeReporter().results_json(results[4], batch.make_spec())
    _validate(eve)
    assert eve["tests"] == [] and "invalid syntax (line 3)" in eve["output"] and eve["score"] == 0


def test_leaderboard_only_when_the_spec_defines_one():
    alice, bob = batch.make_batch()[:2]
    spec = batch.make_spec(leaderboard=True)
    data = GradescopeReporter().results_json(alice, spec)
    _validate(data)
    assert data["leaderboard"] == [{"name": "Accuracy", "value": 0.97, "order": "desc"},
                                   {"name": "score", "value": 25}]
    assert GradescopeReporter().results_json(bob, spec)["leaderboard"] == [{"name": "score", "value": 10}]
    assert "leaderboard" not in GradescopeReporter().results_json(alice, batch.make_spec())
