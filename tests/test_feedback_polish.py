"""What students and instructors read: each item of issue #16's feedback and report polish."""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path


from conftest import FIXTURES
from grader.judge.verdict import SubmissionResult, TestResult, Violation
from grader.reports import write_reports
from grader.reports._common import all_violations, banned_counts, natural_key
from grader.reports._plots import time_axis_limits
from grader.static.syntax import syntax_problem

MINI = FIXTURES / "specs" / "mini.yaml"
STATS = FIXTURES / "specs" / "stats.yaml"
GOOD = "def add(a, b):\n    return a + b\n\ndef divmod2(a, b):\n    return a // b, a % b\n\ndef shout(text):\n    return text.upper() + '!'\n"
_spec = importlib.util.spec_from_file_location("reports_batch_polish", FIXTURES / "reports" / "batch.py")
batch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)


def grader(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300)


# ------------------------------------------------------------------ the student's terminal
def test_a_syntax_error_is_shown_once_with_its_line_and_a_caret(tmp_path):
    bad = tmp_path / "mini.py"
    bad.write_text(GOOD.replace("def divmod2(a, b):", "def divmod2(a, b)"))
    proc = grader("check", MINI, bad)
    assert proc.returncode == 1
    out = proc.stdout
    assert out.count("expected ':'") == 1 and "(line 4) (line 4)" not in out
    assert "! expected ':' (line 4)\n    def divmod2(a, b)\n                     ^\n" in out
    assert "not run: the file could not be loaded" in out and "call:" not in out
    found = syntax_problem("x = (1,\n", "f.py")
    assert found is not None and found.lineno == 1 and found.excerpt.endswith("^")


def test_true_against_1_shows_the_types(tmp_path):
    student = tmp_path / "stats.py"
    student.write_text("def spread(xs):\n    return 0.0\ndef scaled(xs, k):\n    return []\n"
                       "def count_over(xs, t):\n    return 2.0\ndef all_positive(xs):\n    return 1\n")
    out = grader("check", STATS, student).stdout
    assert "expected: True (bool)\n    actual:   1 (int)" in out
    assert "expected: 2 (int)\n    actual:   2.0 (float)" not in out  # int 2 and float 2.0 are equal answers
    assert "expected: [0.5, 1.0, 1.5]\n    actual:   []\n" in out       # same type: no type names


def test_a_misnamed_function_gets_did_you_mean(tmp_path):
    student = tmp_path / "mini.py"
    student.write_text(GOOD.replace("def divmod2(", "def div_mod2(").replace("def shout(", "def Shout("))
    out = " ".join(grader("check", MINI, student).stdout.split())
    assert "function divmod2 is not defined (your file defines div_mod2: did you mean divmod2?)" in out
    assert "function shout is not defined (your file defines Shout: did you mean shout?; names are case-sensitive)" in out
    other = tmp_path / "other.py"
    other.write_text(GOOD.replace("def shout(", "def yell("))
    assert "did you mean" not in grader("check", MINI, other).stdout


def test_a_banned_call_is_listed_once_with_a_count(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "summer.py").write_text(GOOD.replace("return a + b", "return sum([a, b])"))
    out = tmp_path / "out"
    assert grader("grade", MINI, klass, "--out", out, "--format", "json,markdown,html").returncode == 0
    result = SubmissionResult.from_json(json.loads((out / "summer.json").read_text()))
    runtime = [v for v in result.functions["add"].violations if v.layer == "runtime"]
    assert len(runtime) >= 3
    merged = [v for v in all_violations(result) if v.layer == "runtime"]
    assert len(merged) == 1 and f"while running {len(runtime)} cases" in merged[0].message
    feedback = (out / "feedback" / "summer.md").read_text()
    row = next(line for line in feedback.splitlines() if line.startswith("| `add`"))
    assert row.count("builtins.sum") == 1 and f"×{len(runtime) + 1}" in row
    assert banned_counts([Violation("banned-call", "builtins.sum", "static", 1)] * 3) == "builtins.sum ×3"


def test_grader_bans_respects_a_functions_own_policy(tmp_path):
    for name in ("mini_ref.py", "mini_cases.py"):
        (tmp_path / name).write_text((FIXTURES / "specs" / name).read_text())
    spec = tmp_path / "mini.yaml"
    text = MINI.read_text().replace("  names: [builtins.sum]\n", "  names: []\n")   # only add bans sum
    spec.write_text(text.replace("    aliases: [plus]\n", "    aliases: [plus]\n    bans: {names: [builtins.sum]}\n"))
    student = tmp_path / "mini.py"
    student.write_text(GOOD.replace("return a // b, a % b", "return sum([a]) // b, a % b"))
    proc = grader("bans", spec, student)
    assert proc.returncode == 0 and "no banned functions found (builtins.sum in add)" in proc.stdout, proc.stdout
    student.write_text(GOOD.replace("return a + b", "return sum([a, b])  # \x1b[2J\x1b[Hall clear"))
    proc = grader("bans", spec, student)
    assert proc.returncode == 1 and "builtins.sum" in proc.stdout
    assert "\x1b" not in proc.stdout and "\\x1b[2J" in proc.stdout   # the student's line cannot drive the terminal


