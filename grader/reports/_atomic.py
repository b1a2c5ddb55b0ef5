"""Atomic file writing and safe file names: every writer goes through here.

A report file is written to a temporary sibling and moved into place with ``os.replace``,
so a reader (a CI job, an LMS import, a half-finished batch) sees the old file or the
new one, never a truncated one.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

TEMP_PREFIX = ".tmp-report-"

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+|\.{2,}")


def atomic_write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same directory."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        # mkstemp creates 0600; a report should be readable like any other file.
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    return path


def atomic_write_text(path: Path, text: str, *, newline: str = "\n") -> Path:
    """Write ``text`` (UTF-8) atomically; ``newline`` translates ``\\n`` like ``open()`` would."""
    if newline != "\n":
        text = text.replace("\n", newline)
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path, data: Any, *, compact: bool = False) -> Path:
    """Write ``data`` as UTF-8 JSON atomically: indented, or ``compact`` on one line.

    Compact output uses the C encoder (indenting forces the pure-Python one, ~10x
    slower), which matters for the per-submission files of a large class.
    """
    if compact:
        fast = _orjson_bytes(data)
        if fast is not None:
            return atomic_write_bytes(path, fast + b"\n")
    text = json.dumps(data, indent=None if compact else 2, separators=(",", ":") if compact else None,
                      ensure_ascii=False, default=_json_default)
    return atomic_write_text(path, text + "\n")


def _orjson_bytes(data: Any) -> bytes | None:
    """Compact UTF-8 JSON from orjson (several times faster, for the files written per
    submission), or None when it is missing or cannot write ``data`` (a non-str key)."""
    try:
        import orjson
    except ImportError:
        return None
    try:
        out: bytes = orjson.dumps(data, default=_json_default)
        return out
    except TypeError:
        return None


def _json_default(value: Any) -> Any:
    # Verdict values are plain data, but a student may return a set or bytes.
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return repr(value)


def safe_name(submission: str, reserved: frozenset[str] = frozenset()) -> str:
    """A file-name stem for a submission id, stable and unique per id.

    Ids are usually already safe (``gburdell3``); anything else (slashes, spaces, ``..``)
    is replaced and a short hash of the original id keeps two ids from colliding.
    """
    cleaned = _UNSAFE.sub("_", submission).strip("._") or "submission"
    if cleaned == submission and cleaned not in reserved:
        return cleaned
    digest = hashlib.sha256(submission.encode("utf-8")).hexdigest()[:8]
    return f"{cleaned[:80]}-{digest}"
