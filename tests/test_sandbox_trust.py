"""What the parent believes of a sandboxed child (issue #12): nothing it has not checked.

Attack modules live in tests/sandbox_attacks/ like those of test_sandbox.py.
"""
from __future__ import annotations

from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from grader.run.model import CallResult
from grader.run.sandbox import Limits, Sandbox, probe

ATTACKS = Path(__file__).parent / "sandbox_attacks"
SLOT = 8


@pytest.fixture(scope="module")
def sb():
    profile = probe()
    assert profile.secure, f"secure isolation unavailable: {profile.describe()}"
    with Sandbox(profile, Limits(), slot=SLOT) as s:
        yield s


def session(sb, name, watch=()):
    s = sb.session({name: (ATTACKS / name).read_text()}, name, watch=watch)
    assert s.load.ok, s.load
    return s


# ----------------------------------------------------------------- class 7: schema of every reply
@pytest.mark.parametrize("kind", ["hit_types", "unknown_ban", "extra_field", "cpu_string", "status"])
def test_a_reply_of_the_wrong_shape_is_a_protocol_violation_even_with_the_right_nonce(sb, kind):
    with session(sb, "poison.py", watch=["builtins.sum"]) as s:
        r = s.call("poison", [kind], time_limit=2, watch=True)
        assert r.status == "protocol" and r.detail, r
        assert r.watch_hits == () and r.value is None


@pytest.mark.parametrize("row", [(False,), (True, False, True), (True, False)])
def test_a_right_reply_with_another_line_after_it_is_a_protocol_violation(sb, row):
    """Exactly one line per request, for a call alone and for one in a row of calls, in the
    middle or last (a row looks for a second line when the next call looks for a clean channel)."""
    with session(sb, "poison.py") as s:
        if len(row) == 1:
            results = [s.call("twice", [False], time_limit=2)]
        else:
            results = s.call_many("twice", [([honest], 2) for honest in row])
        for honest, r in zip(row, results, strict=True):
            if honest:
                assert r.status == "ok" and r.value == "honest", r
            else:
                assert r.status == "protocol" and "result lines for one call" in r.detail and r.value is None, r


def test_the_usual_result_made_without_init_is_the_same_frozen_result():
    made = CallResult.ok([1, "a"], 0.25, 0.5)
    assert made == CallResult("ok", [1, "a"], 0.25, 0.5) and vars(made) == vars(CallResult("ok", [1, "a"], 0.25, 0.5))
    with pytest.raises(FrozenInstanceError):
        made.status = "error"  # type: ignore[misc]


# ----------------------------------------------------------------- class 5: nothing outlives a session
@pytest.mark.parametrize("kind", ["shm", "key", "abstract", "scratch"])
def test_nothing_a_session_leaves_is_found_by_the_next(sb, kind):
    with session(sb, "leftovers.py") as first:
        left = first.call(f"{kind}_leave", [], time_limit=5)
        assert left.status == "ok", left
    with session(sb, "leftovers.py") as second:
        found = second.call(f"{kind}_find", [], time_limit=5)
        assert found.status == "ok" and found.value is None, (kind, left.value, found)



# ----------------------------------------------------------------- class 3: CPU time measured from outside
@pytest.mark.parametrize("how", ["fake_process_time", "cancel_cpu_timer", "work_in_a_fork",
                                 "work_in_a_thread_started_at_import", "forge_a_fast_reply"])
def test_cpu_time_hidden_from_the_child_is_still_counted(sb, how):
    with session(sb, "cheat_clock.py") as s:
        assert sb.meter is not None, "this machine should measure CPU time from outside (cgroup or /proc)"
        r = s.call(how, [1.2], time_limit=0.4)
        assert r.status == "timeout", (how, r)
        assert r.time_s >= 0.4, r
        fine = s.call("honest", [0.05], time_limit=0.4)
        assert fine.status == "ok" and fine.value == 42 and 0.04 <= fine.time_s < 0.4, fine


