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
        assert r.status == "protocol", r
        assert "wrong type" in r.detail or "unknown field" in r.detail or "malformed" in r.detail, r.detail
        assert r.watch_hits == ()


# ----------------------------------------------------------------- class 5: nothing outlives a session
@pytest.mark.parametrize("kind", ["shm", "key", "abstract", "scratch"])
def test_nothing_a_session_leaves_is_found_by_the_next(sb, kind):
    with session(sb, "leftovers.py") as first:
        left = first.call(f"{kind}_leave", [], time_limit=5)
        assert left.status == "ok", left
    with session(sb, "leftovers.py") as second:
        found = second.call(f"{kind}_find", [], time_limit=5)
        assert found.status == "ok" and found.value is None, (kind, left.value, found)

