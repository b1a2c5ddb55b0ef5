"""Frozen verdicts: the one shape every grading path produces and every report consumes.

Scores are computed in the judge and stored here; writers only read them, so no two
reports can ever disagree about a grade.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Iterator, Literal, Sequence, overload

from .encoding import dumps

Status = Literal["passed", "failed", "error", "timeout", "banned", "crashed"]
STATUSES: tuple[str, ...] = ("passed", "failed", "error", "timeout", "banned", "crashed")

#: What can be wrong with a whole submission: one closed set, spelt one way, so that reports
#: and scripts that filter on a kind never miss one written differently elsewhere.
ErrorKind = Literal[
    "note",              # advice (a file handed in under another name), not a problem of the code
    "missing-file",      # no file the assignment asks for
    "empty", "binary", "encoding",   # a file that is not readable source text
    "unreadable", "symlink", "not-a-file", "too-large", "too-many-files",  # refused at intake (grader.upload_guard)
    "duplicate-id",      # two entries of a batch would be one student (x.py beside a folder x/)
    "wrong-language",    # a file in a language the assignment does not accept
    "syntax",            # the main file does not parse
    "compile-error",     # the build (javac ...) failed
    "import-error",      # loading the submission raised
    "timeout",           # loading the submission took too long
    "crashed",           # the child died while loading
    "protocol",          # the child broke the protocol while loading
    "missing-function",  # a graded function is not defined
    "crash",             # a program crashed during a case
    "rule",              # a program broke one of its plug-in's rules (e.g. a deal that is not a fair shuffle)
    "internal-error",    # the grader failed on this submission
]
ERROR_KINDS: frozenset[str] = frozenset(ErrorKind.__args__)  # type: ignore[attr-defined]
# Spellings written by earlier versions, read back from old stores and JSON files.
_LEGACY_KINDS = {"missing_file": "missing-file", "compile_error": "compile-error"}


@dataclass(frozen=True)
class TestResult:
    """The verdict on one case (or one criterion of a program assignment).

    ``expected``/``actual``/``args`` are only filled for public cases: hidden ones are
    reported by status alone so a report can never leak them.
    """

    __test__ = False  # not a pytest test class, whatever its name

    name: str
    function: str
    visibility: Literal["public", "hidden"]
    status: Status
    score: float
    max_score: float
    time_s: float = 0.0
    message: str = ""
    args: Any = None
    expected: Any = None
    actual: Any = None
    stdout: str = ""
    staff: dict[str, Any] = field(default_factory=dict)  # tracebacks etc., never shown to students

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def to_json(self, *, include_staff: bool = True) -> dict[str, Any]:
        # Shallow: the values are plain data already, and reports are written for every case.
        # The instance dict holds the fields in their order: copying it is a tenth of the cost
        # of reading each field by name. Anything else found there is left out, never written.
        data = dict(self.__dict__)
        if len(data) != len(_TEST_FIELDS):
            data = {name: data[name] for name in _TEST_FIELDS}
        if self.visibility == "hidden":
            for key in ("args", "expected", "actual"):
                data.pop(key)
        return data if include_staff else _for_student(data)


_TEST_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(TestResult))


#: A hidden case's time as a student sees it, in steps of this many seconds: CPU time the code
#: burns on purpose, shown to the microsecond, spelt out each hidden input (a red-team pass read
#: back 20 of 20 within one); in tenths of a second it carries a bit or two at the cost of time.
HIDDEN_TIME_STEP = 0.1


def hidden_time(seconds: float) -> float:
    """The time of a hidden case as a student may see it (see :data:`HIDDEN_TIME_STEP`)."""
    return round(round(seconds / HIDDEN_TIME_STEP) * HIDDEN_TIME_STEP, 1)


def shown_duration(seconds: float) -> float:
    """A submission's wall time as a student may see it, in whole seconds: it holds the hidden
    cases' wall time, which code that sleeps in proportion to a hidden input spends on purpose
    (a red team read hidden inputs back from it to a tenth of a second)."""
    return float(round(seconds))


def _for_student(case: dict[str, Any]) -> dict[str, Any]:
    """What a student may see of a case, from its full JSON (a new dict): no staff field, and of
    a hidden case its outcome and a coarse time, nothing the code chose."""
    shown = dict(case)
    del shown["staff"]
    if shown["visibility"] == "hidden":
        shown["message"] = "" if shown["status"] == "passed" else f"{shown['status']} on a hidden case"
        shown["time_s"] = hidden_time(shown["time_s"])
        del shown["stdout"]
    return shown


@dataclass(frozen=True)
class Violation:
    """A banned-function finding, static or runtime, attached to the functions it affects."""

    rule: str
    banned: str
    layer: Literal["static", "runtime"]
    line: int | None
    col: int | None = None
    source_line: str = ""
    functions: tuple[str, ...] = ()
    case: str | None = None
    evasion: bool = False
    counts: bool = True  # False when the policy only flags it
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["functions"] = list(self.functions)
        return data


@dataclass(frozen=True)
class FunctionResult:
    name: str
    score: float
    max_score: float
    extra_credit: bool = False
    violations: tuple[Violation, ...] = ()
    found_as: str | None = None  # the name the student used (an alias), None when missing

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "max_score": self.max_score,
            "extra_credit": self.extra_credit,
            "found_as": self.found_as,
            "violations": [v.to_json() for v in self.violations],
        }


@dataclass(frozen=True)
class SubmissionError:
    """A problem of the whole submission: missing file, syntax error, import crash, missing function."""

    kind: ErrorKind
    message: str
    line: int | None = None
    function: str | None = None
    excerpt: str | None = None  # the student's line with a caret under the spot (syntax errors)
    staff: str | None = None    # what only staff see: a hidden case's crash, in the program's words

    NOTE: ClassVar[ErrorKind] = "note"  # advice, such as a file handed in under another name: not a problem of the code

    def __post_init__(self) -> None:
        if self.kind not in ERROR_KINDS:
            raise ValueError(f"unknown submission error kind {self.kind!r} (known: {', '.join(sorted(ERROR_KINDS))})")

    @property
    def is_note(self) -> bool:
        return self.kind == self.NOTE

    def to_json(self, *, include_staff: bool = True) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) is not None and (include_staff or f.name != "staff")}


@dataclass(frozen=True)
class SubmissionResult:
    submission: str
    assignment: str
    score: float
    max_score: float
    functions: dict[str, FunctionResult]
    tests: tuple[TestResult, ...]
    errors: tuple[SubmissionError, ...] = ()
    isolation: str = ""
    duration_s: float = 0.0
    spec_digest: str = ""
    submission_digest: str = ""
    stdout: str = ""  # what the submission printed at import time
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. style or speed breakdowns of programs

    def to_json(self, *, include_staff: bool = True) -> dict[str, Any]:
        return {
            "submission": self.submission,
            "assignment": self.assignment,
            "score": self.score,
            "max_score": self.max_score,
            "functions": {name: fn.to_json() for name, fn in self.functions.items()},
            "tests": [t.to_json(include_staff=include_staff) for t in self.tests],
            "errors": [e.to_json(include_staff=include_staff) for e in self.errors],
            "isolation": self.isolation,
            "duration_s": round(self.duration_s, 4) if include_staff else shown_duration(self.duration_s),
            "spec_digest": self.spec_digest,
            "submission_digest": self.submission_digest,
            "stdout": self.stdout,
            "extra": self.extra,
        }

    def encoded(self) -> "Encoded":
        """This verdict's two JSON files, serialised once however many places they go (the
        store's row, ``staff/<id>.json``, ``<id>.json``, the size bound, a worker's pipe).

        Kept on the instance outside the fields: ``dataclasses.replace`` builds a new verdict
        without it, so a changed verdict is never written with an old verdict's bytes."""
        found: Encoded | None = self.__dict__.get("_encoded")
        if found is None:
            staff = self.to_json()
            student = {**staff, "tests": [_for_student(case) for case in staff["tests"]],
                       "errors": [e.to_json(include_staff=False) for e in self.errors],
                       "duration_s": shown_duration(self.duration_s)}
            found = Encoded(dumps(staff), dumps(student))
            object.__setattr__(self, "_encoded", found)
        return found

    def for_transport(self) -> "SubmissionResult":
        """This verdict as a worker sends it to the coordinator: its JSON encoded, its case
        results counted and left inside that JSON (the coordinator writes the bytes as they
        are, and decodes cases only if a report asks for them)."""
        encoded = self.encoded()
        packed = replace(self, tests=PackedTests(self.tests, encoded.staff))  # type: ignore[arg-type]
        object.__setattr__(packed, "_encoded", encoded)
        return packed

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "SubmissionResult":
        functions = {
            name: FunctionResult(
                name=name,
                score=fn["score"],
                max_score=fn["max_score"],
                extra_credit=fn.get("extra_credit", False),
                found_as=fn.get("found_as"),
                violations=tuple(
                    Violation(**{**v, "functions": tuple(v.get("functions", ()))})
                    for v in fn.get("violations", ())
                ),
            )
            for name, fn in data["functions"].items()
        }
        tests = tuple(TestResult(**t) for t in data["tests"])
        errors = tuple(SubmissionError(**{**e, "kind": _LEGACY_KINDS.get(e["kind"], e["kind"])}) for e in data.get("errors", ()))
        return cls(
            submission=data["submission"],
            assignment=data["assignment"],
            score=data["score"],
            max_score=data["max_score"],
            functions=functions,
            tests=tests,
            errors=errors,
            isolation=data.get("isolation", ""),
            duration_s=data.get("duration_s", 0.0),
            spec_digest=data.get("spec_digest", ""),
            submission_digest=data.get("submission_digest", ""),
            stdout=data.get("stdout", ""),
            extra=data.get("extra", {}),
        )