# ----------------------------------------------------------------- class 4: a neighbour cannot cause a timeout
def test_a_neighbour_burning_every_core_does_not_make_an_honest_call_time_out(sb):
    import threading

    box = {}

    def neighbour():
        with Sandbox(sb.profile, Limits(), slot=SLOT + 1) as other:
            with session(other, "neighbour.py") as s:
                box["neighbour"] = s.call("burn_all_cores", [6.0], time_limit=30)

    t = threading.Thread(target=neighbour)
    t.start()
    try:
        import time
        time.sleep(1.0)  # the neighbour's threads are running
        with session(sb, "neighbour.py") as s:
            # Tight limits: each call needs 0.15 s of CPU, allowed 0.3 s; the wall-clock
            # backstop (1.4 s) is shorter than a starved call may take on a loaded machine.
            results = [s.call("honest", [0.15], time_limit=0.3) for _ in range(5)]
    finally:
        t.join()
    assert all(r.status == "ok" and r.value == 42 for r in results), results
    assert box["neighbour"].status in ("ok", "timeout"), box


# ----------------------------------------------------------------- class 6: the tripwires see every call
BANS = ["builtins.sum", "statistics.mean", "numpy.sum"]


@pytest.mark.parametrize("how, banned", [
    ("via_map", "builtins.sum"), ("via_sorted_key", "builtins.sum"), ("via_reduce", "builtins.sum"),
    ("only_when_unwatched", "builtins.sum"), ("via_import_in_call", "statistics.mean"),
    ("via_alias_taken_at_import", "statistics.mean"), ("via_getattr_builtins", "builtins.sum"),
    ("via_ndarray_method", "numpy.sum"),
])
def test_every_way_of_calling_a_banned_function_is_seen(sb, how, banned):
    with session(sb, "ban_evasions.py", watch=BANS) as s:
        r = s.call(how, [[[1, 2], [3, 4]]], time_limit=10, watch=True)
        assert r.status == "ok", r
        assert r.value != "careful", "the submission could tell it was watched"
        assert [h["banned"] for h in r.watch_hits] == [banned], (how, r.watch_hits)
        assert r.watch_hits[0]["line"] > 0 and not r.tampered


def test_library_code_using_sum_for_itself_and_clean_code_are_not_findings(sb):
    with session(sb, "ban_evasions.py", watch=BANS) as s:
        for how in ("library_uses_sum_for_itself", "clean"):
            r = s.call(how, [[[1, 2], [3, 4]]], time_limit=10, watch=True)
            assert r.status == "ok" and r.watch_hits == () and not r.tampered, (how, r)


def _corpus():
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    from test_bans_static import ENTRIES
    return ENTRIES


@pytest.mark.parametrize("entry", _corpus(), ids=lambda e: e.path.stem)
def test_every_corpus_file_through_the_deployed_runtime_layers(sb, entry):
    """Tripwires plus the profile hook for C methods, in a real session: every banned call a
    corpus file makes at run time is seen (tampering with the profile hook no longer hides one)."""
    names = [n for n in entry.policy if "(" not in n]
    source = entry.source + f"\n\ndef corpus_call():\n    return {entry.call}\n"
    with sb.session({"student.py": source}, "student.py", watch=names) as s:
        assert s.load.ok, s.load
        r = s.call("corpus_call", [], time_limit=10, watch=True)
    seen = {h["banned"] for h in r.watch_hits}
    expected = entry.runtime - {"tampered"}
    assert expected <= seen or ("tampered" in entry.runtime and r.tampered), (r, expected)
    assert seen <= expected | set(names), r
    if not entry.runtime:
        assert not seen and not r.tampered, r


