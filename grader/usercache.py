"""The user's cache folder, and the one rule for believing what is read back from it.

Several stages remember work between runs (generated cases, schema and spec checks that
passed, ban findings, this machine's calibration) so that a regrade or a `grader check`
pays for it once. A cached file changes a grade, so it is believed only when nobody else
could have written it: owned by this user and writable by no one else.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path


def folder(*parts: str) -> Path:
    """``$XDG_CACHE_HOME/grader/...`` (``~/.cache/grader/...`` by default)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "grader", *parts)


def trusted(st: os.stat_result) -> bool:
    """Could only this user have written the file ``st`` describes?"""
    return not ((hasattr(os, "getuid") and st.st_uid != os.getuid()) or st.st_mode & 0o022)


class Marker:
    """An empty file whose presence says that the check named by its key passed before
    (for this Python version); one not :func:`trusted` is as good as absent."""

    def __init__(self, kind: str, key: str) -> None:
        name = hashlib.sha256(f"{key}-py{sys.version_info[0]}{sys.version_info[1]}".encode()).hexdigest()[:32]
        self.path = folder(kind, name)
        try:
            self.known = trusted(self.path.stat())
        except OSError:
            self.known = False

    def remember(self) -> None:
        if self.known:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.path.touch(mode=0o600)
        except OSError:
            pass
