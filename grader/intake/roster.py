"""A class roster joined to the graded submissions: one gradebook row per student on it.

The roster is the LMS's own CSV export (Canvas's gradebook export, Moodle's grading
worksheet, Blackboard's Grade Centre, Gradescope's roster) or any CSV with an id column.
Which column holds the ids the download used is found by matching: the column whose values
name the most submissions (``--roster-id`` names it outright). Moodle's worksheet spells its
ids "Participant 1001"; that matches the download's 1001. A student on the roster who
handed in nothing gets a row scoring 0 that says so; a submission no roster row names is
kept, and reported.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from grader.errors import ExitCode, GraderError
from grader.judge.verdict import FunctionResult, SubmissionError, SubmissionResult
from grader.spec.model import Spec

NO_SUBMISSION = "no submission: this student is on the roster but handed in nothing"
_NAME_COLUMNS = ("Student", "Full name", "Name", "name", "student", "First Name")
_PARTICIPANT = re.compile(r"^Participant (\d+)$")


def student_key(value: str) -> str:
    """A roster cell as the id a download uses."""
    value = value.strip()
    m = _PARTICIPANT.match(value)
    return m.group(1) if m else value


@dataclass(frozen=True)
class Roster:
    path: Path
    header: tuple[str, ...]
    rows: tuple[dict[str, str], ...]
    id_column: str

    def key(self, row: dict[str, str]) -> str:
        return student_key(row.get(self.id_column) or "")

    def name(self, row: dict[str, str]) -> str:
        for column in _NAME_COLUMNS:
            if row.get(column):
                return row[column].strip()
        first, last = row.get("First name", ""), row.get("Last name") or row.get("Last Name", "")
        return f"{first} {last}".strip()

    @property
    def ids(self) -> list[str]:
        return [self.key(row) for row in self.rows]


def read_roster(path: str | Path, submission_ids: Iterable[str], id_column: str | None = None) -> Roster:
    """Read a roster CSV and find its id column; raises GraderError in the instructor's words."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise GraderError(f"cannot read the roster {path}: {exc}", exit_code=ExitCode.USAGE) from None
    reader = csv.DictReader(io.StringIO(text))
    header = tuple(reader.fieldnames or ())
    rows = tuple(row for row in reader if any((v or "").strip() for v in row.values() if isinstance(v, str)))
    if not header or not rows:
        raise GraderError(f"the roster {path} has no header row and students", exit_code=ExitCode.USAGE)
    if id_column is not None:
        if id_column not in header:
            raise GraderError(f"the roster {path} has no column {id_column!r}", hint=f"its columns: {', '.join(header)}",
                              exit_code=ExitCode.USAGE)
        return Roster(path, header, rows, id_column)
    wanted = set(submission_ids)
    scores = [(sum(student_key(row.get(c) or "") in wanted for row in rows), c) for c in header]
    best, column = max(scores, key=lambda s: s[0])
    if best == 0:
        raise GraderError(f"no column of the roster {path} holds the submissions' ids",
                          hint=f"ids found in the download: {', '.join(sorted(wanted)[:5])}...; name the column with --roster-id",
                          exit_code=ExitCode.USAGE)
    return Roster(path, header, rows, column)


def not_submitted(spec: Spec, student: str) -> SubmissionResult:
    """The row of a student who handed in nothing: 0 points, and why."""
    functions = {fn.name: FunctionResult(fn.name, 0.0, fn.points, fn.extra_credit) for fn in spec.functions}
    return SubmissionResult(submission=student, assignment=spec.assignment, score=0.0, max_score=spec.max_score,
                            functions=functions, tests=(), errors=(SubmissionError("missing-file", NO_SUBMISSION),),
                            spec_digest=spec.digest)


def join(roster: Roster, results: Sequence[SubmissionResult], spec: Spec) -> tuple[list[SubmissionResult], list[str]]:
    """Results in roster order, one per roster student, then any submission not on it; and those ids."""
    by_id = {r.submission: r for r in results}
    joined, seen = [], set()
    for student in roster.ids:
        if not student or student in seen:
            continue
        seen.add(student)
        joined.append(by_id.get(student) or not_submitted(spec, student))
    strays = [r.submission for r in results if r.submission not in seen]
    joined += [by_id[s] for s in strays]
    return joined, strays
