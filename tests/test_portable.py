"""The portable runner (no fork, no timer signals: Windows), forced here on Linux.

One plain subprocess per session speaking the harness's protocol over its pipes; the
parent's kill is the wall-clock limit.  ``grader check`` uses it where ``os.fork`` is missing.
"""
import time
from pathlib import Path

import pytest

from conftest import FIXTURES
from grader.run.sandbox import IsolationProfile, Limits, Sandbox

ATTACKS = Path(__file__).parent / "sandbox_attacks"
MINI = FIXTURES / "specs" / "mini.yaml"
PORTABLE = IsolationProfile("portable", ("subprocess", "parent-kill"), False)
GOOD = "def add(a, b):\n    return a + b\n\ndef divmod2(a, b):\n    return a // b, a % b\n\ndef shout(text):\n    return text.upper() + '!'\n"


@pytest.fixture(scope="module")
def sb():
    with Sandbox(PORTABLE, Limits()) as s:
        yield s


def test_the_profile_is_honest():
    assert not PORTABLE.secure and "NOT fit for untrusted code" in PORTABLE.describe()


def test_a_normal_call_returns_its_value_and_output(sb):
    src = "print('loading')\ndef f(x, y):\n    print('adding', x, y)\n    return (x + y, {x: [y]}, {'k': {1.5}})\n"
    with sb.session({"hw.py": src}, "hw.py") as s:
        assert s.load.ok and "f" in s.load.names and s.load.stdout == "loading\n"
        r = s.call("f", [2, 3], time_limit=1)
        assert r.status == "ok", r
        assert r.value == (5, {2: [3]}, {"k": {1.5}}) and type(r.value) is tuple
        assert r.stdout == "adding 2 3\n"


def test_the_students_stdin_and_stdout_are_not_the_protocol(sb):
    src = ("import os, sys\ndef f():\n    os.write(1, b'{\"n\": \"x\"}\\n')\n    sys.__stdout__.write('mine\\n')\n"
           "    return sys.stdin.read()\n")
    with sb.session({"io_mod.py": src}, "io_mod.py") as s:
        r = s.call("f", [], time_limit=1)
        assert (r.status, r.value, r.stdout) == ("ok", "", "mine\n")
        assert s.call("f", [], time_limit=1).status == "ok"


def test_files_are_in_the_working_folder_and_importable(sb):
    files = {"main_mod.py": "import helper\ndef f():\n    return helper.X, open('data.txt').read()\n",
             "helper.py": "X = 7\n", "data.txt": "hi"}
    with sb.session(files, "main_mod.py") as s:
        assert s.call("f", [], time_limit=1).value == (7, "hi")


def test_a_syntax_error_names_its_line(sb):
    with sb.session({"bad.py": "x = 1\ndef f(:\n    pass\n"}, "bad.py") as s:
        assert not s.load.ok and s.load.kind == "syntax" and s.load.lineno == 2
        assert s.call("f", [], time_limit=1).status == "error"


def test_a_crash_on_import_names_its_line(sb):
    with sb.session({"bad.py": "x = 1\nimport no_such_module_here\n"}, "bad.py") as s:
        assert not s.load.ok and s.load.kind == "import-error" and s.load.lineno == 2
        assert "ModuleNotFoundError" in s.load.message


def test_an_exception_gives_the_students_line(sb):
    with sb.session({"e.py": "def f(x):\n    y = 1\n    return x / 0\n"}, "e.py") as s:
        r = s.call("f", [1], time_limit=1)
        assert r.status == "error" and r.exception["type"] == "ZeroDivisionError"
        assert r.exception["lineno"] == 3 and r.exception["line"] == "return x / 0"


def test_an_infinite_loop_times_out_and_the_next_call_works(sb):
    with sb.session({"loop.py": "def f():\n    while True:\n        pass\n\ndef g():\n    return 5\n"}, "loop.py") as s:
        t0 = time.monotonic()
        r = s.call("f", [], time_limit=0.3)
        assert r.status == "timeout" and time.monotonic() - t0 < 6
        assert s.call("g", [], time_limit=1).value == 5
        assert s.restarts == 1


def test_cpu_over_the_limit_is_a_timeout_even_when_it_returns(sb):
    src = "import time\ndef f(s):\n    t = time.process_time()\n    while time.process_time() - t < s:\n        pass\n    return 1\n"
    with sb.session({"burn_mod.py": src}, "burn_mod.py") as s:
        assert s.call("f", [0.4], time_limit=0.2).status == "timeout"
        assert s.call("f", [0.01], time_limit=1).status == "ok"


@pytest.mark.parametrize("kind", ["sysexit", "exit"])
def test_exiting_mid_call_is_a_crash_and_the_session_goes_on(sb, kind):
    with sb.session({"mixed.py": (ATTACKS / "mixed.py").read_text()}, "mixed.py") as s:
        r = s.call("f", [kind], time_limit=1)
        assert r.status == "crashed", r
        assert ("sys.exit(2)" if kind == "sysexit" else "status 3") in r.detail
        assert s.call("f", ["ok"], time_limit=1).value == 1


# "deaf" ignores SIGALRM/SIGPROF, which Windows lacks: left out.
BATCH = ["ok", "raise", "print", "spin", "ok", "thread", "ok", "sysexit", "ok", "exit", "ok", "forge", "ok"]


def _summary(r):
    return (r.status, r.value, r.stdout.strip(), (r.exception or {}).get("type"))


def test_batched_calls_give_the_same_verdicts_as_single_calls(sb):
    src = {"mixed.py": (ATTACKS / "mixed.py").read_text()}
    with sb.session(src, "mixed.py") as s:
        single = [_summary(s.call("f", [k], time_limit=0.3)) for k in BATCH]
    with sb.session(src, "mixed.py") as s:
        batched = [_summary(r) for r in s.call_many("f", [([k], 0.3) for k in BATCH])]
    assert batched == single
    statuses = [b[0] for b in batched]
    assert statuses[:5] == ["ok", "error", "ok", "timeout", "ok"]
    assert statuses[7] == "crashed" and statuses[9] == "crashed"
    assert batched[2][2] == "hello from print"
    assert batched[-1] == ("ok", 1, "", None)


def test_the_runtime_monitor_works(sb):
    with sb.session({"w.py": "def f(xs):\n    return sum(xs)\n"}, "w.py", watch=["builtins.sum"]) as s:
        watched = s.call("f", [[1, 2]], time_limit=1, watch=True)
        results = s.call_many("f", [([[1, 2]], 1), ([[3]], 1)], watch=[True, False])
    assert watched.value == 3 and [h["banned"] for h in watched.watch_hits] == ["builtins.sum"]
    assert [r.value for r in results] == [3, 3]
    assert [h["banned"] for h in results[0].watch_hits] == ["builtins.sum"] and results[1].watch_hits == ()


def test_grader_check_end_to_end_with_the_portable_profile(tmp_path, monkeypatch, capsys):
    import grader.check
    from grader.cli import main

    monkeypatch.setattr(grader.check, "probe", lambda: PORTABLE)
    good, wrong = tmp_path / "mini.py", tmp_path / "wrong.py"
    good.write_text(GOOD)
    wrong.write_text(GOOD.replace("return a + b", "return a - b"))
    assert main(["check", str(MINI), str(good)]) == 0
    out = capsys.readouterr()
    assert out.err.count("isolation portable") == 1
    assert main(["check", str(MINI), str(wrong)]) == 1
    assert "1000000" not in capsys.readouterr().out  # hidden cases stay hidden
