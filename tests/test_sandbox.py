"""The sandboxed runner against hostile student code.

Each attack is a small student module under tests/sandbox_attacks/.  These
tests need the secure (bubblewrap) profile; on a machine without it they fail
rather than skip, so missing isolation cannot hide.  The fallback profile has
its own tests at the end.
"""
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.run import process
from grader.run.sandbox import IsolationProfile, Limits, Sandbox, probe

ATTACKS = Path(__file__).parent / "sandbox_attacks"
ROOT = Path(__file__).resolve().parent.parent
SLOT = 7


def files(name, extra=None):
    d = {name: (ATTACKS / name).read_text()}
    d.update(extra or {})
    return d


@pytest.fixture(scope="module")
def profile():
    p = probe()
    assert p.secure and p.name.startswith("bwrap"), f"secure isolation unavailable: {p.describe()}"
    return p


@pytest.fixture(scope="module")
def sb(profile):
    with Sandbox(profile, Limits(), slot=SLOT) as s:
        yield s


def session(sb, name, extra=None):
    s = sb.session(files(name, extra), name)
    assert s.load.ok, s.load
    return s


def slot_processes():
    uid = 61000 + SLOT if os.geteuid() == 0 else os.getuid()
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if os.stat(f"/proc/{p}").st_uid == uid:
                    out.append(Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:80])
            except OSError:
                pass
    return sorted(out)


# ------------------------------------------------------------------ basics
def test_profile_layers(profile):
    for layer in ("user-ns", "pid-ns", "net-ns", "mount-ns", "cap-drop", "no-new-privs", "rlimits"):
        assert layer in profile.layers
    assert "fit for untrusted code" in profile.describe()


def test_normal_call_value_and_output(sb):
    src = "print('loading')\ndef f(x, y):\n    print('adding', x, y)\n    return (x + y, {x: [y]}, {'k': {1.5}})\n"
    with sb.session({"hw.py": src}, "hw.py") as s:
        assert s.load.ok and s.load.kind == "ok" and "f" in s.load.names
        assert s.load.stdout == "loading\n"
        r = s.call("f", [2, 3], time_limit=1)
        assert r.status == "ok", r
        assert r.value == (5, {2: [3]}, {"k": {1.5}}) and type(r.value) is tuple
        assert r.stdout == "adding 2 3\n"
        assert r.time_s < 1 and r.wall_s < 1


def test_syntax_error_has_line(sb):
    src = "def f():\n    return 1\n\ndef g(:\n    pass\n"
    with sb.session({"hw.py": src}, "hw.py") as s:
        assert not s.load.ok and s.load.kind == "syntax"
        assert s.load.lineno == 4 and "def g(" in s.load.line
        r = s.call("f", [], time_limit=1)
        assert r.status == "error" and "did not load" in r.detail


def test_import_time_crash_has_line(sb):
    src = "import os\nX = 1\nY = [][3]\n"
    with sb.session({"hw.py": src}, "hw.py") as s:
        assert not s.load.ok and s.load.kind == "import-error"
        assert s.load.lineno == 3 and s.load.line == "Y = [][3]"
        assert "IndexError" in s.load.message


def test_import_time_exit_and_loop(sb):
    with sb.session({"hw.py": "import sys\nsys.exit(2)\n"}, "hw.py") as s:
        assert s.load.kind == "import-error" and "sys.exit(2)" in s.load.message
    with sb.session({"hw.py": "while True:\n    pass\n"}, "hw.py", load_time_limit=0.5) as s:
        assert s.load.kind == "timeout"
    with sb.session({"hw.py": "import os\nos._exit(5)\n"}, "hw.py") as s:
        assert s.load.kind == "crashed" and "status 5" in s.load.message


