"""Grade every submission of submissions/blackjack and compare with its .expected.yaml."""
from __future__ import annotations

import fnmatch
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from grader.programs.grade import grade_program
from grader.spec.loader import load_spec

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "submissions" / "blackjack"
SUBMISSIONS = sorted(p for p in CORPUS.iterdir() if p.suffix in (".py", ".java"))


@pytest.fixture(scope="session")
def graded():
    """Every corpus submission graded once (Java compiled once, cached), two at a time."""
    spec = load_spec(ROOT / "specs" / "blackjack.yaml")

    def grade(path: Path):
        return path.name, grade_program(spec, path.stem, {path.name: path.read_bytes()})

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(grade, SUBMISSIONS))


def _within(value: float, bounds: dict) -> bool:
    if "exact" in bounds:
        return abs(value - bounds["exact"]) < 0.01
    return bounds.get("min", float("-inf")) - 0.01 <= value <= bounds.get("max", float("inf")) + 0.01


def test_corpus_has_both_languages():
    assert sum(p.suffix == ".py" for p in SUBMISSIONS) >= 8
    assert sum(p.suffix == ".java" for p in SUBMISSIONS) >= 8


@pytest.mark.parametrize("path", SUBMISSIONS, ids=lambda p: p.name)
def test_matches_expected(graded, path):
    expected = yaml.safe_load(path.with_name(path.stem + ".expected.yaml").read_text())
    result = graded[path.name]
    assert _within(result.score, expected["score"]), f"score {result.score}, expected {expected['score']}"
    for name, bounds in expected.get("criteria", {}).items():
        assert _within(result.functions[name].score, bounds), f"{name}: {result.functions[name].score}, expected {bounds}"
    kinds = {e.kind for e in result.errors}
    assert set(expected.get("errors", [])) == kinds, f"errors {kinds}"
    for pattern, status in expected.get("tests", {}).items():
        matching = [t for t in result.tests if fnmatch.fnmatch(t.name, pattern)]
        assert matching, f"no test matches {pattern}"
        assert {t.status for t in matching} == {status}, [(t.name, t.status, t.message) for t in matching if t.status != status][:3]
    text = " ".join([t.message for t in result.tests] + [e.message for e in result.errors])
    for snippet in expected.get("messages", []):
        assert snippet in text
    assert result.max_score == 100
