"""The MATLAB corpus (submissions/hw7_iteration_matlab/) graded by the same hw7 spec as the Python one.

Every student folder has a hand-written ``<name>.expected.yaml`` beside it (format: see
test_corpus.py). Also: a class mixing Python and MATLAB students grades with one spec, and
``grader check`` works on a folder of .m files.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.languages.matlab_session import octave_path
from test_corpus import ROOT, check_expectations, describe, grade_batch, load_expected

SPEC = ROOT / "specs" / "hw7_iteration.yaml"
CORPUS = ROOT / "submissions" / "hw7_iteration_matlab"
STUDENTS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    assert octave_path(), "GNU Octave is required (./install.sh --matlab; CI installs it with --test)"
    results, _ = grade_batch(SPEC, [CORPUS], tmp_path_factory.mktemp("matlab_corpus"))
    return results


def test_corpus_is_complete():
    assert len(STUDENTS) >= 12
    assert [s for s in STUDENTS if not (CORPUS / f"{s}.expected.yaml").exists()] == []
    assert sorted(p.name.removesuffix(".expected.yaml") for p in CORPUS.glob("*.expected.yaml")) == STUDENTS


@pytest.mark.parametrize("name", STUDENTS)
def test_matlab_submission_gets_its_hand_written_grade(graded, name):
    result = graded[name]
    problems = check_expectations(result, load_expected(CORPUS / f"{name}.expected.yaml"))
    assert not problems, f"{name} does not get its hand-written grade:\n- " + "\n- ".join(problems) + "\n" + describe(result)


def test_what_a_matlab_student_reads(graded):
    war = [t for t in graded["syntax_error"].tests if t.function == "war"]
    assert "war.m" in war[0].message and "syntax error" in war[0].message
    prints = next(t for t in graded["prints_without_semicolons"].tests if t.function == "war" and t.visibility == "public")
    assert "rounds = 2" in prints.stdout
    handle = graded["sum_through_handle"].functions["scrabbleScore"].violations
    assert any(v.layer == "static" and v.line == 3 and "@sum" in v.source_line for v in handle)
    notes = [e.message for e in graded["correct_single_file"].errors if e.kind == "note"]
    assert any("holds several functions" in n for n in notes) or graded["correct_single_file"].score == 60


def test_one_spec_grades_a_class_mixing_python_and_matlab(tmp_path):
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    shutil.copy(ROOT / "submissions" / "hw7_iteration" / "war_off_by_one.py", mixed / "py_war_off_by_one.py")
    shutil.copy(ROOT / "submissions" / "hw7_iteration" / "correct_loops.py", mixed / "py_correct.py")
    shutil.copytree(CORPUS / "war_off_by_one", mixed / "m_war_off_by_one")
    shutil.copytree(CORPUS / "correct_single_file", mixed / "m_correct")
    results, _ = grade_batch(SPEC, [mixed], tmp_path / "out")
    assert {k: v.score for k, v in results.items()} == {"py_war_off_by_one": 50, "py_correct": 60,
                                                       "m_war_off_by_one": 50, "m_correct": 60}
    war = [t for t in results["m_war_off_by_one"].tests if t.function == "war" and t.name == "handout_example"][0]
    assert war.actual == "Player 2 defeated player 1 in 11 rounds."     # the same message as for the Python student


def _grader(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_grader_check_on_a_folder_of_m_files(tmp_path):
    done = _grader("check", str(SPEC), str(CORPUS / "war_off_by_one"), cwd=ROOT)
    assert done.returncode == 1, done.stderr
    assert "Player 2 defeated player 1 in 11 rounds." in done.stdout
    done = _grader("check", str(SPEC), str(CORPUS / "correct_loops"), cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_student_bundle_works_for_a_matlab_student(tmp_path):
    bundle = tmp_path / "bundle"
    assert _grader("export-student", str(SPEC), "--out", str(bundle), cwd=ROOT).returncode == 0
    student = tmp_path / "student"
    shutil.copytree(CORPUS / "gofish_no_pair_on_draw", student)
    done = _grader("check", str(bundle / "spec.yaml"), str(student), cwd=tmp_path)
    assert done.returncode == 1 and "goFish" in done.stdout, done.stdout + done.stderr
    done = _grader("check", str(bundle / "spec.yaml"), str(CORPUS / "correct_single_file"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_grader_bans_on_a_folder_of_m_files():
    done = _grader("bans", str(SPEC), str(CORPUS / "feval_and_eval"), cwd=ROOT)
    assert done.returncode == 1
    assert "scrabbleScore.m:3:17" in done.stdout and "inside an eval string" in done.stdout
    assert _grader("bans", str(SPEC), str(CORPUS / "correct_loops"), cwd=ROOT).returncode == 0


def test_without_octave_grading_m_files_says_what_to_install(tmp_path, monkeypatch):
    import grader.languages.matlab as matlab
    from grader.batch import BatchOptions, run_batch
    from grader.errors import GraderError
    from grader.spec.loader import load_spec
    from grader.submissions import discover

    monkeypatch.setattr(matlab, "octave_path", lambda: None)
    spec = load_spec(SPEC)
    subs = discover([CORPUS / "correct_loops"], spec.submission_files, languages=spec.languages)
    with pytest.raises(GraderError) as raised:
        run_batch(spec, subs, BatchOptions(out_dir=tmp_path, jobs=1, regrade=True))
    assert "install.sh --matlab" in (raised.value.hint or "")
    assert not list(tmp_path.glob("correct_loops.json"))        # nobody got a 0 for the machine's problem
