"""The results store: one SQLite file per output folder, written as each submission finishes.

A regrade after a crash, a Ctrl-C or a spec fix reads it to skip every submission whose
spec and files are unchanged; nothing already graded is ever lost.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Iterator

from grader.judge.verdict import SubmissionResult

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
"""


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
        return SubmissionResult.from_json(json.loads(row[0])) if row else None

    def save(self, result: SubmissionResult) -> None:
        row = (
            result.assignment,
            result.submission,
            result.spec_digest,
            result.submission_digest,
            result.score,
            result.max_score,
            json.dumps(result.to_json()),
            time.time(),
        )
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)

    def load(self, assignment: str, submission: str) -> SubmissionResult | None:
        with self._lock:
            row = self._db.execute(
                "SELECT result FROM results WHERE assignment=? AND submission=?", (assignment, submission)
            ).fetchone()
        return SubmissionResult.from_json(json.loads(row[0])) if row else None

    def all(self, assignment: str) -> Iterator[SubmissionResult]:
        with self._lock:
            rows = self._db.execute(
                "SELECT result FROM results WHERE assignment=? ORDER BY submission", (assignment,)
            ).fetchall()
        for (text,) in rows:
            yield SubmissionResult.from_json(json.loads(text))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
