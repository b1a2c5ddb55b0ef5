"""The consecutive-timeout rule: a looping function's remaining cases are skipped, as timeouts, with a reason."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass

import pytest

from conftest import FIXTURES, ROOT
from grader.judge.timeouts import TimeoutRule
from grader.run.sandbox import Limits, Sandbox, probe

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_timeouts import FUNCTIONS, looping_student  # noqa: E402


@dataclass
class R:
    status: str


@dataclass(frozen=True)
class F:
    name: str
    stop_after_timeouts: int = 2


def statuses(text: str) -> list[R]:
    return [R({"t": "timeout", "p": "ok", "e": "error"}[c]) for c in text]


def rule_after(runs: list[tuple[str, str]], functions=("a", "b", "c"), limit: int = 2) -> TimeoutRule:
    """A rule that has seen ``runs``: (function, statuses) in the order they ran, none stopped early."""
    rule = TimeoutRule([F(name, limit) for name in functions])
    for name, seen in runs:
        rule.begin(name)
        rule.finish(name, statuses(seen), skipped=0)
    return rule


@pytest.mark.parametrize("before, seen, stop", [
    ([], "p", False), ([], "t", False), ([], "tt", True), ([], "ptt", True), ([], "tpt", False),
    ([("a", "tt")], "t", True), ([("a", "pt")], "t", True), ([("a", "tp")], "t", False),
    ([("a", "tt")], "pt", False), ([], "et", False),
])
def test_the_count_runs_on_across_functions_in_spec_order(before, seen, stop):
    rule = rule_after(before)
    rule.begin("b")
    assert rule.should_stop("b", statuses(seen)) is stop


def test_a_function_goes_on_from_its_own_count_in_its_next_session():
    """The hidden session learns what the public one saw of the same function, not of another."""
    rule = rule_after([("a", "pt"), ("b", "p")])   # public session: a ended on one timeout, b passed
    rule.begin("a")                                  # hidden session
    assert rule.should_stop("a", statuses("t")) is True
    rule = rule_after([("a", "pp"), ("b", "tt")])   # b looped last in the public session ...
    rule.begin("a")
    assert rule.should_stop("a", statuses("t")) is False   # ... which says nothing of a's hidden cases


def test_a_stopped_function_stays_stopped_and_its_skips_carry():
    rule = TimeoutRule([F("a", 3), F("b", 3), F("c", 3)])
    rule.begin("a")
    rule.finish("a", statuses("ttt"), skipped=4)
    assert rule.stopped("a") and rule.should_stop("a", [])
    rule.begin("b")
    assert rule.should_stop("b", statuses("t")) is True   # 7 in a row carried
    rule.finish("b", statuses("tp"), skipped=0)
    assert not rule.stopped("b")
    rule.begin("c")
    assert rule.should_stop("c", statuses("tt")) is False


def test_a_missing_function_restarts_the_count_and_zero_never_stops():
    rule = rule_after([("a", "tt")])
    rule.missing("b")
    rule.begin("c")
    assert rule.should_stop("c", statuses("t")) is False
    off = TimeoutRule([F("a", 0), F("b", 2)])
    off.begin("a")
    assert off.should_stop("a", statuses("tttttt")) is False
    off.finish("a", statuses("tttttt"), skipped=0)
    off.begin("b")
    assert off.should_stop("b", statuses("t")) is True     # an opted-out function's timeouts still carry


def test_a_skipped_case_is_a_timeout_that_says_how_many_and_why():
    seen = TimeoutRule([F("war", 2)]).skipped("war", 5)
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
    # the student's JSON shows a hidden case's status only: what ran is in the staff copy
    looper = json.loads((out / "staff" / "loops_everywhere.json").read_text())
    assert looper["score"] == 0 and {t["status"] for t in looper["tests"]} == {"timeout"}
    ran = [t for t in looper["tests"] if not t["message"].startswith("not run:")]
    # two timeouts in a row stop the first function; the count carries, so each later one stops after one,
    # and no hidden case runs
    assert [(t["function"], t["visibility"]) for t in ran] == \
        [(FUNCTIONS[0], "public"), (FUNCTIONS[0], "public"), *((f, "public") for f in FUNCTIONS[1:])]
    war = [t for t in looper["tests"] if t["function"] == "war" and t["message"].startswith("not run:")]
    assert len(war) > 20 and all(f"remaining {len(war)} case(s) of war" in t["message"] for t in war)


STREAK = FIXTURES / "streak" / "streak.yaml"


def grade_streak(tmp_path, source: str, sessions: list | None = None):
    """Grade one submission against the fixture spec; ``sessions`` collects each session opened."""
    from grader.pipeline import FunctionGrader
    from grader.plan import make_plan
    from grader.spec.loader import load_spec
    from grader.submissions import from_file

    spec = load_spec(STREAK)
    (tmp_path / "streak.py").write_text(source)
    submission = from_file(tmp_path / "streak.py", spec.submission_files)
    with Sandbox(probe(), Limits()) as sandbox:
        if sessions is not None:
            opened = sandbox.session
            sandbox.session = lambda *a, **k: sessions.append(a) or opened(*a, **k)  # type: ignore[method-assign]
        result = FunctionGrader(make_plan(spec), sandbox).grade(submission)
    return {fn: [("skipped" if t.message.startswith("not run:") else t.status, t.visibility)
                 for t in result.tests if t.function == fn] for fn in ("first", "last", "lone")}


IDENTITY = "def {}(x):\n    return x\n\n"
LOOPS = "def {}(x):\n    while True:\n        pass\n\n"


def test_the_hidden_session_goes_on_from_what_the_public_one_saw_of_the_function(tmp_path):
    """lone has one public case; it timed out there, so its first hidden timeout is the second in a row."""
    seen = grade_streak(tmp_path, IDENTITY.format("first") + IDENTITY.format("last") + LOOPS.format("lone"))
    assert seen["lone"] == [("timeout", "public"), ("timeout", "hidden"), ("skipped", "hidden"), ("skipped", "hidden")]
    assert {s for s, _ in seen["first"] + seen["last"]} == {"passed"}


def test_a_loop_at_the_end_of_the_public_session_stops_no_other_function_in_the_hidden_one(tmp_path):
    """last and lone loop; first is slow on one hidden case only: its other hidden cases still run and pass."""
    source = "def first(x):\n    while x == 99:\n        pass\n    return x\n\n" + LOOPS.format("last") + LOOPS.format("lone")
    seen = grade_streak(tmp_path, source)
    assert seen["first"] == [("passed", "public")] * 2 + [("timeout", "hidden")] + [("passed", "hidden")] * 3
    assert seen["last"] == [("timeout", "public")] * 2 + [("skipped", "hidden")] * 2
    assert seen["lone"] == [("timeout", "public")] + [("skipped", "hidden")] * 3


def test_a_submission_stopped_everywhere_opens_no_hidden_session(tmp_path):
    sessions: list = []
    seen = grade_streak(tmp_path, LOOPS.format("first") + LOOPS.format("last") + LOOPS.format("lone"), sessions)
    assert [s for s, _ in seen["first"]] == ["timeout", "timeout"] + ["skipped"] * 4
    assert [s for s, _ in seen["last"] + seen["lone"]] == ["timeout"] + ["skipped"] * 3 + ["timeout"] + ["skipped"] * 3
    assert len(sessions) == 1


def test_a_loop_that_swallows_the_timer_is_stopped_by_its_measured_cpu_time():
    """`except BaseException: pass` in a loop catches the child's alarm: the parent stops the call
    once the slot's CPU time is past the limit, not at the wall-clock backstop."""
    profile = probe()
    if profile.name == "portable":
        pytest.skip("the portable profile measures no CPU time from outside")
    src = "def f():\n    while True:\n        try:\n            while True:\n                pass\n        except BaseException:\n            pass\n"
    with Sandbox(profile, Limits(), slot=11) as sb, sb.session({"f.py": src}, "f.py") as s:
        result = s.call("f", [], time_limit=0.3)
        assert result.status == "timeout"
        assert "went on past the 0.3 s limit" in result.detail, result.detail
        assert s.call("f", [], time_limit=0.3).status == "timeout"   # the session restarts the child


def test_a_plain_loop_is_stopped_by_its_own_alarm_at_its_limit():
    with Sandbox(probe(), Limits(), slot=11) as sb, sb.session({"f.py": LOOPS.format("f")}, "f.py") as s:
        result = s.call("f", [1], time_limit=0.3)
    # the kernel's itimer fires a tick early: re-armed, the alarm says truly why the call stopped
    assert result.status == "timeout" and result.time_s >= 0.3
    assert result.detail == "used more than 0.3 s of CPU time", result.detail


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
