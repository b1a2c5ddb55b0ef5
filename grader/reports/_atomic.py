"""Atomic file writing and safe file names: every writer goes through here.

A report file is written to a temporary sibling and moved into place with ``os.replace``,
so a reader (a CI job, an LMS import, a half-finished batch) sees the old file or the
new one, never a truncated one. A file is flushed to the disk before it replaces the old
one, except where the caller keeps a durable record of its own and syncs the folder once
(the per-submission files of a batch: grader.session.JsonSink).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterable

from grader.judge.encoding import dumps, json_default

TEMP_PREFIX = ".tmp-report-"

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+|\.{2,}")


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = True) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same directory; ``durable``:
    on the disk before it replaces the old file (else in the page cache, which a killed
    process never loses, until :func:`sync_folder` or the kernel writes it)."""
    path = Path(path)
    fd, tmp_name = _temporary(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    return path


def _temporary(path: Path) -> tuple[int, str]:
    """A new temporary sibling of ``path``, readable like any other report (mode 0644), its
    folder made when missing. Named by process and thread (each writes one file at a time),
    with ``mkstemp``'s random names when that name is taken (a killed run's leftover)."""
    name = f"{path.parent}/{TEMP_PREFIX}{os.getpid()}.{threading.get_ident()}"
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    except FileExistsError:
        fd, name = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    os.fchmod(fd, 0o644)    # whatever the umask: as readable as the file it replaces
    return fd, name


def atomic_write_text(path: Path, text: str, *, newline: str = "\n") -> Path:
    """Write ``text`` (UTF-8) atomically; ``newline`` translates ``\\n`` like ``open()`` would."""
    if newline != "\n":
        text = text.replace("\n", newline)
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path, data: Any, *, compact: bool = False) -> Path:
    """Write ``data`` as UTF-8 JSON atomically: indented, or ``compact`` on one line.

    Compact output uses orjson (indenting forces json's pure-Python encoder, ~10x
    slower), which matters for the files written per submission.
    """
    if compact:
        return atomic_write_bytes(path, dumps(data) + b"\n")
    text = json.dumps(data, indent=2, ensure_ascii=False, default=json_default)
    return atomic_write_text(path, text + "\n")


def sync_folder(path: Path) -> None:
    """Flush every file written under ``path`` to the disk at once (Linux: syncfs of its file
    system; elsewhere: every file system), instead of one fsync per file."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        if sys.platform.startswith("linux") and _syncfs(fd):
            return
        os.sync()
    finally:
        os.close(fd)


def _syncfs(fd: int) -> bool:
    try:
        import ctypes

        return bool(ctypes.CDLL(None, use_errno=True).syncfs(fd) == 0)
    except (OSError, AttributeError):
        return False


# Never in an id a name passes through unchanged (_UNSAFE replaces it), always in a changed one:
# so no id's own name can be another id's changed name.
_CHANGED = "~"


def safe_name(submission: str, reserved: frozenset[str] = frozenset()) -> str:
    """A file-name stem for a submission id, stable and one per id (injective).

    Ids are usually already safe (``gburdell3``) and are their own name; anything else (slashes,
    spaces, ``..``, a reserved name) is cleaned and marked ``~`` plus a 64-bit hash of the
    original id (``a_b~3b6e...``), which no safe id contains.
    """
    cleaned = _UNSAFE.sub("_", submission).strip("._") or "submission"
    if cleaned == submission and cleaned not in reserved:
        return cleaned
    return _changed_name(submission, cleaned)


def _changed_name(submission: str, cleaned: str) -> str:
    return f"{cleaned[:80]}{_CHANGED}{hashlib.sha256(submission.encode('utf-8')).hexdigest()[:16]}"


def clashing_ids(ids: Iterable[str]) -> list[tuple[str, ...]]:
    """Groups of distinct ids that some writer would give one file name (whatever it reserves): only
    ids whose changed names are the same can, which takes a collision of their hashes."""
    by_name: dict[str, set[str]] = {}
    for submission in ids:
        cleaned = _UNSAFE.sub("_", submission).strip("._") or "submission"
        by_name.setdefault(_changed_name(submission, cleaned), set()).add(submission)
    return [tuple(sorted(group)) for group in by_name.values() if len(group) > 1]