def test_an_import_is_limited_by_its_cpu_time_not_the_wall_clock(sb):
    # rt-go: the import limit was 10 s of wall-clock time, so a busy machine (load 8 on 2 cores)
    # turned a 4 s import into "took too long" and the whole submission into 0.
    with sb.session({"hw.py": "import time\ntime.sleep(0.8)\nX = 1\n"}, "hw.py", load_time_limit=0.5) as s:
        assert s.load.ok, s.load                      # blocked 0.8 s, used no CPU: within 3 x 0.5 + 0.5 s
    with sb.session({"hw.py": "import time\ntime.sleep(5)\n"}, "hw.py", load_time_limit=0.5) as s:
        assert s.load.kind == "timeout" and "wall-clock" in s.load.message, s.load
    spin = "import time\nt = time.process_time()\nwhile time.process_time() - t < 3:\n    pass\n"
    with sb.session({"hw.py": spin}, "hw.py", load_time_limit=0.5) as s:
        assert s.load.kind == "timeout" and "0.5 s of CPU time" in s.load.message, s.load


def test_an_import_that_swallows_its_alarm_is_stopped_by_the_slots_cpu_time(sb):
    source = ("import signal\nfor n in (signal.SIGALRM, signal.SIGPROF):\n    signal.signal(n, signal.SIG_IGN)\n"
              "signal.setitimer(signal.ITIMER_REAL, 0)\nsignal.setitimer(signal.ITIMER_PROF, 0)\nwhile True:\n    pass\n")
    with sb.session({"hw.py": source}, "hw.py", load_time_limit=0.5) as s:   # the parent's CPU count, not its backstop
        assert s.load.kind == "timeout" and "used more than 0.5 s of CPU time" in s.load.message, s.load


def test_restarts_reload_the_file_within_one_more_loads_worth_of_cpu_time(sb):
    # rt-go: a 0.5 s import and os._exit in every function held a slot for four minutes: each
    # of 190 cases restarted the child, and each restart imported the file again.
    source = ("import os, time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n    pass\n"
              "def die():\n    os._exit(1)\n")
    with sb.session({"hw.py": source}, "hw.py", load_time_limit=1.0) as s:
        details = [s.call("die", [], time_limit=1).detail for _ in range(8)]
        assert 3 <= s.restarts <= 4, (s.restarts, details)
        assert "not run" in details[-1] and "loaded again" in details[-1], details
        s.renew_reloads()                     # what a tournament does before each game
        assert "status 1" in s.call("die", [], time_limit=1).detail
    sleeps = "import os, time\ntime.sleep(0.6)\ndef die():\n    os._exit(1)\n"   # no CPU time: a third of the wall
    with sb.session({"hw.py": sleeps}, "hw.py", load_time_limit=0.5) as s:
        details = [s.call("die", [], time_limit=1).detail for _ in range(6)]
        assert s.restarts <= 3 and "not run" in details[-1], (s.restarts, details)


def test_missing_name_is_error(sb):
    with session(sb, "exits.py") as s:
        r = s.call("no_such_function", [], time_limit=1)
        assert r.status == "error" and r.exception["type"] == "NameError"
        assert "no_such_function" in r.exception["message"]


def test_exception_points_at_student_line(sb):
    with session(sb, "exits.py") as s:
        r = s.call("do_raise", [], time_limit=1)
        assert r.status == "error" and r.exception["type"] == "ZeroDivisionError"
        assert r.exception["lineno"] == 19 and r.exception["line"] == "return 1 / 0"
        assert "exits.py" in r.exception["traceback"] and "harness" not in r.exception["traceback"]


def test_unprivileged_no_caps_own_pid_namespace(sb):
    with session(sb, "read_secrets.py") as s:
        r = s.call("who", [], time_limit=2)
        assert r.status == "ok", r
        assert r.value["caps"] == ["0000000000000000"] * 5
        assert r.value["nnp"] == "1"
        assert r.value["procs"] == ["1"]           # sees nothing but itself


NAMESPACES = ("pid", "mnt", "net", "ipc", "uts", "cgroup")


