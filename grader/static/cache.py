"""The static ban findings of files analysed before, kept in memory and in the user's cache folder.

Instructors regrade a whole class after every fix to a spec, and most fixes (a case, a
weight, a time limit) leave the ban policy alone: the files and the policy are the same,
so the findings are too.  The analysis is a pure function of the file's text and name, the
policy's names and scope, the graded functions and their accepted names, the analyser's
own code and the Python that parses the file; the key is a digest of exactly those, so a
change to any of them is a new key (never a stale result).  A duplicate file in one class
(a copied or untouched starter file) costs one analysis too.

An entry on disk is trusted only when this user owns it and no one else may write it (the
sandbox never sees the folder), and only if it reads back as exactly the findings' shape;
anything else is analysed afresh, as is everything when the folder cannot be written.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any, Mapping, Sequence

from grader import usercache
from grader.spec.model import BanPolicy
from grader.static.bans import Finding, check_bans

_MEMORY: dict[str, list[Finding]] = {}
_MEMORY_ENTRIES = 512
_ANALYSER: list[bytes] = []


def _analyser_digest() -> bytes:
    """The analyser's code (every module the findings depend on) and the parsing Python."""
    if not _ANALYSER:
        # Found, not imported: a file the pre-check clears never needs the full analysis.
        names = [f"grader.static.{m}" for m in ("bans", "calls", "exprs", "interp", "reach", "resolve")]
        digest = hashlib.sha256(f"{sys.version}\0{sys.implementation.cache_tag}\0".encode())
        for name in [*names, "grader.run.child.monitor", __name__]:
            found = importlib.util.find_spec(name)
            assert found is not None and found.origin is not None, name   # the grader's own modules
            digest.update(Path(found.origin).read_bytes() + b"\0")
        _ANALYSER.append(digest.digest())
    return _ANALYSER[0]


def findings_key(source: str, filename: str, policy: BanPolicy, graded: Mapping[str, Sequence[str]]) -> str:
    """Everything ``check_bans`` reads, digested (the graded functions in their order: findings name them so)."""
    inputs = json.dumps([filename, list(policy.names), policy.scope, [[k, list(v)] for k, v in graded.items()]])
    digest = hashlib.sha256(_analyser_digest())
    digest.update(inputs.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(source.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _folder() -> Path:
    return usercache.folder("bans")


_SHAPE = (str, str, str, int, int, str, list, bool, str)


def _decoded(data: Any) -> list[Finding] | None:
    """The findings an entry holds, or None unless it is exactly a list of findings."""
    if type(data) is not list:
        return None
    out = []
    for row in data:
        if type(row) is not list or len(row) != len(_SHAPE) or any(type(v) is not t for v, t in zip(row, _SHAPE)):
            return None
        if any(type(f) is not str for f in row[6]):
            return None
        rule, banned, filename, line, col, source_line, functions, evasion, message = row
        out.append(Finding(rule, banned, filename, line, col, source_line, tuple(functions), evasion, message))
    return out


def _read(path: Path) -> list[Finding] | None:
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not usercache.trusted(st):
                return None
            return _decoded(json.loads(fh.read()))
    except (OSError, ValueError, RecursionError):
        return None


def _write(path: Path, findings: list[Finding]) -> None:
    rows = [[f.rule, f.banned, f.filename, f.line, f.col, f.source_line, list(f.functions), f.evasion, f.message]
            for f in findings]
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(rows, fh)
        os.replace(temporary, path)     # readers see the whole entry or none
    except (OSError, ValueError):
        try:
            temporary.unlink()
        except OSError:
            pass                        # a read-only home: no cache, nothing else changes


def cached_findings(source: str, filename: str, policy: BanPolicy,
                    graded: Mapping[str, Sequence[str]]) -> list[Finding]:
    """``check_bans(source, filename, policy, graded)``, analysed once per key."""
    key = findings_key(source, filename, policy, graded)
    found = _MEMORY.get(key)
    if found is None:
        path = _folder() / key[:2] / f"{key}.json"
        found = _read(path)
        if found is None:
            found = check_bans(source, filename, policy, graded)
            _write(path, found)
        if len(_MEMORY) >= _MEMORY_ENTRIES:
            _MEMORY.pop(next(iter(_MEMORY)))
        _MEMORY[key] = found
    return list(found)
