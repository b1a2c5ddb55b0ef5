"""Grade every submission of the program corpora (Blackjack, Guess the Number) and compare with its .expected.yaml.

Each corpus holds real-style submissions in Python and Java (legacy encodings, the course's StdIn/StdOut,
helper classes in a folder, the wordings real students use, state bugs that only long sessions show,
programs that rig their own deals) with a hand-written expected grade next to each.
"""
from __future__ import annotations

import fnmatch
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from grader.programs.grade import grade_program
from grader.spec.loader import load_spec

ROOT = Path(__file__).resolve().parent.parent
CORPORA = {"blackjack": "blackjack.yaml", "guess_number": "guess_number.yaml"}


def _submissions(corpus: str) -> list[Path]:
    folder = ROOT / "submissions" / corpus
    return sorted(p for p in folder.iterdir() if p.suffix in (".py", ".java") or p.is_dir())


SUBMISSIONS = [(corpus, path) for corpus in CORPORA for path in _submissions(corpus)]


def files_of(path: Path) -> dict[str, bytes]:
    if path.is_dir():
        return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.suffix in (".py", ".java")}
    return {path.name: path.read_bytes()}


@pytest.fixture(scope="session")
def graded():
    """Every corpus submission graded once (Java compiled once, cached), two at a time."""
    specs = {corpus: load_spec(ROOT / "specs" / name) for corpus, name in CORPORA.items()}

    def grade(item):
        corpus, path = item
        return (corpus, path.name), grade_program(specs[corpus], path.stem, files_of(path))

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(grade, SUBMISSIONS))


def _within(value: float, bounds: dict) -> bool:
    if "exact" in bounds:
        return abs(value - bounds["exact"]) < 0.01
    return bounds.get("min", float("-inf")) - 0.01 <= value <= bounds.get("max", float("inf")) + 0.01


def test_the_blackjack_corpus_has_both_languages_and_every_real_failure():
    names = {p.name for p in _submissions("blackjack")}
    assert sum(n.endswith(".py") for n in names) >= 8 and sum(n.endswith(".java") for n in names) >= 8
    for needed in ("java_real_cp1252.java", "java_real_greek_iso8859_7.java", "java_folder_with_stdlib",
                   "java_real_wording.java", "java_real_crash_dealer_draws.java", "java_real_double_redraw.java",
                   "java_real_credit_15x.java", "java_missing_library.java", "java_hostile_plays_nothing.java",
                   "java_hostile_hides_crash.java", "java_hostile_legend.java", "java_real_tlr_natural_bug.java",
                   # what the screen shows: lines rubbed out or rewritten, a dealer out of sight, two results
                   # and two totals; honest colour and spinners
                   "py_cr_overwrite.py", "py_cursor_rewrite.py", "py_hidden_dealer.py", "java_hidden_dealer.java",
                   "py_contradicts.py", "py_honest_colour.py", "java_honest_colour.java"):
        assert needed in names
    assert len([n for n in names if "hostile" in n]) >= 6


@pytest.mark.parametrize("corpus, path", SUBMISSIONS, ids=lambda v: v.name if isinstance(v, Path) else v)
def test_matches_expected(graded, corpus, path):
    expected = yaml.safe_load((path.parent / (path.stem + ".expected.yaml")).read_text())
    result = graded[(corpus, path.name)]
    assert _within(result.score, expected["score"]), f"score {result.score}, expected {expected['score']}"
    for name, bounds in expected.get("criteria", {}).items():
        assert _within(result.functions[name].score, bounds), f"{name}: {result.functions[name].score}, expected {bounds}"
    kinds = {e.kind for e in result.errors}
    assert set(expected.get("errors", [])) == kinds, f"errors {kinds}: {[e.message for e in result.errors]}"
    for pattern, status in expected.get("tests", {}).items():
        matching = [t for t in result.tests if fnmatch.fnmatch(t.name, pattern)]
        assert matching, f"no test matches {pattern}"
        assert {t.status for t in matching} == {status}, [(t.name, t.status, t.message) for t in matching if t.status != status][:3]
    # The messages as students and as staff read them: a hidden case's game is staff-only (below).
    text = " ".join([t.message for t in result.tests] + [t.staff.get("message", "") for t in result.tests] +
                    [e.message for e in result.errors] + [e.staff or "" for e in result.errors])
    for snippet in expected.get("messages", []):
        assert snippet in text
    assert result.max_score == 100


