"""Spreadsheets: ``grades.csv`` for staff and ``gradebook.csv`` shaped for an LMS import.

Options (from the CLI's report options mapping):

* ``id_column``: header of the id column in ``gradebook.csv`` (default ``"SIS User ID"``,
  what Canvas matches on; e.g. ``"Username"`` for Moodle).
* ``total_column``: header of the total column in ``gradebook.csv`` (default: the spec's
  title, or its assignment id).
* ``points_possible_row``: add Canvas's "Points Possible" row under the header (default off).
* ``roster``: a :class:`grader.intake.roster.Roster`: ``grades.csv`` gains the students'
  names, and ``gradebook.csv`` is the roster itself, every column of it, row for row, with
  the scores added (the results come joined to it, one per roster student).
"""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any, Sequence

from grader.judge.verdict import SubmissionResult
from grader.reports._atomic import atomic_write_text
from grader.reports._common import BaseReporter, function_names
from grader.spec.model import Spec
from grader.textsafe import csv_safe

DEFAULT_ID_COLUMN = "SIS User ID"


def number(value: float | None) -> str:
    """A score as spreadsheets read it: ``10``, ``7.5``, ``3.3333``."""
    if value is None:
        return ""
    rounded = round(float(value), 4)
    return str(int(rounded)) if rounded == int(rounded) else repr(rounded)


def text_cell(value: str) -> str:
    """Neutralise a spreadsheet formula in a text cell (a submission id is student-chosen)."""
    return csv_safe(value)


def _render(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


def _function_score(result: SubmissionResult, name: str) -> str:
    fn = result.functions.get(name)
    return number(fn.score) if fn is not None else ""


class CsvReporter(BaseReporter):
    """``DIR/grades.csv`` and ``DIR/gradebook.csv``."""

    name = "csv"

    def write(self, results: Sequence[SubmissionResult], spec: Spec, out_dir: Path) -> list[Path]:
        names = function_names(spec, results)
        return [
            atomic_write_text(Path(out_dir) / "grades.csv", self.grades(results, names)),
            atomic_write_text(Path(out_dir) / "gradebook.csv", self.gradebook(results, spec, names)),
        ]

    def grades(self, results: Sequence[SubmissionResult], names: list[str]) -> str:
        roster = self.options.get("roster")
        if roster is None:
            rows = [["id", "score", "max_score", *names]]
            for r in results:
                rows.append([text_cell(r.submission), number(r.score), number(r.max_score),
                             *(_function_score(r, name) for name in names)])
            return _render(rows)
        student_names = {roster.key(row): roster.name(row) for row in roster.rows}
        rows = [["id", "name", "score", "max_score", *names, "note"]]
        for r in results:
            note = next((e.message for e in r.errors if e.kind == "missing-file"), "")
            rows.append([text_cell(r.submission), text_cell(student_names.get(r.submission, "")), number(r.score),
                         number(r.max_score), *(_function_score(r, name) for name in names), text_cell(note)])
        return _render(rows)

    def gradebook(self, results: Sequence[SubmissionResult], spec: Spec, names: list[str]) -> str:
        roster = self.options.get("roster")
        if roster is not None:
            return self.roster_gradebook(results, spec, names, roster)
        id_column = str(self.options.get("id_column") or DEFAULT_ID_COLUMN)
        total_column = str(self.options.get("total_column") or spec.title or spec.assignment)
        header = [id_column, total_column, *(f"{spec.assignment}: {name}" for name in names)]
        if len(set(header)) != len(header):
            raise ValueError(f"gradebook.csv columns must be unique, got {header}")
        rows: list[list[Any]] = [header]
        if self.options.get("points_possible_row"):
            possible = []
            for name in names:
                try:
                    possible.append(number(spec.function(name).points))
                except KeyError:
                    possible.append("")
            rows.append(["Points Possible", number(spec.max_score), *possible])
        for r in results:
            rows.append([text_cell(r.submission), number(r.score),
                         *(_function_score(r, name) for name in names)])
        return _render(rows)

    def roster_gradebook(self, results: Sequence[SubmissionResult], spec: Spec, names: list[str], roster: Any) -> str:
        """The roster as the LMS exported it, every student on it, with the grades added."""
        total_column = str(self.options.get("total_column") or spec.title or spec.assignment)
        # The roster's own grade column gets the total: Canvas's "Title (id)", Moodle worksheet's "Grade".
        own = [c for c in roster.header if c == total_column or c.startswith(total_column + " (")] or \
              [c for c in roster.header if c == "Grade"]
        total_column = own[0] if own else total_column
        parts = [f"{spec.assignment}: {name}" for name in names]
        header = [column for column in roster.header if column not in parts]
        if total_column not in header:
            header.append(total_column)
        by_id = {r.submission: r for r in results}
        rows: list[list[Any]] = [header + parts]
        for row in roster.rows:
            r = by_id.get(roster.key(row))
            cells = {column: text_cell(row.get(column) or "") for column in header}
            if r is not None:
                cells[total_column] = number(r.score)
            rows.append([cells[c] for c in header] + ([_function_score(r, name) for name in names] if r else [""] * len(parts)))
        return _render(rows)