def test_every_session_has_namespaces_of_every_kind_no_other_process_shares(sb):
    """Seen from the host: no process but the session's own (not the zygote, nor the
    processes above it, a spare) is in any of its namespaces.  (Only processes alive at once
    can be compared: a freed namespace's number is given to the next one.)"""
    src = f"import os\ndef f():\n    return [os.readlink('/proc/self/ns/' + k) for k in {list(NAMESPACES)!r}]\n"
    sb.prepare(2)                        # a spare waits while the first session runs
    for _ in range(2):
        with sb.session({"ns.py": src}, "ns.py") as s:
            mine = s.call("f", [], time_limit=2).value
            sharing: dict[str, list[str]] = {k: [] for k in NAMESPACES}
            for p in os.listdir("/proc"):
                for k, link in zip(NAMESPACES, mine):
                    try:
                        if p.isdigit() and os.readlink(f"/proc/{p}/ns/{k}") == link:
                            sharing[k].append(Path(f"/proc/{p}/cmdline").read_bytes()[:60].decode(errors="replace"))
                    except OSError:
                        pass
            assert all(len(v) == 1 for v in sharing.values()), (mine, sharing)


def test_student_code_holds_no_descriptor_of_the_zygote(sb):
    """Only stdin, the captured output, the session's own channel and the harness's look at
    /proc/self/task are open when student code runs; a spare's channel is not among them."""
    src = ("import os\ndef f():\n    out = {}\n    for fd in os.listdir('/proc/self/fd'):\n"
           "        try:\n            out[int(fd)] = os.readlink('/proc/self/fd/' + fd)\n"
           "        except OSError:\n            pass\n    return out\n")
    sb.prepare(2)
    with sb.session({"fds.py": src}, "fds.py") as s:
        fds = s.call("f", [], time_limit=2).value
    rest = sorted("socket" if v.startswith("socket:") else v for fd, v in fds.items() if fd > 2)
    assert rest == ["/memfd:output (deleted)", "/proc/1/task", "socket"], fds
    assert fds[0] == "/dev/null" and fds[1] == fds[2] and fds[1].startswith("/memfd:output"), fds


# ------------------------------------------------------------------ files
def test_cannot_read_grader_specs_reference_or_planted_files(sb, tmp_path):
    secret = tmp_path / "answer_key.txt"
    secret.write_text("TOP SECRET")
    (ROOT / "specs").mkdir(exist_ok=True)
    (ROOT / "reference").mkdir(exist_ok=True)
    paths = [str(secret), str(tmp_path), str(ROOT / "specs"), str(ROOT / "reference"), str(ROOT),
             str(ROOT / "grader" / "run" / "sandbox.py"), "/work", "/home", "/root", "/etc/shadow",
             "/proc/1/environ", "/tmp"]
    with session(sb, "read_secrets.py") as s:
        r = s.call("attack", [paths], time_limit=2)
        assert r.status == "ok", r
        leaked = {p: v for p, v in r.value.items() if not v.startswith("denied") and v not in ("listed:",)}
        # /root shows only the bound Python prefix; /proc/1 is the child itself
        leaked.pop("/proc/1/environ", None)
        assert set(leaked) <= {"/root"}, leaked
        if "/root" in leaked:
            assert leaked["/root"] == "listed:.pyenv"
        assert "TOP SECRET" not in repr(r.value)


def test_cannot_write_outside_scratch(sb, tmp_path):
    targets = [str(tmp_path / "dropped.txt"), str(ROOT / "dropped.txt"), "/usr/dropped.txt", "/dropped.txt",
               "/dev/dropped.txt", "/opt/grader/_gradechild/codec.py", "/etc/dropped.txt"]
    with session(sb, "write_outside.py") as s:
        r = s.call("attack", [targets], time_limit=2)
        assert r.status == "ok" and r.value == [], r
        r = s.call("fill_scratch", [], time_limit=5)
        assert r.status == "ok" and r.value[1] == "OSError" and r.value[0] <= 20, r
    assert not (tmp_path / "dropped.txt").exists() and not (ROOT / "dropped.txt").exists()


def test_scratch_is_fresh_per_session(sb):
    with session(sb, "write_outside.py") as s:
        assert s.call("attack", [[]], time_limit=2).status == "ok"
    with sb.session({"hw.py": "import os\ndef ls():\n    return sorted(os.listdir('.'))\n"}, "hw.py") as s:
        assert s.call("ls", [], time_limit=1).value == ["hw.py"]


