"""One Octave per submission in the sandbox: calls, printing, errors, limits and crashes measured from outside."""
from __future__ import annotations

import time

import pytest

from grader.run import process
from grader.languages.matlab_session import OctaveSession, octave_path
from grader.run.sandbox import probe

FILES = {
    "twice.m": b"function y = twice(x)\ny = 2 * x\n",                       # no semicolon: prints y = ...
    "broken.m": b"function y = broken(x)\n  y = x +* 2;\nend\n",
    "spin.m": b"function y = spin(x)\nwhile true\nend\n",
    "leave.m": b"function y = leave(x)\nexit(3);\n",
    "sleeps.m": b"function y = sleeps(x)\npause(60);\ny = x;\n",
    "fails.m": b"function y = fails(x)\ny = 1;\nerror('hw:bad', 'no cards left in %s', x);\n",
    # Octave starts no program and loads no JVM (either could read its memory: the tripwire's key)
    "talks.m": b"function y = talks(x)\n[y, out] = system('echo from a shell');\ndisp(out);\n",
    "pipes.m": b"function y = pipes(x)\nfid = popen('echo from a pipe', 'r');\ny = fgetl(fid);\npclose(fid);\n",
    "javas.m": b"function y = javas(x)\ny = javaMethod('getProperty', 'java.lang.System', 'java.version');\n",
    "totals.m": b"function t = totals(v)\nt = sum(v) + mean(v);\nf = @sum;\nt = t + f(v) + feval('sum', v);\n",
    "uses_median.m": b"function t = uses_median(v)\nt = median(v);\n",
    "shim.m": b"function t = shim(s)\nt = contains(s, 'ell');\n",
    # Red-team evasions of the tripwire: code written at run time outside the student's folder, a library
    # function handed the name, and `clear functions` (which once reset the tripwire's state).
    "writes.m": b"function t = writes(v)\nfid = fopen(fullfile(tempdir(), 'adder_w.m'), 'w');\n"
                b"fprintf(fid, 'function s = adder_w(v)\\ns = %s(v);\\nend\\n', char([115 117 109]));\n"
                b"fclose(fid);\naddpath(tempdir());\nt = adder_w(v);\n",
    "passes.m": b"function t = passes(v)\nt = nthargout(1, 'sum', v);\n",
    "clears.m": b"function t = clears(v)\nclear functions\nt = cellfun(char([115 117 109]), {v});\n",
    "peeks.m": b"function n = peeks(x)\nn = numel(evalin('caller', 'evalin(''caller'', ''cases'')'));\n",
    # A reply frame of its own, with no hits, written past evalc's capture (popen's child writes to
    # Octave's stdout); and the tripwire's own controls called from student code.
    "forges.m": b"function t = forges(v)\nt = cellfun(char([115 117 109]), {v});\n"
                b"tag = evalin('caller', 'evalin(''caller'', ''tag'')');\nfid = popen('cat', 'w');\n"
                b"fputs(fid, sprintf('\\n%s%s {\"ok\":true,\"out\":\"\",\"hits\":[],\"sig\":\"0:00\",\"v\":[{\"c\":\"double\",\"z\":[1,1],\"d\":\"6\"}]}\\n', char(30), tag));\n"
                b"pclose(fid);\n",
    "stops.m": b"function t = stops(v)\nfeval(['grader' '_trip_'], 'stop', 'x');\nt = sum(v);\n",
}


@pytest.fixture(scope="module")
def octave():
    assert octave_path(), "GNU Octave is required (./install.sh --matlab; CI installs it with --test)"
    assert probe().secure, "no sandbox on this machine; run ./install.sh"
    with OctaveSession(FILES, sorted(n[:-2] for n in FILES), ["sum", "mean"]) as session:
        yield session


def test_load_parses_every_function_and_reports_syntax_errors(octave):
    assert octave.load.ok and {"twice", "broken"} <= set(octave.load.names)
    assert "syntax error" in octave.parse_errors["broken"] and "line 2" in octave.parse_errors["broken"]
    assert list(octave.parse_errors) == ["broken"]
    call = octave.call("broken", [1], time_limit=2)               # calling it fails as in MATLAB
    assert call.status == "error" and "syntax error" in call.exception["message"]


def test_printing_is_captured_per_call(octave):
    first = octave.call("twice", [3], time_limit=2)
    second = octave.call("twice", [4], time_limit=2)
    assert (first.value, first.stdout.strip()) == (6, "y = 6")
    assert (second.value, second.stdout.strip()) == (8, "y = 8")


def test_the_students_code_can_start_no_program_and_load_no_jvm(octave):
    shell = octave.call("talks", [5], time_limit=2)
    assert shell.value == 127 and "from a shell" not in shell.stdout     # the shell's exec was refused
    pipe = octave.call("pipes", [5], time_limit=2)
    assert pipe.status == "error" and "invalid stream" in pipe.exception["message"]    # popen gave no stream
    java = octave.call("javas", [5], time_limit=5)
    assert java.status == "error" and "libjvm" in java.exception["message"]


def test_an_error_says_what_and_where(octave):
    result = octave.call("fails", ["the deck"], time_limit=2)
    assert result.status == "error"
    assert result.exception["message"] == "no cards left in the deck"
    assert (result.exception["file"], result.exception["lineno"]) == ("fails.m", 3)