# ------------------------------------------------------------------ files handed in
def test_a_50_mb_text_file_is_too_large_not_binary(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "huge.py").write_text("x = 1\n" * 8_400_000)   # 50.4 MB of text
    out = tmp_path / "out"
    assert grader("grade", MINI, klass, "--out", out).returncode == 0
    errors = json.loads((out / "huge.json").read_text())["errors"]
    message = next(e["message"] for e in errors if e["kind"] != "note")
    assert "binary" not in message and "huge.py is 50,400,000 bytes; a source file may have at most 1,000,000" in message


def test_grader_check_takes_a_folder_or_says_what_to_give(tmp_path):
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "mini.py").write_text(GOOD)
    proc = grader("check", MINI, folder)
    assert proc.returncode == 0 and "Score: 25 / 20" in proc.stdout
    proc = grader("check", MINI, tmp_path / "nowhere")
    assert proc.returncode == 2 and "no such file or folder" in proc.stderr and "give your mini.py" in proc.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = grader("check", MINI, empty)
    assert proc.returncode == 1 and "the folder has no mini.py" in proc.stdout


# ------------------------------------------------------------------ the instructor's HTML
def test_case_ids_sort_naturally():
    names = ["pairs[10]", "pairs[2]", "pairs[1]", "big", "pairs[0]"]
    assert sorted(names, key=natural_key) == ["big", "pairs[0]", "pairs[1]", "pairs[2]", "pairs[10]"]


def test_the_class_page_shows_students_first_and_hidden_failures_to_staff(tmp_path):
    results = batch.make_batch()
    write_reports(results, batch.make_spec(), tmp_path, ["html"])
    page = (tmp_path / "report" / "index.html").read_text()
    headings = re.findall(r"<h2>(.*?)</h2>", page)
    assert headings.index("Students") < headings.index("Functions") < headings.index("Cases, hardest first")
    assert headings[-1] == "Hidden cases that did not pass"
    hidden_failed = [t for r in results for t in r.tests if t.visibility == "hidden" and not t.passed]
    assert hidden_failed
    section = page.split("<h2>Hidden cases that did not pass</h2>")[1]
    for t in hidden_failed:
        assert f"<td>{t.name}</td>" in section
    assert batch.HIDDEN_NOTE in section and batch.HIDDEN not in page


def test_the_class_page_shows_staff_the_hidden_details_of_a_public_aspect_test(tmp_path):
    # A program plug-in's aspect test is public, over every case; a hidden case's fault in it reads
    # "long_session game 3: wrong in a hidden case" for the student and in full for staff only.
    results = batch.make_batch()
    aspect = TestResult(name="games/money", function="games", visibility="public", status="failed", score=0,
                        max_score=10, message="money: long_session game 3: wrong in a hidden case",
                        staff={"message": "money: long_session game 3: +15.00 Euro; expected +10.00 Euro"})
    results[0] = replace(results[0], tests=(*results[0].tests, aspect))
    write_reports(results, batch.make_spec(), tmp_path, ["html"])
    section = (tmp_path / "report" / "index.html").read_text().split("<h2>Hidden cases that did not pass</h2>")[1]
    assert "+15.00 Euro; expected +10.00 Euro" in section
    student = next((tmp_path / "report" / "students").glob(f"{results[0].submission}*.html")).read_text()
    assert "wrong in a hidden case" in student and "expected +10.00" not in student


def test_the_case_table_puts_case_2_before_case_10(tmp_path):
    results = batch.make_batch()
    first = results[0]
    cases = [TestResult(name=f"gen[{i}]", function="bonus", visibility="public", status="passed", score=1, max_score=1)
             for i in (10, 2, 1)]
    results[0] = replace(first, tests=first.tests + tuple(cases))
    write_reports(results, batch.make_spec(), tmp_path, ["html"])
    page = (tmp_path / "report" / "index.html").read_text()
    assert page.index("<td>gen[1]</td>") < page.index("<td>gen[2]</td>") < page.index("<td>gen[10]</td>")


def test_zero_time_cases_stand_clear_of_the_axis_and_unrun_cases_are_not_timed():
    left, right = time_axis_limits(3.0)
    assert left < 0 < right
    from grader.reports._common import was_run
    assert not was_run(TestResult("c", "f", "public", "error", 0, 1, message="not run: the file could not be loaded (see above)"))
    assert was_run(TestResult("c", "f", "public", "passed", 1, 1))


def test_tampering_in_several_cases_is_one_finding_that_says_what_was_done():
    from dataclasses import replace

    from grader.judge.verdict import FunctionResult, Violation
    from grader.pipeline import TAMPERED

    found = Violation(rule="tampering", banned=TAMPERED, layer="runtime", line=None, functions=("add",),
                      case="case 1", counts=True, message="removed or replaced the grader's call monitor while running case 1")
    add = FunctionResult(name="add", score=0.0, max_score=1.0, violations=(found, replace(found, case="case 2")))
    result = SubmissionResult(submission="s", assignment="a", score=0.0, max_score=1.0, functions={"add": add}, tests=())
    merged = all_violations(result)
    assert len(merged) == 1
    assert merged[0].message == "removed or replaced the grader's call monitor while running 2 cases (case 1, case 2)"
    assert "sys.setprofile" not in merged[0].banned
