"""Grade the sample corpora (submissions/<assignment>/) and compare with hand-written grades.

Every ``submissions/<assignment>/<name>.py`` has a ``<name>.expected.yaml`` next to it,
written by hand from the handout and the spec's points and weights (never copied from the
grader's output); its comments say why the submission deserves that grade. Format::

    score: 50                 # exact total, or {min: 20, max: 45}
    functions:                # per function: exact number, or {min:, max:}
      scrabbleScore: 10
      war: {max: 9}
    statuses:                 # per function: statuses that must appear / must all be
      war: {includes: [failed]}
      goFish: {all: banned}
      wordSearch: {any: [error, crashed]}   # at least one case has one of these
      blackJack: {none: [passed]}           # no case may have any of these
    violations:
      goFish: [builtins.sum]  # banned names that must be reported for that function;
                              # [] means no counting violation may be reported
    errors: [syntax]          # submission-level error kinds that must appear (empty, binary,
                              # encoding, missing-file, syntax, import-error,
                              # missing-function, note, ...); 'a|b' accepts either kind
    messages:                 # optional: per function, substrings (case-insensitive) of
      war: [time limit]       # which each must occur in some non-passing case's message
    error_messages: [syntax]  # optional: substrings that must occur in some error message

Numbers are compared with a tolerance of TOL points (per-case scores are rounded to
4 decimals before they are added up). Beyond the file, every submission must also get a
clear message for every case it did not pass and for every submission-level error.

Each corpus is graded in ONE batch with the real sandbox (grader.batch.run_batch, 2 jobs).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Mapping

import pytest
import yaml

from grader.batch import BatchOptions, run_batch
from grader.judge.verdict import SubmissionResult
from grader.spec.loader import load_spec
from grader.submissions import discover

ROOT = Path(__file__).resolve().parent.parent
CORPORA = {
    "hw7_iteration": ROOT / "specs" / "hw7_iteration.yaml",
    "comp10001go": ROOT / "specs" / "comp10001go.yaml",
}
TOL = 0.005
STATUSES = {"passed", "failed", "error", "timeout", "banned", "crashed"}
TRACEBACK_MARK = "Traceback (most recent call last)"


# --------------------------------------------------------------------------- helpers shared with test_hostile.py

def sandbox_profile():
    from grader.run.sandbox import probe

    profile = probe()
    # install.sh installs bubblewrap: a missing sandbox is a failure, never a skip.
    assert profile.secure, f"no secure sandbox on this machine ({profile.describe()}); run ./install.sh"
    return profile


def grade_batch(spec_path: Path, targets: list[Path], out_dir: Path, jobs: int = 2) -> tuple[dict[str, SubmissionResult], float]:
    """Grade every submission found in ``targets`` in one batch; results by submission id."""
    spec = load_spec(spec_path)
    subs = discover(targets, spec.submission_files)
    options = BatchOptions(out_dir=out_dir, jobs=jobs, regrade=True, profile=sandbox_profile())
    started = time.perf_counter()
    outcome = run_batch(spec, subs, options)
    elapsed = time.perf_counter() - started
    results = {r.submission: r for r in outcome.results}
    assert set(results) == {s.id for s in subs}, f"batch lost submissions: {sorted({s.id for s in subs} - set(results))}"
    return results, elapsed


def load_expected(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text()) or {}
    assert isinstance(data, dict), f"{path}: expected file must be a mapping"
    unknown = set(data) - {"score", "functions", "statuses", "violations", "errors", "messages", "error_messages"}
    assert not unknown, f"{path}: unknown keys {sorted(unknown)}"
    return data


def _check_number(label: str, actual: float, want: Any, problems: list[str]) -> None:
    if isinstance(want, Mapping):
        lo, hi = want.get("min"), want.get("max")
        if lo is not None and actual < lo - TOL:
            problems.append(f"{label} is {actual}, expected at least {lo}")
        if hi is not None and actual > hi + TOL:
            problems.append(f"{label} is {actual}, expected at most {hi}")
    elif abs(actual - float(want)) > TOL:
        problems.append(f"{label} is {actual}, expected {want}")


def describe(result: SubmissionResult) -> str:
    """A compact account of a result for assertion messages."""
    lines = [f"  total {result.score}/{result.max_score}"]
    for name, fn in result.functions.items():
        counts: dict[str, int] = {}
        for t in result.tests:
            if t.function == name:
                counts[t.status] = counts.get(t.status, 0) + 1
        first_bad = next((t for t in result.tests if t.function == name and t.status != "passed"), None)
        extra = f"; first non-pass {first_bad.name}: {first_bad.status}: {first_bad.message[:120]!r}" if first_bad else ""
        viol = f"; violations {[v.banned for v in fn.violations]}" if fn.violations else ""
        lines.append(f"  {name}: {fn.score}/{fn.max_score} {counts}{viol}{extra}")
    for e in result.errors:
        lines.append(f"  error {e.kind}: {e.message[:160]!r}")
    return "\n".join(lines)


def check_expectations(result: SubmissionResult, expected: Mapping[str, Any]) -> list[str]:
    """Every way ``result`` differs from ``expected`` (empty when it matches)."""
    problems: list[str] = []
    if "score" in expected:
        _check_number("total score", result.score, expected["score"], problems)
    for name, want in (expected.get("functions") or {}).items():
        fn = result.functions.get(name)
        if fn is None:
            problems.append(f"function {name} missing from the result")
            continue
        _check_number(f"{name} score", fn.score, want, problems)
    for name, rule in (expected.get("statuses") or {}).items():
        seen = [t.status for t in result.tests if t.function == name]
        if not seen:
            problems.append(f"{name}: no case results at all")
            continue
        for status in rule.get("includes", []):
            assert status in STATUSES, f"bad status {status!r} in expected file"
            if status not in seen:
                problems.append(f"{name}: no case has status {status!r} (statuses: {sorted(set(seen))})")
        anyof = rule.get("any", [])
        if anyof and not set(anyof) & set(seen):
            problems.append(f"{name}: no case has any of the statuses {anyof} (statuses: {sorted(set(seen))})")
        bad = sorted(set(rule.get("none", [])) & set(seen))
        if bad:
            problems.append(f"{name}: some cases have forbidden statuses {bad}")
        if "all" in rule:
            wrong = sorted({s for s in seen if s != rule["all"]})
            if wrong:
                problems.append(f"{name}: not all cases are {rule['all']!r} (also {wrong})")
    for name, banned in (expected.get("violations") or {}).items():
        fn = result.functions.get(name)
        found = {v.banned for v in fn.violations if v.counts} if fn else set()
        if not banned and found:
            problems.append(f"{name}: no violation expected, got {sorted(found)}")
        for b in banned:
            if b not in found:
                problems.append(f"{name}: violation {b} not reported (got {sorted(found)})")
    kinds = [e.kind for e in result.errors]
    for kind in expected.get("errors") or []:
        if not set(kind.split("|")) & set(kinds):
            problems.append(f"no submission error of kind {kind!r} (got {kinds})")
    for name, needles in (expected.get("messages") or {}).items():
        texts = " | ".join(t.message for t in result.tests if t.function == name and t.status != "passed").lower()
        for needle in needles:
            if needle.lower() not in texts:
                problems.append(f"{name}: no non-passing case message mentions {needle!r} (messages: {texts[:300]!r})")
    error_text = " | ".join(e.message for e in result.errors).lower()
    for needle in expected.get("error_messages") or []:
        if needle.lower() not in error_text:
            problems.append(f"no submission error message mentions {needle!r} (errors: {error_text[:300]!r})")
    problems += message_problems(result)
    return problems


def message_problems(result: SubmissionResult) -> list[str]:
    """Every non-passing case and every error must carry a clear message (no traceback)."""
    problems = []
    for t in result.tests:
        if t.status != "passed" and not t.message.strip():
            problems.append(f"{t.function}/{t.name}: status {t.status} without a message")
        if TRACEBACK_MARK in t.message:
            problems.append(f"{t.function}/{t.name}: the student message is a raw traceback")
    for e in result.errors:
        if not e.message.strip():
            problems.append(f"error {e.kind} without a message")
        if e.kind == "internal-error":
            problems.append(f"grader internal error: {e.message}")
    return problems


def corpus_files(assignment: str) -> list[Path]:
    return sorted(p for p in (ROOT / "submissions" / assignment).glob("*.py"))


# --------------------------------------------------------------------------- the corpus tests

_graded: dict[str, tuple[dict[str, SubmissionResult], float]] = {}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    def get(assignment: str) -> dict[str, SubmissionResult]:
        if assignment not in _graded:
            out = tmp_path_factory.mktemp(f"corpus_{assignment}")
            _graded[assignment] = grade_batch(CORPORA[assignment], [ROOT / "submissions" / assignment], out)
        return _graded[assignment][0]

    return get


@pytest.mark.parametrize("assignment", sorted(CORPORA))
def test_corpus_is_complete(assignment):
    files = corpus_files(assignment)
    assert len(files) >= 12, f"{assignment}: only {len(files)} sample submissions"
    missing = [p.name for p in files if not p.with_suffix(".expected.yaml").exists()]
    assert not missing, f"{assignment}: no expected file for {missing}"
    orphans = [p.name for p in p_dir(assignment).glob("*.expected.yaml") if not (p_dir(assignment) / p.name.replace(".expected.yaml", ".py")).exists()]
    assert not orphans, f"{assignment}: expected files without a submission: {orphans}"


def p_dir(assignment: str) -> Path:
    return ROOT / "submissions" / assignment


CASES = [(a, p.stem) for a in sorted(CORPORA) for p in corpus_files(a)]


@pytest.mark.parametrize("assignment,name", CASES, ids=[f"{a}/{n}" for a, n in CASES])
def test_corpus_submission(graded, assignment, name):
    results = graded(assignment)
    assert name in results, f"{assignment}/{name}.py was not graded (graded: {sorted(results)})"
    result = results[name]
    expected = load_expected(p_dir(assignment) / f"{name}.expected.yaml")
    problems = check_expectations(result, expected)
    assert not problems, f"{assignment}/{name}.py does not get its hand-written grade:\n- " + "\n- ".join(problems) + "\nresult:\n" + describe(result)
