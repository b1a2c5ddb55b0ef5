"""The results store: one SQLite file per output folder, written as each submission finishes.

A regrade after a crash, a Ctrl-C or a spec fix reads it to skip every submission whose
spec and files are unchanged; nothing already graded is ever lost.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterator, Sequence

from grader.judge.verdict import STATUSES, CountedTests, SubmissionResult, TestResult

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    assignment TEXT NOT NULL,
    submission TEXT NOT NULL,
    spec_digest TEXT NOT NULL,
    submission_digest TEXT NOT NULL,
    score REAL NOT NULL,
    max_score REAL NOT NULL,
    result TEXT NOT NULL,
    graded_at REAL NOT NULL,
    PRIMARY KEY (assignment, submission)
);
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,
    assignment TEXT NOT NULL,
    record TEXT NOT NULL,
    saved_at REAL NOT NULL
);
"""


def _decode(text: str) -> SubmissionResult | None:
    """A stored verdict, or None when it cannot be read back (it is then graded again).

    A row may predate a format change or carry what an older grader let through; a rerun
    must regrade it, never crash on it.
    """
    try:
        result = SubmissionResult.from_json(json.loads(text))
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return result if _well_typed(result) else None


def _well_typed(result: SubmissionResult) -> bool:
    """The fields reports format are of the types they expect."""
    def number(x: object) -> bool:
        return type(x) in (int, float)

    def opt_int(x: object) -> bool:
        return x is None or type(x) is int

    return (number(result.score) and number(result.max_score) and type(result.submission) is str
            and all(t.status in STATUSES and number(t.score) and number(t.max_score) and type(t.message) is str
                    and type(t.name) is str and type(t.stdout) is str for t in result.tests)
            and all(number(f.score) and type(v.banned) is str and opt_int(v.line) and type(v.message) is str
                    for f in result.functions.values() for v in f.violations))


class StoredTests(CountedTests):
    """A saved verdict's case results, read back from the store each time they are asked
    for and never kept: what a grading session holds per submission while a class of a
    thousand is graded."""

    def __init__(self, path: Path, assignment: str, submission: str, tests: Sequence[TestResult]):
        super().__init__(tests)
        self.path, self.assignment, self.submission = path, assignment, submission

    def _load(self) -> tuple[TestResult, ...]:
        db = sqlite3.connect(self.path)
        try:
            row = db.execute("SELECT result FROM results WHERE assignment=? AND submission=?",
                             (self.assignment, self.submission)).fetchone()
        finally:
            db.close()
        result = _decode(row[0]) if row else None
        if result is None:
            raise LookupError(f"the stored verdict of {self.submission} could not be read back from {self.path}")
        return result.tests


class Store:
    """Thread-safe: grading threads save through one connection guarded by a lock."""

    FILENAME = "grader.sqlite3"

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / self.FILENAME
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def current(self, assignment: str, submission: str, spec_digest: str, submission_digest: str) -> SubmissionResult | None:
        """The stored result if it was graded from this very spec and these very files."""
        with self._lock:
            row = self._db.execute(
                "SELECT result FROM results WHERE assignment=? AND submission=? AND spec_digest=? AND submission_digest=?",
                (assignment, submission, spec_digest, submission_digest),
            ).fetchone()
        return _decode(row[0]) if row else None

    def save(self, result: SubmissionResult) -> None:
        row = (
            result.assignment,
            result.submission,
            result.spec_digest,
            result.submission_digest,
            result.score,
            result.max_score,
            result.encoded().staff.decode("utf-8"),   # the very bytes of staff/<id>.json
            time.time(),
        )
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)

    def slim(self, result: SubmissionResult) -> SubmissionResult:
        """``result`` (saved here) with its case results left in the store, to be read back on demand."""
        return replace(result, tests=StoredTests(self.path, result.assignment, result.submission, result.tests))  # type: ignore[arg-type]

    def load(self, assignment: str, submission: str) -> SubmissionResult | None:
        with self._lock:
            row = self._db.execute(
                "SELECT result FROM results WHERE assignment=? AND submission=?", (assignment, submission)
            ).fetchone()
        return _decode(row[0]) if row else None

    def all(self, assignment: str) -> Iterator[SubmissionResult]:
        with self._lock:
            rows = self._db.execute(
                "SELECT result FROM results WHERE assignment=? ORDER BY submission", (assignment,)
            ).fetchall()
        for (text,) in rows:
            result = _decode(text)
            if result is not None:
                yield result

    def game(self, key: str) -> dict | None:
        """A tournament game stored under ``key`` (a digest of everything that decides it), if any."""
        with self._lock:
            row = self._db.execute("SELECT record FROM games WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def save_game(self, key: str, assignment: str, record: dict) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?)",
                             (key, assignment, json.dumps(record, separators=(",", ":")), time.time()))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
