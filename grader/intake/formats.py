"""How each LMS names what it hands out: one small parser per download format.

A parser reads one entry name of a download (a file, or a folder holding a student's files)
and says whose it is, which file it was, and how recent. Nothing here touches the disk.

    Canvas      doejane_123456_7890123_hw3.py, doejane_LATE_123456_7890124_hw3-1.py
                (login-ish name, Canvas user id, attachment id, the file's name; "-1" marks a
                file uploaded again under the same name)
    Moodle      Jane Doe_123456_assignsubmission_file_/hw3.py (a folder per student), or flat
                Jane Doe_123456_assignsubmission_file_hw3.py; "hw3 (1).py" marks a re-upload
    Blackboard  Homework 3_jdoe_attempt_2024-03-02-14-22-33_hw3.py (and a .txt of metadata)
    Gradescope  submission_123456789/ folders beside submission_metadata.yml (see gradescope.py)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

Revision = tuple  # sorts oldest first


@dataclass(frozen=True)
class Entry:
    """One entry of a download, attributed to a student."""

    student: str              # the id the LMS knows the student by
    name: str                 # a display name, when the entry carries one
    file: str                 # the file's own name ("" for a folder of files)
    revision: Revision        # larger is more recent
    label: str                # how to tell the instructor which one this was
    as_named: str = ""        # the file's name as the download spells it ("hw3-1.py")


_CANVAS = re.compile(r"^(?P<name>[A-Za-z0-9]+?)(?P<late>_LATE)?_(?P<uid>\d+)_(?P<att>\d+)_(?P<file>.+)$")
_MOODLE = re.compile(r"^(?P<name>.+?)_(?P<pid>\d+)_assignsubmission_(?P<plugin>[a-z]+)(?:_(?P<file>.*))?$")
_BLACKBOARD = re.compile(r"^(?P<assignment>.+)_(?P<user>[^_]+)_attempt_(?P<ts>\d{4}(?:-\d{2}){5})(?:_(?P<file>.+))?$")
_CANVAS_AGAIN = re.compile(r"^(?P<stem>.+)-(?P<n>\d+)(?P<ext>\.[^.]*)?$")
_MOODLE_AGAIN = re.compile(r"^(?P<stem>.+) \((?P<n>\d+)\)(?P<ext>\.[^.]*)?$")


def _again(file: str, pattern: re.Pattern[str]) -> tuple[str, int]:
    """``hw3-1.py`` -> (``hw3.py``, 1): the name a re-uploaded file had, and which upload it was."""
    m = pattern.match(file)
    if not m:
        return file, 0
    return m["stem"] + (m["ext"] or ""), int(m["n"])


def canvas(entry: str) -> Entry | None:
    m = _CANVAS.match(entry)
    if not m:
        return None
    file, again = _again(m["file"], _CANVAS_AGAIN)
    late = " (late)" if m["late"] else ""
    return Entry(m["uid"], m["name"], file, (again, int(m["att"])), f"{entry}{late}", m["file"])


def moodle(entry: str) -> Entry | None:
    m = _MOODLE.match(entry)
    if not m or m["plugin"] != "file":
        return None
    file, again = _again(m["file"] or "", _MOODLE_AGAIN)
    return Entry(m["pid"], m["name"], file, (again,), entry, m["file"] or "")


def moodle_file(file: str) -> tuple[str, int]:
    """A file inside a Moodle student folder: re-uploads are ``hw3 (1).py``."""
    return _again(file, _MOODLE_AGAIN)


def blackboard(entry: str) -> Entry | None:
    m = _BLACKBOARD.match(entry)
    if not m or not m["file"]:
        return None  # the attempt's .txt of metadata names no file
    stamp = m["ts"]
    when = f"{stamp[:10]} {stamp[11:].replace('-', ':')}"
    return Entry(m["user"], m["user"], m["file"], (stamp,), f"the attempt of {when}", m["file"])


def is_bookkeeping(entry: str) -> bool:
    """An entry the LMS adds beside the files: Blackboard's attempt .txt, Moodle's online text."""
    board = _BLACKBOARD.match(entry.removesuffix(".txt"))
    if board and not board["file"] and entry.endswith(".txt"):
        return True
    m = _MOODLE.match(entry)
    return bool(m and m["plugin"] != "file")


@dataclass(frozen=True)
class NamingFormat:
    name: str
    parse: Callable[[str], Entry | None]


NAMING_FORMATS: tuple[NamingFormat, ...] = (
    NamingFormat("Moodle", moodle),
    NamingFormat("Blackboard", blackboard),
    NamingFormat("Canvas", canvas),
)