def _hidden_cases(corpus: str) -> list[str]:
    spec = load_spec(ROOT / "specs" / CORPORA[corpus])
    return [c["name"] for c in spec.program.cases if c.get("visibility", "hidden") == "hidden"]


def test_a_student_reads_no_hidden_cases_game_in_any_message(graded):
    # The aspects' tests are public, one over every case, and quoted the games of the hidden
    # cases (their cards, stakes and expected money); so did the unfair_deals rule's message.
    quoted = 0
    for (corpus, _), result in graded.items():
        student = result.encoded().student.decode()
        staff = result.encoded().staff.decode()
        for case in _hidden_cases(corpus):
            leak = re.compile(rf"{re.escape(case)}( game \d+)?: (?!wrong in a hidden case|the program crashed on a hidden case|the grader lost track)")
            assert not leak.search(student), (result.submission, leak.search(student))
            quoted += bool(leak.search(staff))
    assert quoted >= 5         # staff still read them: the hidden cases do find faults


#: Programs that deal their own cards, their faults showing only in some deals: Java's new Random()/Math.random()/
#: ThreadLocalRandom and Python's random are seeded per case by the grader, so every grading sees the same deals.
DETERMINISM = [("blackjack", "java_real_double_redraw.java"), ("blackjack", "java_real_credit_15x.java"),
               ("blackjack", "java_real_wording.java"), ("blackjack", "py_hostile_naturals.py"),
               ("blackjack", "java_real_tlr_natural_bug.java")]


def test_the_same_submission_grades_the_same_five_times(graded):
    """Four more gradings of programs that deal their own cards give the corpus run's scores exactly."""
    specs = {corpus: load_spec(ROOT / "specs" / name) for corpus, name in CORPORA.items()}

    def grade(item):
        corpus, name = item
        path = ROOT / "submissions" / corpus / name
        return item, grade_program(specs[corpus], path.stem, files_of(path))

    with ThreadPoolExecutor(2) as pool:
        again = list(pool.map(grade, DETERMINISM * 4))
    for item, result in again:
        first = graded[item]
        assert {k: f.score for k, f in result.functions.items()} == {k: f.score for k, f in first.functions.items()}, item
        assert result.score == first.score, item
        assert [t.message for t in result.tests if t.function != "speed"] == \
               [t.message for t in first.tests if t.function != "speed"], item


BATCH = ["java_hostile_naturals.java", "py_hostile_reads_decks.py", "java_real_wording.java", "py_correct.py"]


def test_hostile_deals_in_one_batch_with_honest_programs(graded, tmp_path):
    """Through the CLI, rigged-deal programs next to honest ones: every score is the one it gets alone."""
    import json
    import shutil

    from grader.cli import main

    klass = tmp_path / "class"
    klass.mkdir()
    for name in BATCH:
        shutil.copy(ROOT / "submissions" / "blackjack" / name, klass / name)
    assert main(["grade", str(ROOT / "specs" / "blackjack.yaml"), str(klass), "--out", str(tmp_path / "out"),
                 "--jobs", "2"]) == 0
    for name in BATCH:
        data = json.loads((tmp_path / "out" / f"{Path(name).stem}.json").read_text())
        alone = graded[("blackjack", name)]
        assert data["score"] == alone.score, name
        assert {k: v["score"] for k, v in data["functions"].items()} == {k: f.score for k, f in alone.functions.items()}
    hostile = json.loads((tmp_path / "out" / "java_hostile_naturals.json").read_text())
    assert any(e["kind"] == "rule" and "unfair_deals" in e["message"] for e in hostile["errors"])


def test_a_hidden_case_crash_shows_a_student_nothing_the_program_wrote(graded):
    """Issue #12, class 2: the program's crash message (py_hostile_crash_spells_inputs spells the
    hidden case's answers out in it) goes to staff; the student's JSON says a hidden case crashed."""
    import json

    result = graded[("blackjack", "py_hostile_crash_spells_inputs.py")]
    encoded = result.encoded()
    assert "LEAK" not in encoded.student.decode() and "LEAK" in encoded.staff.decode()
    shown = json.loads(encoded.student)["errors"]
    assert shown and all(e["message"].endswith("crashed on a hidden case") and "staff" not in e for e in shown), shown