COUNTER = "n = 0\ndef bump():\n    global n\n    n += 1\n    return n\n"


def test_a_session_opened_inside_another_leaves_it_a_fresh_child(sb):
    """``state: fresh`` opens a session per case while the function's main session is open:
    the zygote runs one process at a time, so the main session's child is ended.  Its next
    call must start a fresh child (module state gone), never find the dead one; checked in
    a loop, since a dead child's channel may not show its end yet when the call is sent."""
    with sb.session({"hw.py": COUNTER}, "hw.py") as main:
        for round_ in range(15):
            assert main.call("bump", [], time_limit=1).value == 1, round_
            with sb.session({"hw.py": COUNTER}, "hw.py") as inner:
                assert inner.call("bump", [], time_limit=1).value == 1
        assert main.restarts == 14            # before every call but the first


def test_a_lost_session_closing_late_ends_nothing_of_the_live_one(sb):
    """A session whose child another session's spawn ended sends no 'drop' when it closes:
    the zygote's current process is the other session's, which keeps its child and state."""
    first = sb.session({"hw.py": COUNTER}, "hw.py")
    second = sb.session({"hw.py": COUNTER}, "hw.py")
    try:
        assert second.call("bump", [], time_limit=1).value == 1
        first.close()
        time.sleep(0.05)                  # a SIGKILL, had one been sent, has landed by now
        r = second.call("bump", [], time_limit=1)
        assert (r.status, r.value, second.restarts) == ("ok", 2, 0), r
    finally:
        first.close()
        second.close()


# ------------------------------------------------------------------ network
def test_no_network_to_host_loopback(sb):
    lst = socket.socket()
    lst.bind(("127.0.0.1", 0))
    lst.listen(5)
    lst.setblocking(False)
    port = lst.getsockname()[1]
    try:
        with session(sb, "network.py") as s:
            r = s.call("attack", [port], time_limit=3)
            assert r.status == "ok" and r.value.startswith("failed"), r
        with pytest.raises(BlockingIOError):
            lst.accept()
    finally:
        lst.close()


# ------------------------------------------------------------------ resources
def test_fork_bomb_is_contained(sb):
    with session(sb, "fork_bomb.py") as s:
        r = s.call("attack", [0.5], time_limit=3)
        assert r.status == "ok", r
        assert r.value["failed"] > 0 and r.value["forked"] <= Limits().nproc
        assert s.call("attack", [0.05], time_limit=3).status == "ok"      # not exhausted
    with sb.session({"hw.py": "def f():\n    return 1\n"}, "hw.py") as s:
        assert s.call("f", [], time_limit=1).value == 1


def test_memory_bomb(sb):
    with session(sb, "memory_bomb.py") as s:
        r = s.call("attack", [], time_limit=5)
        assert r.status == "crashed" and "memory limit (1024 MB)" in r.detail, r


@pytest.mark.parametrize("fn", ["spin", "nap", "swallow"])
def test_timeouts(sb, fn):
    with session(sb, "loops.py") as s:
        t = time.monotonic()
        r = s.call(fn, [], time_limit=0.2)
        assert r.status == "timeout", r
        assert time.monotonic() - t < 4
        r = s.call("ok", [21], time_limit=1)            # the session keeps working
        assert r.status == "ok" and r.value == 42


@pytest.mark.parametrize("fn", ["ignore_alarm", "block_alarm"])
def test_ignoring_the_timer_hits_the_backstop(sb, fn):
    with session(sb, "loops.py") as s:
        t = time.monotonic()
        r = s.call(fn, [], time_limit=0.2)
        # the parent kills it: once its measured CPU time is past the limit, or at the wall-clock backstop
        assert r.status == "timeout" and "the process was killed" in r.detail, r
        assert time.monotonic() - t < 4
        assert s.call("ok", [1], time_limit=1).value == 2


