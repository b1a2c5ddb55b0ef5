"""`grader grade`, `check` and `bans` end to end: the CLI contract other tools rely on."""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT

MINI = FIXTURES / "specs" / "mini.yaml"
GOOD = "def add(a, b):\n    return a + b\n\ndef divmod2(a, b):\n    return a // b, a % b\n\ndef shout(text):\n    return text.upper() + '!'\n"
WRONG = GOOD.replace("return a + b", "return a - b")
SUMMER = GOOD.replace("return a + b", "return sum([a, b])")


def grader(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=timeout)


@pytest.fixture
def klass(tmp_path: Path) -> Path:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(GOOD)
    (folder / "bob.py").write_text(WRONG)
    (folder / "carol.py").write_text(SUMMER)
    (folder / "dave.py").write_text("def add(a, b)\n    return a + b\n")
    return folder


def test_grade_writes_the_contracted_files_and_exits_0_whatever_students_score(klass, tmp_path):
    out = tmp_path / "out"
    proc = grader("grade", MINI, klass, "--out", out, "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    for name in ("alice", "bob", "carol", "dave"):
        data = json.loads((out / f"{name}.json").read_text())
        assert {"submission", "assignment", "score", "max_score", "functions", "tests", "errors"} <= set(data)
        for test in data["tests"]:
            assert {"name", "function", "visibility", "status", "score", "max_score", "time_s", "message"} <= set(test)
            if test["visibility"] == "hidden":
                assert "args" not in test and "expected" not in test and "actual" not in test
    alice = json.loads((out / "alice.json").read_text())
    assert alice["score"] == 25 and alice["max_score"] == 20  # 5 extra-credit points on top
    assert {t["status"] for t in alice["tests"]} == {"passed"}
    carol = json.loads((out / "carol.json").read_text())
    assert carol["functions"]["add"]["score"] == 0
    assert carol["functions"]["add"]["violations"][0]["banned"] == "builtins.sum"
    assert {t["status"] for t in carol["tests"] if t["function"] == "add"} == {"banned"}
    dave = json.loads((out / "dave.json").read_text())
    syntax = [e for e in dave["errors"] if e["kind"] == "syntax"]
    assert dave["score"] == 0 and syntax and syntax[0]["line"] == 1
    assert alice["errors"] == []  # in a folder of <id>.py files the name is the id, not a mistake
    rows = list(csv.DictReader((out / "grades.csv").open()))
    assert [r["id"] for r in rows] == ["alice", "bob", "carol", "dave"]
    assert list(rows[0]) == ["id", "score", "max_score", "add", "divmod2", "shout"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["assignment"] == "mini"
    assert (out / "grader.sqlite3").is_file()


def test_a_rerun_reuses_unchanged_results_and_regrade_forces(klass, tmp_path):
    out = tmp_path / "out"
    assert grader("grade", MINI, klass, "--out", out).returncode == 0
    again = grader("grade", MINI, klass, "--out", out)
    assert "graded 0, reused 4 unchanged" in again.stderr, again.stderr
    (klass / "bob.py").write_text(GOOD)  # bob fixes his file: only he is graded again
    fixed = grader("grade", MINI, klass, "--out", out)
    assert "graded 1, reused 3 unchanged" in fixed.stderr, fixed.stderr
    assert json.loads((out / "bob.json").read_text())["score"] == 25
    forced = grader("grade", MINI, klass, "--out", out, "--regrade")
    assert "graded 4, reused 0 unchanged" in forced.stderr


def test_killing_the_grader_loses_nothing_already_finished(tmp_path):
    klass = tmp_path / "big"
    klass.mkdir()
    slow = GOOD.replace("return a + b", "import time\n    time.sleep(0.15)\n    return a + b")
    for i in range(12):
        (klass / f"s{i:02d}.py").write_text(slow)
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "grader", "grade", str(MINI), str(klass), "--out", str(out), "--jobs", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(out.glob("s[0-9]*.json"))) < 3:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = sorted(p.stem for p in out.glob("s[0-9]*.json"))
    assert 3 <= len(finished) < 12, finished
    for path in out.glob("s[0-9]*.json"):
        json.loads(path.read_text())  # every report on disk is whole (written atomically)
    resumed = grader("grade", MINI, klass, "--out", out, "--jobs", "2", timeout=180)
    assert resumed.returncode == 0, resumed.stderr
    reused = int(resumed.stderr.split("reused ")[1].split()[0])
    assert reused >= len(finished)
    assert sorted(p.stem for p in out.glob("s[0-9]*.json")) == [f"s{i:02d}" for i in range(12)]
    assert all(json.loads(p.read_text())["score"] == 25 for p in out.glob("s[0-9]*.json"))


def test_spec_problems_are_the_graders_failure_not_the_students(klass, tmp_path):
    proc = grader("grade", FIXTURES / "bad_specs" / "unknown_key.yaml", klass, "--out", tmp_path / "o")
    assert proc.returncode == 3 and "unknown key 'pionts'" in proc.stderr and "Traceback" not in proc.stderr
    missing = grader("grade", MINI, tmp_path / "nowhere", "--out", tmp_path / "o")
    assert missing.returncode == 2 and "no such file or folder" in missing.stderr
    bad_format = grader("grade", MINI, klass, "--out", tmp_path / "o", "--format", "json,pdf")
    assert bad_format.returncode == 2 and "unknown report format 'pdf'" in bad_format.stderr


def test_check_shows_public_cases_only_and_its_exit_status(tmp_path):
    good, wrong = tmp_path / "mini.py", tmp_path / "wrong.py"
    good.write_text(GOOD)
    wrong.write_text(WRONG)
    ok = grader("check", MINI, good)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = grader("check", MINI, wrong)
    assert bad.returncode == 1
    assert "add(1, 2)" in bad.stdout.replace("call: ", "") or "add" in bad.stdout
    assert "1000000" not in bad.stdout + ok.stdout  # the hidden case 'big' is never shown
    assert "pairs[" not in bad.stdout + ok.stdout and "hidden_one" not in bad.stdout + ok.stdout


def test_bans_lists_findings_without_running(tmp_path):
    clean, dirty = tmp_path / "clean.py", tmp_path / "dirty.py"
    clean.write_text(GOOD)
    dirty.write_text(SUMMER + "\nprint(open('/etc/hostname').read())\n")
    assert grader("bans", MINI, clean).returncode == 0
    found = grader("bans", MINI, dirty)
    assert found.returncode == 1 and "builtins.sum" in found.stdout and ":2:" in found.stdout


def test_grader_errors_are_one_message_and_debug_adds_the_traceback(klass, tmp_path):
    (tmp_path / "ref.py").write_text("def add(a, b):\n    return a / b\n")
    (tmp_path / "s.yaml").write_text(
        "assignment: x\ntitle: X\nkind: functions\nlanguage: python\nreference: ref.py\n"
        "functions:\n  - name: add\n    points: 1\n    cases: [{name: zero, args: [1, 0]}]\n"
    )
    # A reference that raises is a spec problem found before grading, at its line and column.
    proc = grader("grade", tmp_path / "s.yaml", klass, "--out", tmp_path / "o")
    assert proc.returncode == 3
    assert "s.yaml:9:32: the reference add() raises ZeroDivisionError on case 'zero'" in proc.stderr
    assert "Traceback" not in proc.stderr
    missing = grader("grade", MINI, tmp_path / "nowhere", "--out", tmp_path / "o")
    assert missing.returncode != 0 and "Traceback" not in missing.stderr and missing.stderr.count("\n") == 1
    debug = grader("--debug", "grade", MINI, tmp_path / "nowhere", "--out", tmp_path / "o")
    assert debug.returncode == missing.returncode and "Traceback" in debug.stderr


def test_without_a_sandbox_grading_is_refused_unless_unsafe(klass, tmp_path, monkeypatch, capsys):
    """Untrusted code never runs unisolated by accident; --unsafe is an explicit choice."""
    import grader.run.sandbox as sandbox_module
    from grader.cli import main
    from grader.run.sandbox import IsolationProfile

    weak = IsolationProfile("rlimits", ("rlimits",), False)
    monkeypatch.setattr(sandbox_module, "probe", lambda: weak)
    refused = main(["grade", str(MINI), str(klass / "alice.py"), "--out", str(tmp_path / "a")])
    err = capsys.readouterr().err
    assert refused == 4 and "no sandbox for untrusted code" in err and "--unsafe" in err
    assert not (tmp_path / "a" / "alice.json").exists()
    allowed = main(["grade", str(MINI), str(klass / "alice.py"), "--out", str(tmp_path / "b"), "--unsafe"])
    assert allowed == 0
    assert json.loads((tmp_path / "b" / "alice.json").read_text())["score"] == 25


def test_check_on_a_program_runs_its_public_cases_only():
    proc = grader("check", ROOT / "specs" / "blackjack.yaml", ROOT / "submissions" / "blackjack" / "py_correct.py", timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "handout_run_1" in proc.stdout
    assert "hidden" not in proc.stdout.lower()


def test_a_java_file_for_a_python_assignment_is_named_as_such(tmp_path):
    java = tmp_path / "Mini.java"
    java.write_text("public class Mini { }\n")
    out = tmp_path / "out"
    assert grader("grade", MINI, java, "--out", out).returncode == 0
    data = json.loads((out / "Mini.json").read_text())
    assert data["score"] == 0
    assert any(e["kind"] == "wrong-language" and "hand in a .py file, not Mini.java" in e["message"] for e in data["errors"])


# ------------------------------------------------------------------ what reaches the instructor's terminal
FORGE = "\x1b[2K\x1b[1A\x1b[2K\x1b[32mall good\x1b[0m"


def test_every_message_is_shown_with_its_control_characters_escaped(capsys):
    from grader.cli import err

    err(f"warning: ignored hw{FORGE}\nfake line.py", "  hint: its own line")
    shown = capsys.readouterr().err
    assert shown == ("warning: ignored hw\\x1b[2K\\x1b[1A\\x1b[2K\\x1b[32mall good\\x1b[0m\\x0afake line.py\n"
                     "  hint: its own line\n")


def test_a_roster_warning_and_a_duplicate_id_error_cannot_forge_lines(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "alice.py").write_text(GOOD)
    (klass / f"{FORGE}.py").write_text(GOOD)
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID\nAlice,alice\n")
    proc = grader("grade", MINI, klass, "--roster", roster, "--out", tmp_path / "out", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stderr and "match no roster row: \\x1b[2K\\x1b[1A" in proc.stderr
    (klass / FORGE).mkdir()
    (klass / FORGE / "mini.py").write_text(GOOD)
    proc = grader("grade", MINI, klass, "--out", tmp_path / "out2", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stderr + proc.stdout and "\\x1b[2K" in proc.stderr, proc.stderr
    refused = next((tmp_path / "out2").glob("*~*.json"))          # the id's report, its name cleaned
    assert json.loads(refused.read_text())["errors"][0]["kind"] == "duplicate-id"
    assert json.loads((tmp_path / "out2" / "alice.json").read_text())["score"] > 0


def test_the_live_progress_bar_shows_an_id_as_text_not_markup():
    import io

    from grader.judge.verdict import SubmissionResult
    from grader.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    with Progress(1, stream=screen) as progress:
        progress.advance(SubmissionResult(submission="[link=https://evil.example]top[/link]", assignment="mini", score=1.0,
                                          max_score=2.0, functions={}, tests=(), errors=(), spec_digest=""))
    assert "[link=https://evil.example]top[/link]: 1/2" in screen.getvalue() and "\x1b]8;" not in screen.getvalue()


def test_ids_that_differ_only_in_case_are_both_graded_and_the_instructor_is_warned(tmp_path):
    # Alice.json and alice.json are one file on macOS and Windows: results copied there lose one.
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "Alice.py").write_text(GOOD)
    (klass / "alice.py").write_text(GOOD.replace("return a + b", "return a - b"))
    proc = grader("grade", MINI, klass, "--out", tmp_path / "out", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "warning: the ids Alice and alice differ only in case" in " ".join(proc.stderr.split())
    scores = {name: json.loads((tmp_path / "out" / f"{name}.json").read_text())["score"] for name in ("Alice", "alice")}
    assert scores["Alice"] > scores["alice"]
