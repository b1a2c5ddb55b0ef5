"""Bad input to the grader itself, through the command line.

* Broken specs (tests/fixtures/bad_specs/ and tests/fixtures/bad_inputs/specs/): `grader grade`
  and `grader validate` must fail with a non-zero exit code and a clear message that names the
  spec file (with a line number for problems inside the file), never a traceback.
* Broken submissions (tests/fixtures/bad_inputs/class/) graded in ONE batch with good ones:
  an empty file, a binary file, a folder without the expected file, and a good file with the
  wrong name. Each gets a clear submission error, the batch goes on, and the good ones score
  full, among them two saved in Latin-1: one with a coding declaration (valid Python), one
  without (an editor's Windows code page), which is graded with a note saying so.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures"
BAD_SPECS = sorted((FIX / "bad_specs").glob("*.yaml")) + sorted((FIX / "bad_inputs" / "specs").glob("*.yaml"))
CLASS = FIX / "bad_inputs" / "class"
MINI = FIX / "specs" / "mini.yaml"
GOOD = CLASS / "good.py"

# What each broken spec must be told about (a substring of the message, case-insensitive).
SPEC_MESSAGES = {
    "bad_args.yaml": "argument",
    "bad_generator.yaml": "generator",
    "missing_function.yaml": "not defined in the reference",
    "missing_reference.yaml": "not found",
    "not_a_mapping.yaml": "mapping",
    "unknown_key.yaml": "unknown key",
    "wrong_type.yaml": "not of type",
    "yaml_syntax.yaml": "yaml syntax",
    "duplicate_function.yaml": "twice",
    "empty.yaml": "mapping",
    "reference_raises.yaml": "reference",
    "unknown_compare_mode.yaml": "fuzzy",
    "unknown_validator.yaml": "unknown validator",
    # grader validate and grade run the reference, the generators and the ban names (issue 13)
    "deep_ban_typo.yaml": "did you mean 'builtins.sum'",
    "deep_generator_not_a_list.yaml": "must return the list",
    "deep_generator_shape.yaml": "returns 1 argument(s)",
    "deep_pinned_differs.yaml": "pins expected 5, but the reference returns 4",
    "deep_reference_raises.yaml": "raises zerodivisionerror",
    "schema_compare_typo.yaml": "did you mean 'unordered'",
    "schema_plain_ban.yaml": "did you mean 'builtins.sum'",
}


def grader(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def no_traceback(proc: subprocess.CompletedProcess) -> None:
    for stream, text in (("stdout", proc.stdout), ("stderr", proc.stderr)):
        assert "Traceback (most recent call last)" not in text, f"traceback on {stream}:\n{text}"
        assert "internal error" not in text, f"internal error on {stream}:\n{text}"


def test_every_bad_spec_has_a_message_rule():
    assert {p.name for p in BAD_SPECS} <= set(SPEC_MESSAGES), sorted({p.name for p in BAD_SPECS} - set(SPEC_MESSAGES))


@pytest.mark.parametrize("spec", BAD_SPECS, ids=[p.name for p in BAD_SPECS])
def test_bad_spec_grade(spec, tmp_path):
    proc = grader("grade", str(spec.relative_to(ROOT)), str(GOOD), "--out", str(tmp_path / "out"), "--jobs", "1")
    no_traceback(proc)
    assert proc.returncode != 0, f"grading with {spec.name} succeeded:\n{proc.stdout}{proc.stderr}"
    text = proc.stdout + proc.stderr
    assert SPEC_MESSAGES[spec.name] in text.lower(), f"{spec.name}: the message does not mention {SPEC_MESSAGES[spec.name]!r}:\n{text}"
    if spec.name != "reference_raises.yaml":  # that one is found while planning, not in the file
        assert f"{spec.name}:" in text, f"{spec.name}: the message does not name the spec file with a position:\n{text}"


@pytest.mark.parametrize("spec", BAD_SPECS, ids=[p.name for p in BAD_SPECS])
def test_bad_spec_validate(spec):
    proc = grader("validate", str(spec.relative_to(ROOT)))
    no_traceback(proc)
    assert proc.returncode != 0, f"validate accepted {spec.name}:\n{proc.stdout}{proc.stderr}"


# --------------------------------------------------------------------------- bad submissions

EXPECTED_ERRORS = {
    "empty": ("empty", "empty"),
    "binary": ("binary", "binary"),
    "folder_without_file": ("missing-file", "mini.py"),
}
# wrongly_named_homework.py: in a class folder a file's name is the student's id, not a mistake
FULL = ["good", "folder_ok", "wrongly_named_homework", "latin1", "declared_latin1"]  # 10 + 10 + extra credit 5


@pytest.fixture(scope="module")
def class_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bad_inputs_out")
    proc = grader("grade", str(MINI.relative_to(ROOT)), str(CLASS.relative_to(ROOT)), "--out", str(out), "--jobs", "2", "--format", "json")
    results = {p.stem: json.loads(p.read_text()) for p in out.glob("*.json") if p.stem != "summary"}
    return proc, results


def test_batch_goes_on(class_run):
    proc, results = class_run
    no_traceback(proc)
    assert proc.returncode == 0, f"the batch failed:\n{proc.stdout}{proc.stderr}"
    assert set(results) == set(EXPECTED_ERRORS) | set(FULL), f"graded: {sorted(results)}"


@pytest.mark.parametrize("name", sorted(EXPECTED_ERRORS))
def test_bad_submission_message(class_run, name):
    _, results = class_run
    result = results[name]
    kind, needle = EXPECTED_ERRORS[name]
    errors = result["errors"]
    match = [e for e in errors if e["kind"] == kind]
    assert match, f"{name}: no {kind!r} error; errors: {errors}"
    assert needle in match[0]["message"].lower(), f"{name}: the {kind} message does not mention {needle!r}: {match[0]['message']!r}"
    assert all("Traceback" not in e["message"] for e in errors), errors
    if name not in FULL:
        assert result["score"] == 0, f"{name} scored {result['score']}"
        assert all(t["status"] == "error" and t["message"] for t in result["tests"]), f"{name}: every case must be an error with a message"


@pytest.mark.parametrize("name", FULL)
def test_good_ones_score_full(class_run, name):
    _, results = class_run
    result = results[name]
    assert result["score"] == pytest.approx(25, abs=0.005), f"{name}: {result['score']} ({[(t['name'], t['status'], t['message']) for t in result['tests'] if t['status'] != 'passed']})"
    assert [e for e in result["errors"] if e["kind"] != "note"] == []


def test_a_file_in_a_legacy_code_page_is_graded_with_a_note(class_run):
    _, results = class_run
    notes = [e["message"] for e in results["latin1"]["errors"] if e["kind"] == "note"]
    assert any("latin1.py is saved in" in n and "not UTF-8" in n and "save it as UTF-8" in n for n in notes), notes
    assert not [e for e in results["declared_latin1"]["errors"] if "UTF-8" in e["message"]], \
        "a file with a coding declaration is valid Python: nothing to say about it"