def test_cpu_bound_code_is_stopped_by_its_cpu_time(sb):
    """A loop that ignores only the wall-clock alarm is stopped soon after its CPU limit."""
    with session(sb, "loops.py") as s:
        r = s.call("ignore_alarm_only", [], time_limit=0.2)
        # On a quiet machine the CPU alarm fires first; on a crowded one the wall clock may.
        assert r.status == "timeout" and ("CPU time" in r.detail or "wall-clock" in r.detail), r
        assert "no answer" not in r.detail, "the child's own timers must stop it, not the parent's backstop"
        assert s.call("ok", [1], time_limit=1).value == 2


def test_a_timer_left_by_an_earlier_call_never_cuts_a_later_one_short(sb):
    """The CPU timer of a call that ended near its limit is still pending when the next call
    starts (the child keeps it rather than setting it anew): it fires early for that call,
    which must run on to its own limit."""
    with session(sb, "burn.py", {"loops.py": (ATTACKS / "loops.py").read_text()}) as s:
        assert s.call("burn", [0.25], time_limit=0.3).status == "ok"
        r = s.call("burn", [0.6], time_limit=2.0)
        assert r.status == "ok" and r.value == "done", r
        r = s.call("burn", [5.0], time_limit=0.3)          # still stopped by its own alarm
        assert r.status == "timeout" and r.detail == "used more than 0.3 s of CPU time", r


def test_a_call_after_one_that_replaced_the_timers_handler_is_stopped_by_its_own_alarm(sb):
    with session(sb, "loops.py") as s:
        r = s.call("ignore_alarm_only", [], time_limit=0.2)
        assert r.status == "timeout" and "no answer" not in r.detail, r
        r = s.call("spin", [], time_limit=0.2)
        assert r.status == "timeout" and r.detail == "used more than 0.2 s of CPU time", r


def test_output_after_a_call_that_moved_the_output_offset_starts_clean(sb):
    src = ("import os\ndef seek():\n    os.lseek(1, 4096, os.SEEK_SET)\n"
           "def side():\n    fd = os.open('/proc/self/fd/1', os.O_WRONLY)\n    os.write(fd, b'aside')\n    os.close(fd)\n"
           "def say():\n    print('hi')\n")
    with sb.session({"o.py": src}, "o.py") as s:
        assert s.call("seek", [], time_limit=1).stdout == ""
        assert s.call("say", [], time_limit=1).stdout == "hi\n"
        assert s.call("side", [], time_limit=1).stdout == "aside"   # written past the shared offset
        assert s.call("say", [], time_limit=1).stdout == "hi\n"


def test_huge_output_is_truncated(sb):
    with session(sb, "huge_output.py") as s:
        r = s.call("attack", [20000], time_limit=5)               # ~2 MB
        assert r.status == "ok" and r.value == "done"
        assert len(r.stdout) <= Limits().output_bytes + 40 and r.stdout.endswith("[output truncated]")
        r = s.call("attack", [400000], time_limit=10)             # 40 MB > RLIMIT_FSIZE
        assert r.status == "error" and r.exception["type"] == "OSError", r
        r = s.call("attack", [1], time_limit=1)
        assert r.stdout == "x" * 99 + "\n"


# ------------------------------------------------------------------ protocol attacks
@pytest.mark.parametrize("then_exit", [False, True])
def test_forged_result_lines(sb, then_exit):
    with session(sb, "forge.py") as s:
        r = s.call("spray", [then_exit], time_limit=1)
        assert r.status == "protocol" and "forged" in r.detail, r
        assert r.value is None
        assert s.call("ok", [], time_limit=1).value == "fine"


@pytest.mark.parametrize("how", ["ppid", "init", "all"])
def test_killing_the_parent(sb, how):
    starts = sb.zygote_starts
    with session(sb, "kill_parent.py") as s:
        r = s.call("attack", [how], time_limit=1)
        assert r.status in ("ok", "crashed"), r
        assert s.call("ok", [], time_limit=1).value == "fine"
    assert sb.zygote_starts == starts       # the zygote survived


