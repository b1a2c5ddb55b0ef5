"""How each LMS names what it hands out: one small parser per download format.

A parser reads one entry name of a download (a file, or a folder holding a student's files)
and says whose it is, which file it was, and how recent. Nothing here touches the disk.

Part of every name is the student's to choose (the file's name; a Moodle display name a student
may edit), so a name may read more than one way: ``Homework 7_eve_attempt_<t>_x_victim_attempt_<t>_hw7.py``
is Eve's file ``x_victim_attempt_<t>_hw7.py`` or the victim's ``hw7.py``. A parser returns every
reading, one per student (leftmost first); more than one is no one's to guess (intake refuses it).

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


# Each format's name is a head, then a tail that starts at an underscore; a name reads once per
# underscore it can be split at.
_CANVAS = (re.compile(r"[A-Za-z0-9]+"), re.compile(r"(?P<late>_LATE)?_(?P<uid>\d+)_(?P<att>\d+)_(?P<file>.+)"))
_MOODLE = (re.compile(r".+"), re.compile(r"_(?P<pid>\d+)_assignsubmission_(?P<plugin>[a-z]+)(?:_(?P<file>.*))?"))
_BLACKBOARD = (re.compile(r".+"), re.compile(r"_(?P<user>[^_]+)_attempt_(?P<ts>\d{4}(?:-\d{2}){5})(?:_(?P<file>.+))?"))
_CANVAS_AGAIN = re.compile(r"^(?P<stem>.+)-(?P<n>\d+)(?P<ext>\.[^.]*)?$")
_MOODLE_AGAIN = re.compile(r"^(?P<stem>.+) \((?P<n>\d+)\)(?P<ext>\.[^.]*)?$")


def _splits(entry: str, pattern: tuple[re.Pattern[str], re.Pattern[str]]) -> list[tuple[str, re.Match[str]]]:
    """Every (head, tail match) that ``entry`` reads as, leftmost split first."""
    head, tail = pattern
    return [(entry[:i], m) for i in range(1, len(entry)) if entry[i] == "_"
            and head.fullmatch(entry, 0, i) and (m := tail.fullmatch(entry, i))]


def _per_student(readings: list[Entry]) -> tuple[Entry, ...]:
    """One reading per student, the leftmost (all of one student's are theirs to mean)."""
    first: dict[str, Entry] = {}
    for entry in readings:
        first.setdefault(entry.student, entry)
    return tuple(first.values())


def _again(file: str, pattern: re.Pattern[str]) -> tuple[str, int]:
    """``hw3-1.py`` -> (``hw3.py``, 1): the name a re-uploaded file had, and which upload it was."""
    m = pattern.match(file)
    if not m:
        return file, 0
    return m["stem"] + (m["ext"] or ""), int(m["n"])


def canvas(entry: str, folder: bool = False) -> tuple[Entry, ...]:
    readings = []
    for name, m in _splits(entry, _CANVAS):
        file, again = _again(m["file"], _CANVAS_AGAIN)
        late = " (late)" if m["late"] else ""
        readings.append(Entry(m["uid"], name, file, (again, int(m["att"])), f"{entry}{late}", m["file"]))
    return _per_student(readings)


def moodle(entry: str, folder: bool = False) -> tuple[Entry, ...]:
    """A folder's name ends at ``_assignsubmission_file_``; a file's name goes on with the file's."""
    readings = []
    for name, m in _splits(entry, _MOODLE):
        if m["plugin"] != "file" or bool(m["file"]) == folder:
            continue
        file, again = _again(m["file"] or "", _MOODLE_AGAIN)
        readings.append(Entry(m["pid"], name, file, (again,), entry, m["file"] or ""))
    return _per_student(readings)


def moodle_file(file: str) -> tuple[str, int]:
    """A file inside a Moodle student folder: re-uploads are ``hw3 (1).py``."""
    return _again(file, _MOODLE_AGAIN)


def blackboard(entry: str, folder: bool = False) -> tuple[Entry, ...]:
    readings = []
    for _, m in _splits(entry, _BLACKBOARD):
        if not m["file"]:
            continue  # the attempt's .txt of metadata names no file
        stamp = m["ts"]
        when = f"{stamp[:10]} {stamp[11:].replace('-', ':')}"
        readings.append(Entry(m["user"], m["user"], m["file"], (stamp,), f"the attempt of {when}", m["file"]))
    return _per_student(readings)


def is_bookkeeping(entry: str) -> bool:
    """An entry the LMS adds beside the files: Blackboard's attempt .txt, Moodle's online text."""
    if entry.endswith(".txt") and any(not m["file"] for _, m in _splits(entry.removesuffix(".txt"), _BLACKBOARD)):
        return True
    return any(m["plugin"] != "file" for _, m in _splits(entry, _MOODLE))


@dataclass(frozen=True)
class NamingFormat:
    name: str
    parse: Callable[[str, bool], tuple[Entry, ...]]   # (entry's name, is it a folder) -> its readings


NAMING_FORMATS: tuple[NamingFormat, ...] = (
    NamingFormat("Moodle", moodle),
    NamingFormat("Blackboard", blackboard),
    NamingFormat("Canvas", canvas),
)