def test_without_cgroups_the_process_tree_in_proc_is_the_meter(sb):
    """The fallback (no root, no cgroup): utime+stime+cutime+cstime over the slot's tree."""
    from grader.run.meter import ProcTree, proc_available

    assert proc_available()
    with Sandbox(sb.profile, Limits(), slot=SLOT + 2) as other:
        with session(other, "cheat_clock.py") as s:
            other.meter = ProcTree(other._proc.pid)
            r = s.call("work_in_a_fork", [1.2], time_limit=0.4)
            fine = s.call("honest", [0.05], time_limit=0.4)
    assert r.status == "timeout" and r.time_s >= 0.4, r
    assert fine.status == "ok" and fine.value == 42, fine


def test_without_cgroups_a_process_forked_by_a_thread_is_counted_while_it_runs(sb):
    """Its CPU time is seen as it burns (the call is stopped for CPU time near its limit), not
    only once it is reaped: /proc lists children per thread, and every thread's are walked."""
    from grader.run.meter import ProcTree

    with Sandbox(sb.profile, Limits(), slot=SLOT + 2) as other:
        with session(other, "cheat_clock.py") as s:
            other.meter = ProcTree(other._proc.pid)
            r = s.call("work_in_a_fork_from_a_thread", [20.0], time_limit=0.4)
    assert r.status == "timeout" and "CPU time" in r.detail and r.time_s < 2.0, r


# ----------------------------------------------------------------- class 5: no channel between sessions
@pytest.mark.parametrize("channel", ["lock", "flock", "aio"])
def test_a_session_cannot_read_what_a_session_beside_it_publishes_in_kernel_state(sb, channel):
    """Players of one game, or two students graded side by side, run in sandboxes at the same
    time: kernel state that any process can set and any other read back exactly would let them
    talk (a red team read other players' hands in /proc/locks)."""
    with Sandbox(probe(), Limits(), slot=SLOT + 1) as other, session(other, "covert.py") as sender, \
            session(sb, "covert.py") as receiver:
        if channel == "aio":
            before = receiver.call("listen_aio", [], time_limit=5)
            sent = sender.call("publish_aio", [4242], time_limit=5)
            after = receiver.call("listen_aio", [], time_limit=5)
            assert sent.status == "ok" and sent.value != "published", sent
            assert after.status == "ok" and after.value == before.value, (before, after)
            return
        sent = sender.call(f"publish_{channel}", [4242] if channel == "lock" else [], time_limit=5)
        seen = receiver.call(f"listen_{channel}", [4242] if channel == "lock" else [], time_limit=5)
        assert sent.status == "ok" and sent.value == "published", sent    # a lock taken works for its taker
        assert seen.status == "ok" and seen.value in (False, "free"), seen


def test_a_session_may_take_locks_but_learns_nothing_of_others_and_watches_no_shared_file(sb):
    with session(sb, "covert.py") as s:
        assert s.call("publish_flock", [], time_limit=5).value == "published"
        assert s.call("ask_lock", [], time_limit=5).value.startswith("refused")
        assert s.call("watch_shared_file", [], time_limit=5).value.startswith("refused")


def test_a_console_program_has_the_sessions_filter_too():
    """Programs (Blackjack, Octave) run through the same shim: no lock to ask about, no watch on
    a shared file, no kernel keyring (which would outlive the program in the slot's namespace)."""
    from grader.run import process

    code = ("import sys; sys.path.insert(0, sys.argv[1]); import covert, ctypes\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "print(covert.ask_lock()); print(covert.watch_shared_file())\n"
            "print('key', libc.syscall(covert.KEYCTL_NR, 0, -3, 0), ctypes.get_errno())\n")
    files = {"covert.py": (ATTACKS / "covert.py").read_text()}
    with process.spawn(["python3", "-I", "-c", code, "/w"], files) as program:
        out = program.read_all(30).splitlines()
        program.wait(5)
    assert out[0].startswith("refused") and out[1].startswith("refused"), out
    assert out[2] == "key -1 1", out                                               # EPERM