def test_daemon_does_not_outlive_the_run(sb):
    with sb.session({"x.py": "def f():\n    return 1\n"}, "x.py") as s:
        s.call("f", [], time_limit=1)
    time.sleep(0.1)       # a closed session's processes are reaped as they finish dying
    baseline = slot_processes()
    with session(sb, "daemon.py") as s:
        r = s.call("attack", [], time_limit=2)
        assert r.status == "ok", r
        assert s.call("alive", [r.value], time_limit=1).value is False
    time.sleep(0.1)
    assert slot_processes() == baseline


def test_other_code_starts_only_once_ended_sessions_are_gone(sb):
    """A session's end is not waited for, but another submission's session starts only once
    every ended one is gone: nothing of one student's exit can be charged to the next one."""
    one = {"a.py": "def f():\n    return 1\n"}
    other = {"b.py": "def f():\n    return 2\n"}
    with sb.session(one, "a.py") as s:
        s.call("f", [], time_limit=1)
        during = len(slot_processes())           # the zygote's, bwrap's and one live session's
    for _ in range(5):
        with sb.session(one, "a.py") as s:
            assert s.call("f", [], time_limit=1).value == 1
        with sb.session(other, "b.py") as s:
            assert s.call("f", [], time_limit=1).value == 2
            assert len(slot_processes()) == during, slot_processes()


# ------------------------------------------------------------------ exits and crashes
def test_sys_exit_os_exit_keyboardinterrupt_cost_one_call(sb):
    with session(sb, "exits.py") as s:
        assert s.call("remember", [1], time_limit=1).value == 1
        r = s.call("do_sys_exit", [], time_limit=1)
        assert r.status == "crashed" and "sys.exit(3)" in r.detail
        r = s.call("do_os_exit", [], time_limit=1)
        assert r.status == "crashed" and "status 4" in r.detail, r
        r = s.call("do_keyboard", [], time_limit=1)
        assert r.status == "error" and r.exception["type"] == "KeyboardInterrupt"
        assert s.call("remember", [2], time_limit=1).value == 1      # fresh child after os._exit
        assert s.load.ok


def test_thread_does_not_run_into_next_call(sb):
    with session(sb, "threads.py") as s:
        assert s.call("attack", [], time_limit=1).value == "started"
        assert s.call("threads_now", [], time_limit=1).value == 1


@pytest.mark.parametrize("fn,words", [
    ("always_equal", "AlwaysEqual"), ("str_subclass", "Sneaky"), ("nan", "NaN"),
    ("huge", "4300 digits"), ("deep", "nested"), ("selfref", "nested"), ("nested_foreign", "AlwaysEqual"),
])
def test_non_plain_return_values(sb, fn, words):
    with session(sb, "bad_values.py") as s:
        r = s.call(fn, [], time_limit=2)
        assert r.status == "protocol" and words in r.detail and r.detail.startswith("returned"), r
        assert r.value is None


def test_segfault(sb):
    with session(sb, "crashes.py") as s:
        r = s.call("segfault", [], time_limit=1)
        assert r.status == "crashed" and "SIGSEGV" in r.detail, r
        assert s.call("recurse", [], time_limit=2).status == "error"


def test_recursion_bombs(sb):
    with session(sb, "crashes.py") as s:
        r = s.call("recurse", [], time_limit=2)
        assert r.status == "error" and r.exception["type"] == "RecursionError"
        r = s.call("deep_c_recursion", [], time_limit=0.3)      # segfault, MemoryError or timer
        assert r.status in ("crashed", "error", "timeout"), r
        assert s.call("recurse", [], time_limit=2).exception["type"] == "RecursionError"


def test_watch_without_monitor_hits_is_cheap_and_works(sb):
    with sb.session({"hw.py": "def f(xs):\n    return sorted(xs)\n"}, "hw.py", watch=["sorted"]) as s:
        r = s.call("f", [[3, 1]], time_limit=1, watch=True)
        assert r.status == "ok" and r.value == [1, 3]
        assert isinstance(r.watch_hits, tuple)


