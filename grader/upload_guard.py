"""What the grader accepts from a student's folder: regular files only, and not too many of them.

A submission is hostile input.  A symbolic link inside it would make the grader copy a
file the student could never read (``helpers.py -> ../../reference/hw7_iteration.py``)
into the sandbox; a FIFO would block the reader; a device would read forever; a folder of
a million files or of huge ones would exhaust the grader before any sandbox runs.  So
every entry is checked with ``lstat`` (never following a link), files are opened with
``O_NOFOLLOW`` and checked again on the open descriptor (no race between check and read),
and a folder's entries and total size are bounded.  Every refusal is a ``(kind, message)``
problem of that submission alone, phrased for the student; the batch goes on.
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from grader.textsafe import terminal_safe

MAX_FILE_BYTES = 1_000_000      # one source file
MAX_ENTRIES = 200               # entries of one submission folder that are looked at
MAX_TOTAL_BYTES = 5_000_000     # all files of one submission folder together
MAX_NAME_BYTES = 255            # one file name, on every common file system

Problem = tuple[str, str]


def shown_name(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (which the OS hands over as lone
    surrogates, which no report can write) shown as ``\\xff``."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def name_problem(path: Path) -> Problem | None:
    """A name no report could write: refused, so that one student's file cannot stop a batch."""
    shown = shown_name(path.name)
    if shown == path.name:
        return None
    return ("unreadable", f"{shown} has a name that is not UTF-8 text; rename it (letters, digits, - and _)")


def plain_name_problem(name: str) -> str | None:
    """Why ``name``, text the grader is handed (an LMS's student id, a file name in a download's
    entry), cannot be one plain name inside a folder the grader writes, or None: a path
    (``../x``, ``/usr/lib/...``) would write outside it, ``.`` and ``..`` are the folder itself or
    its parent, a hidden name is skipped by every reader, and control characters are no name."""
    if not name.strip():
        return "it is empty"
    if name in (".", ".."):
        return f"it is {name}, which means {'the folder itself' if name == '.' else 'the folder above'}"
    if "/" in name or "\\" in name:
        return "it holds a / or \\, which makes it a path"
    if name.startswith("."):
        return "it starts with a dot, which hides it"
    if terminal_safe(name) != name:
        return "it holds control characters"
    if shown_name(name) != name:
        return "it is not UTF-8 text"
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        return f"it is longer than {MAX_NAME_BYTES} bytes"
    return None


def entry_problem(path: Path) -> Problem | None:
    """Why ``path`` (not followed if it is a link) cannot be part of a submission, or None."""
    named = name_problem(path)
    if named:
        return named
    try:
        mode = os.lstat(path).st_mode
    except OSError as exc:
        return ("unreadable", f"{path.name} cannot be read ({exc.strerror})")
    if stat.S_ISLNK(mode):
        return ("symlink", f"{path.name} is a symbolic link; hand in the file itself, not a link to it")
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        return ("not-a-file", f"{path.name} is not a regular file (a device, pipe or socket); hand in source files only")
    return None


def read_regular(path: Path, limit: int = MAX_FILE_BYTES) -> tuple[bytes, Problem | None]:
    """The bytes of a regular file, never through a link and never more than ``limit``."""
    named = name_problem(path)
    if named:
        return b"", named
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        problem = entry_problem(path)
        return b"", problem or ("unreadable", f"{path.name} cannot be read ({exc.strerror})")
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return b"", ("not-a-file", f"{path.name} is not a regular file; hand in source files only")
        if info.st_size > limit:
            return b"", ("too-large", f"{path.name} is {info.st_size:,} bytes; a source file may have at most {limit:,}")
        data = os.read(fd, limit + 1)
        if len(data) > limit:
            return b"", ("too-large", f"{path.name} is larger than {limit:,} bytes")
        return data, None
    finally:
        os.close(fd)


@dataclass
class FolderScan:
    """The regular files at the top of a submission folder, and what was refused."""

    files: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def scan_folder(folder: Path) -> FolderScan:
    """List a submission folder's top level without following links, within the bounds."""
    scan = FolderScan()
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries, 1):
                if count > MAX_ENTRIES:
                    scan.problems.append(("too-many-files", f"the folder holds more than {MAX_ENTRIES} entries; "
                                                            "hand in only your source files"))
                    break
                path = Path(entry.path)
                problem = entry_problem(path)
                if problem:
                    scan.problems.append(problem)
                elif entry.is_file(follow_symlinks=False):
                    scan.files.append(path)
    except OSError as exc:
        scan.problems.append(("unreadable", f"the folder {folder.name} cannot be read ({exc.strerror})"))
    scan.files.sort()
    return scan


def bounded_total(sizes: dict[str, bytes]) -> Problem | None:
    """A problem when the files kept from one submission are together too large."""
    total = sum(len(data) for data in sizes.values())
    if total > MAX_TOTAL_BYTES:
        return ("too-large", f"the submission's files hold {total:,} bytes together; at most {MAX_TOTAL_BYTES:,} are accepted")
    return None
