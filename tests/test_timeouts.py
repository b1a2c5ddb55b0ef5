"""The consecutive-timeout rule: a looping function's remaining cases are skipped, as timeouts, with a reason."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass

import pytest

from conftest import FIXTURES, ROOT
from grader.judge.timeouts import TimeoutStreak
from grader.run.sandbox import Limits, Sandbox, probe

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_timeouts import FUNCTIONS, looping_student  # noqa: E402


@dataclass
class R:
    status: str


def statuses(text: str) -> list[R]:
    return [R({"t": "timeout", "p": "ok", "e": "error"}[c]) for c in text]


@pytest.mark.parametrize("carried, seen, stop", [
    (0, "p", False), (0, "t", False), (0, "tt", True), (0, "ptt", True), (0, "tpt", False),
    (2, "t", True), (1, "t", True), (2, "pt", False), (0, "et", False),
])
def test_the_streak_counts_timeouts_in_a_row_across_functions(carried, seen, stop):
    streak = TimeoutStreak(2)
    streak.carried = carried
    assert streak.should_stop(statuses(seen)) is stop


def test_the_streak_is_carried_reset_and_switched_off():
    streak = TimeoutStreak(3)
    streak.finish(statuses("pt"), skipped=0)
    assert streak.carried == 1
    streak.finish(statuses("tt"), skipped=4)
    assert streak.carried == 7
    streak.finish(statuses("tp"), skipped=0)
    assert streak.carried == 0
    streak.carried = 5
    streak.reset()
    assert streak.carried == 0
    assert TimeoutStreak(0).should_stop(statuses("tttttt")) is False


def test_a_skipped_case_is_a_timeout_that_says_how_many_and_why():
    seen = TimeoutStreak(2).skipped("war", 5)
    assert seen.outcome == "timeout"
    assert "2 cases in a row timed out" in seen.message and "remaining 5 case(s) of war" in seen.message
    assert "stop_after_timeouts: 2" in seen.message


def test_call_many_stops_when_asked_and_the_session_goes_on():
    profile = probe()
    src = "def f(x):\n    while x == 'loop':\n        pass\n    return x\n"
    asked = []

    def stop(results):
        asked.append(len(results))
        return [r.status for r in results[-2:]] == ["timeout", "timeout"]

    with Sandbox(profile, Limits(), slot=11) as sb, sb.session({"f.py": src}, "f.py") as s:
        calls = [(["a"], 0.3), (["loop"], 0.3), (["loop"], 0.3), (["b"], 0.3), (["c"], 0.3)]
        results = s.call_many("f", calls, stop=stop)
        assert [r.status for r in results] == ["ok", "timeout", "timeout"]
        assert asked[-1] == 3
        assert s.call("f", ["after"], time_limit=1).value == "after"
        assert [r.value for r in s.call_many("f", [(["x"], 1), (["y"], 1)], stop=stop)] == ["x", "y"]


def test_a_class_with_a_student_looping_everywhere_runs_few_of_its_cases(tmp_path):
    """The issue's hw7 class: the looping student's cases are mostly skipped (counts, not time)."""
    klass = tmp_path / "class"
    klass.mkdir()
    shutil.copy(ROOT / "submissions" / "hw7_iteration" / "correct_tidy.py", klass / "correct.py")
    (klass / "loops_everywhere.py").write_text(looping_student())
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(ROOT / "specs" / "hw7_iteration.yaml"), str(klass),
                           "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    correct = json.loads((out / "correct.json").read_text())
    assert correct["score"] == 60
    looper = json.loads((out / "loops_everywhere.json").read_text())
    assert looper["score"] == 0 and {t["status"] for t in looper["tests"]} == {"timeout"}
    # hidden cases say only "timeout on a hidden case" to the student: count the public ones
    public = [t for t in looper["tests"] if t["visibility"] == "public"]
    ran = [t for t in public if not t["message"].startswith("not run:")]
    # two timeouts in a row stop the first function; the streak carries, so each later one stops after one
    assert [t["function"] for t in ran] == [FUNCTIONS[0], FUNCTIONS[0], *FUNCTIONS[1:]]
    skipped = [t for t in public if t["message"].startswith("not run:")]
    assert len(skipped) == len(public) - 8 > 20
    war = [t for t in skipped if t["function"] == "war"]
    assert all(f"remaining {len(war)} case(s) of war" in t["message"] for t in war)


def test_the_rule_is_configured_in_the_spec(tmp_path):
    text = (FIXTURES / "specs" / "mini.yaml").read_text()
    spec = tmp_path / "mini.yaml"
    for name in ("mini_ref.py", "mini_cases.py"):
        shutil.copy(FIXTURES / "specs" / name, tmp_path / name)
    spec.write_text(text.replace("defaults:\n", "defaults:\n  stop_after_timeouts: 5\n")
                    .replace("  - name: divmod2\n", "  - name: divmod2\n    stop_after_timeouts: 0\n"))
    from grader.spec.loader import load_spec
    loaded = {fn.name: fn.stop_after_timeouts for fn in load_spec(spec).functions}
    assert loaded == {"add": 5, "divmod2": 0, "shout": 5}
    spec.write_text(text.replace("defaults:\n", "defaults:\n  stop_after_timeouts: -1\n"))
    proc = subprocess.run([sys.executable, "-m", "grader", "validate", str(spec)], capture_output=True, text=True)
    assert proc.returncode == 3 and "stop_after_timeouts" in proc.stdout + proc.stderr