def test_speed(sb):
    t = time.perf_counter()
    for _ in range(10):
        with sb.session({"hw.py": "def f(x):\n    return x\n"}, "hw.py") as s:
            pass
    per_session = (time.perf_counter() - t) / 10
    with sb.session({"hw.py": "def f(x):\n    return x\n"}, "hw.py") as s:
        t = time.perf_counter()
        for i in range(200):
            s.call("f", [i], time_limit=1)
        per_call = (time.perf_counter() - t) / 200
    print(f"session start {per_session * 1000:.1f} ms, call {per_call * 1000:.2f} ms")
    assert per_session < 0.1 and per_call < 0.005


# ------------------------------------------------------------------ whole programs
def test_program_interaction(profile):
    src = "import os\nwhile True:\n    x = input('Hit or stand? ')\n    print('got', x, os.getcwd())\n    if x == 's':\n        break\n"
    with process.spawn(["python3", "-u", "game.py"], {"game.py": src}, limits=Limits(), profile=profile,
                       slot=SLOT) as p:
        assert p.read_until("stand? ", 5) == "Hit or stand? "
        p.send("h\n")
        assert p.read_until("stand? ", 5) == "got h /w\nHit or stand? "
        p.send("s\n")
        assert p.read_all(5) == "got s /w\n"
        assert p.wait(5) == 0


def test_program_run_timeout_and_isolation(profile, tmp_path):
    secret = tmp_path / "key.txt"
    secret.write_text("k")
    src = f"import sys\ntry:\n    open({str(secret)!r})\n    print('LEAK')\nexcept OSError:\n    print('denied')\nprint(input())\n"
    r = process.run(["python3", "p.py"], {"p.py": src}, "echo me\n", limits=Limits(), timeout=10,
                    profile=profile, slot=SLOT)
    assert r.stdout == "denied\necho me\n" and r.exit_code == 0 and not r.timed_out
    r = process.run(["python3", "-c", "while True: pass"], {}, "", limits=Limits(), timeout=0.5,
                    profile=profile, slot=SLOT)
    assert r.timed_out and r.killed_reason == "timeout"


# ------------------------------------------------------------------ fallback profile
def test_fallback_profile_works_but_is_not_secure():
    prof = IsolationProfile("rlimits", ("rlimits",), False)
    assert "NOT fit" in prof.describe()
    with Sandbox(prof, Limits(), slot=SLOT + 1) as sb:
        with sb.session({"hw.py": "def f(x):\n    print(x)\n    return [x]\ndef g():\n    while True: pass\n"},
                        "hw.py") as s:
            assert s.call("f", [1], time_limit=1).value == [1]
            assert s.call("g", [], time_limit=0.2).status == "timeout"
            r = s.call("f", [2], time_limit=1)
            assert r.value == [2] and r.stdout == "2\n"


BATCH = ["ok", "raise", "print", "spin", "ok", "thread", "ok", "sysexit", "ok", "exit", "ok", "forge", "ok"]


def _summary(r):
    return (r.status, r.value, r.stdout.strip(), (r.exception or {}).get("type"))


def test_batched_calls_give_the_same_verdicts_as_single_calls(sb):
    """call_many is only an optimisation: every case gets what call() would give it."""
    with session(sb, "mixed.py") as s:
        single = [_summary(s.call("f", [k], time_limit=0.3)) for k in BATCH]
    with session(sb, "mixed.py") as s:
        batched = [_summary(r) for r in s.call_many("f", [([k], 0.3) for k in BATCH])]
    assert batched == single
    statuses = [b[0] for b in batched]
    assert statuses[:5] == ["ok", "error", "ok", "timeout", "ok"]
    assert statuses[7] == "crashed" and statuses[9] == "crashed"
    assert batched[2][2] == "hello from print"
    assert batched[-1] == ("ok", 1, "", None)


def test_a_batch_survives_the_parents_hard_kill(sb):
    with session(sb, "mixed.py") as s:
        results = s.call_many("f", [(["ok"], 0.2), (["deaf"], 0.2), (["ok"], 0.2)])
    assert [r.status for r in results] == ["ok", "timeout", "ok"]
    assert "the process was killed" in results[1].detail


