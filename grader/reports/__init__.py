"""Report writers: each receives the finished verdicts and writes one format.

Like pytest's ``LogXML`` and ``TerminalReporter``, writers do not know about each other
and never compute a score: they read ``SubmissionResult``s the judge already froze.

Formats (``--format NAME``):

========== ==============================================================================
json       ``DIR/<id>.json`` per submission and ``DIR/summary.json`` (always written)
csv        ``DIR/grades.csv`` and the LMS import ``DIR/gradebook.csv``
gradescope ``DIR/results.json`` (one submission) or ``DIR/gradescope/<id>/results.json``
junit      ``DIR/junit.xml``
markdown   ``DIR/feedback/<id>.md``, paste-able into an LMS comment
html       ``DIR/report/index.html`` and ``DIR/report/students/<id>.html``, offline
terminal   a class summary table printed to the console (writes no file)
========== ==============================================================================

A new format is a class with a ``name`` and a ``write`` method, added with
:func:`register_reporter`.
"""
from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from grader.judge.verdict import SubmissionResult
from grader.reports._atomic import atomic_write_bytes, atomic_write_json, atomic_write_text, safe_name
from grader.spec.model import Spec


@runtime_checkable
class Reporter(Protocol):
    """One output format. Constructed with the CLI's report options, then ``write`` once."""

    name: str  # the --format name

    def __init__(self, options: Mapping[str, Any] | None = None) -> None: ...

    def write(self, results: Sequence[SubmissionResult], spec: Spec, out_dir: Path) -> list[Path]:
        """Write this format for ``results`` under ``out_dir``; return the files written."""
        ...


class UnknownFormatError(ValueError):
    """A --format name no reporter is registered under."""


# The built-in formats, each imported when first asked for: ``grader check`` prints its
# report without importing the six file writers (xml, sqlite, html: ~20 ms of its wait).
_BUILTIN = {
    "json": "grader.reports.json_report:JsonReporter",
    "csv": "grader.reports.csv_report:CsvReporter",
    "gradescope": "grader.reports.gradescope:GradescopeReporter",
    "junit": "grader.reports.junit:JUnitReporter",
    "markdown": "grader.reports.markdown:MarkdownReporter",
    "html": "grader.reports.html:HtmlReporter",
    "terminal": "grader.reports.terminal:TerminalReporter",
}
# What each lazily re-exported name is (``from grader.reports import render_check``).
_EXPORTS = {
    "write_submission_json": "grader.reports.json_report", "summarize": "grader.reports.json_report",
    "render_feedback": "grader.reports.markdown", "render_check": "grader.reports.terminal",
    "render_summary": "grader.reports.terminal",
}
_REGISTERED: dict[str, type[Reporter]] = {}


def register_reporter(cls: type[Reporter]) -> type[Reporter]:
    """Register a reporter class under its ``name`` (usable as a class decorator)."""
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"reporter {cls.__qualname__} needs a non-empty str 'name'")
    existing = _REGISTERED.get(name)
    builtin = _BUILTIN.get(name)
    if existing is None and builtin is not None and builtin != f"{cls.__module__}:{cls.__qualname__}":
        existing = _builtin(name)           # a built-in not imported yet is taken all the same
    if existing is not None and existing is not cls:
        raise ValueError(f"report format {name!r} is already registered by {existing.__qualname__}")
    _REGISTERED[name] = cls
    return cls


def _builtin(name: str) -> type[Reporter] | None:
    if name not in _REGISTERED and name in _BUILTIN:
        module, _, attribute = _BUILTIN[name].partition(":")
        register_reporter(getattr(importlib.import_module(module), attribute))
    return _REGISTERED.get(name)


def get_reporter(name: str) -> type[Reporter]:
    """The reporter class for a --format name, or an error naming the known formats."""
    found = _builtin(name)
    if found is None:
        known = ", ".join(sorted({*_BUILTIN, *_REGISTERED}))
        raise UnknownFormatError(f"unknown report format {name!r}; known formats: {known}")
    return found


def __getattr__(name: str) -> Any:
    """``REPORTERS`` (every format, the built-ins imported) and the re-exported functions."""
    if name == "REPORTERS":
        for builtin in _BUILTIN:
            _builtin(builtin)
        return _REGISTERED
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


REPORT_ERRORS = "report_errors.txt"  # staff-only: why a format could not be written


def _say_on_stderr(name: str, message: str) -> None:
    from grader.textsafe import terminal_safe   # an exception's text may hold an id

    sys.stderr.write(terminal_safe(f"grader: the {name} report could not be written ({message}); the other formats were") + "\n")


def write_reports(
    results: Sequence[SubmissionResult],
    spec: Spec,
    out_dir: Path,
    formats: Sequence[str],
    options: Mapping[str, Any] | None = None,
    *,
    on_error: Callable[[str, str], None] = _say_on_stderr,
) -> list[Path]:
    """Write ``json`` plus every format in ``formats``, in order; return every file written.

    All format names are checked before anything is written, so a typo in the last one
    does not leave a half-written report folder.  A writer that fails does not stop the
    ones after it: ``on_error(format, message)`` is told, and the traceback goes to
    ``DIR/report_errors.txt`` for staff.
    """
    wanted = ["json", *(f for f in formats if f != "json")]
    wanted = list(dict.fromkeys(wanted))
    classes = [get_reporter(name) for name in wanted]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    failures: list[str] = []
    for name, cls in zip(wanted, classes):
        try:
            written.extend(cls(options).write(results, spec, out_dir))
        except Exception as exc:  # one format's bug or one poisoned verdict never costs the others
            failures.append(f"== {name}\n{traceback.format_exc()}")
            on_error(name, f"{type(exc).__name__}: {str(exc)[:200]}")
    if failures:
        written.append(atomic_write_text(out_dir / REPORT_ERRORS, "\n".join(failures)))
    return written


__all__ = [
    "REPORTERS",
    "Reporter",
    "UnknownFormatError",
    "atomic_write_bytes",
    "atomic_write_json",
    "atomic_write_text",
    "get_reporter",
    "register_reporter",
    "render_check",
    "render_feedback",
    "render_summary",
    "safe_name",
    "summarize",
    "write_reports",
    "write_submission_json",
]
