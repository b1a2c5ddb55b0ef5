"""The static ban findings cache: the same answer as the analysis, keyed by everything it reads."""
from __future__ import annotations

import json
import os

import pytest

from grader.spec.model import BanPolicy
from grader.static import cache
from grader.static.bans import check_bans

BANNED = "def total(xs):\n    return sum(xs)\n\n\ndef other(xs):\n    return len(xs)\n"
CLEAN = "def total(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\n"
POLICY = BanPolicy(names=("builtins.sum",), scope="reachable")
GRADED = {"total": ("total",), "other": ("other",)}


@pytest.fixture(autouse=True)
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(cache, "_MEMORY", {})
    return tmp_path / "grader" / "bans"


def _entries(folder):
    return sorted(folder.rglob("*.json")) if folder.exists() else []


@pytest.mark.parametrize("source", [BANNED, CLEAN, "def broken(:\n"])
def test_a_cached_answer_is_the_analysis_answer(source, cache_home):
    fresh = check_bans(source, "s.py", POLICY, GRADED)
    assert cache.cached_findings(source, "s.py", POLICY, GRADED) == fresh
    assert len(_entries(cache_home)) == 1
    cache._MEMORY.clear()                       # the next worker process: read back from disk
    assert cache.cached_findings(source, "s.py", POLICY, GRADED) == fresh


def test_the_key_covers_every_input(monkeypatch):
    key = cache.findings_key(BANNED, "s.py", POLICY, GRADED)
    others = {
        cache.findings_key(BANNED + "\n", "s.py", POLICY, GRADED),
        cache.findings_key(BANNED, "t.py", POLICY, GRADED),
        cache.findings_key(BANNED, "s.py", BanPolicy(names=("builtins.sum", "math.fsum"), scope="reachable"), GRADED),
        cache.findings_key(BANNED, "s.py", BanPolicy(names=("builtins.sum",), scope="file"), GRADED),
        cache.findings_key(BANNED, "s.py", POLICY, {"total": ("total", "Total"), "other": ("other",)}),
        cache.findings_key(BANNED, "s.py", POLICY, {"other": ("other",), "total": ("total",)}),   # order: findings name them so
    }
    assert key not in others and len(others) == 6
    monkeypatch.setattr(cache, "_ANALYSER", [b"another version of the analyser"])
    assert cache.findings_key(BANNED, "s.py", POLICY, GRADED) != key


def test_what_the_penalty_does_not_change_shares_an_entry():
    """The penalty and dynamic_code are applied after the findings: a regrade after changing them reuses them."""
    again = BanPolicy(names=POLICY.names, scope=POLICY.scope, penalty="warn", dynamic_code="violation")
    assert cache.findings_key(BANNED, "s.py", again, GRADED) == cache.findings_key(BANNED, "s.py", POLICY, GRADED)


def _forge(cache_home, source, rows, mode=0o600):
    key = cache.findings_key(source, "s.py", POLICY, GRADED)
    path = cache_home / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(rows))
    os.chmod(path, mode)
    return path


@pytest.mark.parametrize("rows, mode", [
    ([], 0o622),                                               # others may write it: not trusted
    ([], 0o660),
    ({"not": "a list"}, 0o600),                                # not the findings' shape
    ([["banned-call", "builtins.sum", "s.py", "2", 12, "", [], False, "m"]], 0o600),
    ([["banned-call", "builtins.sum", "s.py", 2, 12, "", [1], False, "m"]], 0o600),
    ([["banned-call"]], 0o600),
])
def test_an_untrusted_or_malformed_entry_is_analysed_afresh(cache_home, rows, mode):
    _forge(cache_home, BANNED, rows, mode)
    found = cache.cached_findings(BANNED, "s.py", POLICY, GRADED)
    assert [f.banned for f in found] == ["builtins.sum"]


def test_a_folder_that_cannot_be_written_changes_nothing(cache_home):
    cache_home.parent.mkdir(parents=True)
    cache_home.write_text("a file where the folder should be")
    assert cache.cached_findings(BANNED, "s.py", POLICY, GRADED) == check_bans(BANNED, "s.py", POLICY, GRADED)