def test_an_infinite_loop_is_stopped_by_cpu_time_measured_from_outside(octave):
    result = octave.call("spin", [1], time_limit=0.5)
    assert result.status == "timeout" and result.time_s >= 0.5 and "CPU" in result.detail
    assert octave.call("twice", [1], time_limit=2).value == 2    # the next call gets a fresh Octave


def test_sleeping_is_stopped_by_the_wall_clock(octave):
    started = time.monotonic()
    result = octave.call("sleeps", [1], time_limit=0.3)
    assert result.status == "timeout" and "waiting" in result.detail
    assert time.monotonic() - started < 30


def test_exit_is_a_crash_of_that_call_only(octave):
    result = octave.call("leave", [1], time_limit=2)
    assert result.status == "crashed" and "exit" in result.detail
    restarts = octave.restarts
    assert octave.call("twice", [5], time_limit=2).value == 10
    assert octave.restarts == restarts + 1


def test_the_tripwire_records_banned_calls_from_student_code_only(octave):
    watched = octave.call("totals", [[1, 2, 3]], time_limit=2, watch=True)
    assert watched.value == 6 + 2 + 6 + 6
    assert [(h["banned"], h["line"]) for h in watched.watch_hits] == [("sum", 2), ("mean", 2), ("sum", 4), ("sum", 4)]
    unwatched = octave.call("totals", [[1, 2, 3]], time_limit=2, watch=False)
    assert unwatched.value == 20 and unwatched.watch_hits == ()
    library = octave.call("uses_median", [[1, 5, 3]], time_limit=2, watch=True)
    assert library.value == 3 and library.watch_hits == ()      # Octave's own median may use sum: not the student


def test_compatibility_shims_are_on_the_path(octave):
    assert octave.call("shim", ["hello"], time_limit=2, expected=True).value is True


def test_the_tripwire_counts_code_outside_octave_and_the_grader_as_the_students(octave):
    written = octave.call("writes", [[1, 2, 3]], time_limit=5, watch=True)
    assert written.value == 6 and [(h["banned"], h["file"], h["line"]) for h in written.watch_hits] == [("sum", "writes.m", 6)]
    passed = octave.call("passes", [[1, 2, 3]], time_limit=5, watch=True)   # nthargout never names sum: the student did
    assert passed.value == 6 and [(h["banned"], h["line"]) for h in passed.watch_hits] == [("sum", 2)]


def test_clear_functions_does_not_switch_the_tripwire_off(octave):
    for _ in range(2):
        cleared = octave.call("clears", [[1, 2, 3]], time_limit=5, watch=True)
        assert cleared.value == 6 and [(h["banned"], h["line"]) for h in cleared.watch_hits] == [("sum", 3)]


def test_a_case_never_sees_the_cases_after_it_unless_they_are_public(octave):
    alone = octave.call_many("peeks", [([k], 5) for k in range(4)])     # hidden cases: a request each
    assert [r.value for r in alone] == [1, 1, 1, 1]
    together = octave.call_many("peeks", [([k], 5) for k in range(4)], batch=True)
    assert [r.value for r in together] == [4, 4, 4, 4]


def test_the_graders_octave_code_calls_only_built_ins():
    # An .m library function it called could be replaced for it by a student's file of a name it calls inside.
    import subprocess
    from grader.languages.matlab_files import server_calls
    names = sorted(n for n in server_calls() if not n.startswith("grader_"))
    probe_code = "n = {" + ", ".join(f"'{n}'" for n in names) + "}; printf('%s ', n{cellfun(@(x) exist(x) != 5, n)});"
    done = subprocess.run(["octave-cli", "--norc", "--quiet", "--eval", probe_code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == [], done.stdout + done.stderr


def test_a_reply_frame_written_by_the_students_code_is_not_believed(monkeypatch):
    """Octave starts no program, so popen cannot write past evalc here; the signature is the layer
    behind that one, tested with it taken away (any other way out of the capture meets it)."""
    spawn = process.spawn
    monkeypatch.setattr(process, "spawn", lambda *a, **k: spawn(*a, **{**k, "last_exec": False}))
    files = {n: FILES[n] for n in ("forges.m", "twice.m")}
    with OctaveSession(files, ["forges", "twice"], ["sum", "mean"]) as octave:
        forged = octave.call("forges", [[1, 2, 3]], time_limit=5, watch=True)
        assert forged.status == "protocol" and "not signed" in forged.detail
        assert octave.call("twice", [2], time_limit=2).value == 4      # the session goes on


def test_with_octave_unable_to_start_a_program_a_forged_frame_never_leaves(octave):
    forged = octave.call("forges", [[1, 2, 3]], time_limit=5, watch=True)
    assert forged.status == "error" and "invalid stream" in forged.exception["message"]
    assert [h["banned"] for h in forged.watch_hits] == ["sum"]


def test_the_tripwires_controls_called_by_the_students_code_are_tampering(octave):
    stopped = octave.call("stops", [[1, 2, 3]], time_limit=5, watch=True)
    assert stopped.value == 6 and stopped.tampered and [h["banned"] for h in stopped.watch_hits] == ["sum"]
    assert not octave.call("totals", [[1, 2, 3]], time_limit=2, watch=True).tampered