def test_batched_calls_can_watch_some_cases_only(sb):
    src = "def f(xs):\n    return sum(xs)\n"
    with sb.session({"w.py": src}, "w.py", watch=["builtins.sum"]) as s:
        results = s.call_many("f", [([[1, 2]], 1), ([[3]], 1)], watch=[True, False])
    assert [r.value for r in results] == [3, 3]
    assert [h["banned"] for h in results[0].watch_hits] == ["builtins.sum"]
    assert results[1].watch_hits == ()


def test_timeout_verdicts_are_stable_on_a_loaded_machine(sb):
    """Half the limit never times out and five times the limit always does, even with
    every core busy: the verdict is the call's CPU time, not the wall clock."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(4)]
    try:
        with session(sb, "burn.py") as s:
            limit = 0.4
            for _ in range(3):
                half = s.call("burn", [limit / 2], time_limit=limit)
                assert half.status == "ok", half
                five = s.call("burn", [limit * 5], time_limit=limit)
                assert five.status == "timeout", five
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


# ------------------------------------------------------------------ the probe's kept sandbox
def test_the_probes_kept_sandbox_serves_one_session_and_still_watches_bans(monkeypatch):
    """``grader check`` grades in the sandbox its probe started (no second zygote start):
    taken once, only with the probe's own limits, and its zygote preinstalled no tripwires,
    so a session watching ``sum`` must install its own."""
    from grader.run import sandbox as sandbox_module

    monkeypatch.setattr(sandbox_module, "_probe_cache", None)
    monkeypatch.setattr(sandbox_module, "_kept", None)
    prof = sandbox_module.probe(keep=True)
    assert sandbox_module.kept_sandbox(prof, Limits(memory_mb=512), ["builtins.sum"]) is None   # other limits: closed
    assert sandbox_module._kept is None
    monkeypatch.setattr(sandbox_module, "_probe_cache", None)
    prof = sandbox_module.probe(keep=True)
    box = sandbox_module.kept_sandbox(prof, Limits(), ["builtins.sum"])
    assert box is not None and box.profile == prof and box.zygote_starts == 1
    try:
        assert sandbox_module.kept_sandbox(prof, Limits(), ["builtins.sum"]) is None   # taken once
        src = "def f(xs):\n    return sum(xs)\n"
        with box.session({"w.py": src}, "w.py", watch=["builtins.sum"]) as s:
            r = s.call("f", [[1, 2]], time_limit=1, watch=True)
        assert r.value == 3 and [h["banned"] for h in r.watch_hits] == ["builtins.sum"], r
        assert box.zygote_starts == 1
    finally:
        box.close()


def test_the_kept_sandbox_outlives_the_probe_thread_that_started_it(monkeypatch):
    """bubblewrap's parent-death signal fires when the thread that started the zygote ends:
    the probe thread of ``grader check`` holds on until the kept sandbox is closed, so the
    check's session runs in the probe's zygote instead of a second one."""
    import threading
    import time

    from grader.run import sandbox as sandbox_module

    monkeypatch.setattr(sandbox_module, "_probe_cache", None)
    monkeypatch.setattr(sandbox_module, "_kept", None)
    thread = threading.Thread(target=sandbox_module.probe_and_hold, daemon=True)
    thread.start()
    prof = sandbox_module.probe()                  # waits for the thread's probe
    time.sleep(0.3)                                # long enough for a parent-death signal to land
    box = sandbox_module.kept_sandbox(prof, Limits(), [])
    assert box is not None and box.zygote_starts == 1
    try:
        with box.session({"m.py": "def f(x):\n    return x + 1\n"}, "m.py") as s:
            assert s.call("f", [41], time_limit=1).value == 42
        assert box.zygote_starts == 1              # the probe's zygote served the session
        assert thread.is_alive()
    finally:
        box.close()
    thread.join(5)
    assert not thread.is_alive()                   # and lets go once the sandbox is closed