@dataclass(frozen=True)
class Encoded:
    """A verdict's JSON, compact UTF-8: the full verdict (for staff and the store) and what
    its student may see."""

    staff: bytes
    student: bytes


class CountedTests(Sequence[TestResult]):
    """Case results that are not held: counted once (their statuses, for the summary) and
    loaded by ``_load`` each time they are read, so a class's verdicts cost no memory."""

    def __init__(self, tests: Sequence[TestResult]):
        self._length = len(tests)
        counted = getattr(tests, "statuses", None)     # already counted (a worker's verdict)
        self.statuses: dict[str, int] = dict(counted if counted is not None else Counter(t.status for t in tests))

    def _load(self) -> tuple[TestResult, ...]:
        raise NotImplementedError

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> TestResult: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[TestResult]: ...

    def __getitem__(self, index: int | slice) -> TestResult | Sequence[TestResult]:
        return self._load()[index]

    def __iter__(self) -> Iterator[TestResult]:
        return iter(self._load())


class PackedTests(CountedTests):
    """Case results kept as the verdict's JSON holds them: decoded when read."""

    def __init__(self, tests: Sequence[TestResult], staff: bytes):
        super().__init__(tests)
        self._staff = staff

    def _load(self) -> tuple[TestResult, ...]:
        return SubmissionResult.from_json(json.loads(self._staff)).tests
