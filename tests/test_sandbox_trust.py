"""What the parent believes of a sandboxed child (issue #12): nothing it has not checked.

Attack modules live in tests/sandbox_attacks/ like those of test_sandbox.py.
"""
from __future__ import annotations

from pathlib import Path

import pytest

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
    assert sb.meter is not None, "this machine should measure CPU time from outside (cgroup or /proc)"
    with session(sb, "cheat_clock.py") as s:
        r = s.call(how, [1.2], time_limit=0.4)
        assert r.status == "timeout", (how, r)
        assert r.time_s >= 0.4, r
        fine = s.call("honest", [0.05], time_limit=0.4)
        assert fine.status == "ok" and fine.value == 42 and 0.04 <= fine.time_s < 0.4, fine
