"""Bounds on what one submission can make the grader keep, store and write.

A student's function may return a 4 MB string on every case, print the maximum the
sandbox captures on every call, or raise exceptions with huge messages.  Judged, such a
value is compared in full; kept, it would make a 126 MB JSON verdict, a 270 MB HTML page
and a parent that grows with every submission.  So after judging, each stored value,
each text and the whole verdict are cut to a fixed size with a note saying so; nothing
that decides a score is ever cut (scores are computed before).
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from .verdict import SubmissionResult, TestResult

MAX_VALUE_CHARS = 4_000      # the repr of one stored value (a public case's actual answer)
MAX_TEXT_CHARS = 8_000       # one message, one case's captured output, one staff traceback
MAX_RESULT_CHARS = 1_000_000  # one submission's whole verdict as JSON
_SHRUNK_TEXT_CHARS = 500     # per text, when the whole verdict must shrink
TRUNCATED_NOTE = (f"this submission's verdict was larger than {MAX_RESULT_CHARS:,} characters; its answers, "
                  "output and messages are kept shortened")


_NOTE = re.compile(r"\[(text|value) truncated by the grader: ([\d,]+) characters in all\]$")


def _note(kind: str, size: int) -> str:
    return f"[{kind} truncated by the grader: {size:,} characters in all]"


def _cut(text: str, limit: int, kind: str) -> str:
    """At most ``limit`` characters: the start of ``text`` and a note of its full size.

    Cutting what was already cut keeps the first note's size, so bounds can be applied again.
    """
    noted = _NOTE.search(text)
    size = int(noted.group(2).replace(",", "")) if noted else len(text)
    kind = noted.group(1) if noted else kind
    note = _note(kind, size)
    return text[:max(0, limit - len(note) - 5)] + " ... " + note


def bound_text(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """``text`` itself, or its first characters and a note of the full size, ``limit`` in all."""
    if type(text) is not str or len(text) <= limit:
        return text
    return _cut(text, limit, "text")


def bound_value(value: Any, limit: int = MAX_VALUE_CHARS) -> Any:
    """``value`` itself when its repr is short, else a string of its repr's start and size.

    The repr is built at most once per stored value; values that cross the sandbox are
    capped by the protocol already, so this costs at most a few MB transiently.
    """
    if value is None or type(value) in (bool, int, float):
        return value
    if type(value) is str and _NOTE.search(value):
        return value if len(value) <= limit else _cut(value, limit, "value")
    try:
        text = repr(value)
    except Exception:  # plain values only reach here, but a repr must never stop the batch
        return _note("value", -1)
    return value if len(text) <= limit else _cut(text, limit, "value")


def _bound_staff(staff: dict[str, Any], limit: int) -> dict[str, Any]:
    return {k: bound_text(v, limit) if isinstance(v, str) else bound_value(v, limit) for k, v in staff.items()}


_SCALARS = frozenset({bool, int, float, type(None)})


def bound_test(test: TestResult, text_limit: int = MAX_TEXT_CHARS, value_limit: int = MAX_VALUE_CHARS) -> TestResult:
    """The verdict with its student-made parts (answer, output, messages) bounded."""
    if (type(test.actual) in _SCALARS and not test.staff and type(test.message) is str and len(test.message) <= text_limit
            and type(test.stdout) is str and len(test.stdout) <= text_limit):
        return test     # most cases: nothing that could be long (every case is bounded twice: judged, then totalled)
    actual = bound_value(test.actual, value_limit)
    message = bound_text(test.message, text_limit)
    stdout = bound_text(test.stdout, text_limit)
    staff = _bound_staff(test.staff, text_limit)
    if actual is test.actual and message is test.message and stdout is test.stdout and staff == test.staff:
        return test
    return replace(test, actual=actual, message=message, stdout=stdout, staff=staff)


def _size(result: SubmissionResult) -> int:
    """The verdict's JSON length in characters.  Its UTF-8 byte count bounds the characters
    from above: at or under the limit, that settles it, and the bytes encoded to count them
    are the ones every sink writes (kept on the verdict)."""
    size = len(result.encoded().staff)
    if size <= MAX_RESULT_CHARS:
        return size
    return len(json.dumps(result.to_json(), default=repr, ensure_ascii=False))


def bound_result(result: SubmissionResult) -> SubmissionResult:
    """The whole verdict under ``MAX_RESULT_CHARS``: first every case is bounded, then, if
    still too large, every text and value is cut much shorter, then public answers dropped."""
    result = replace(result, tests=tuple(bound_test(t) for t in result.tests), stdout=bound_text(result.stdout))
    if _size(result) <= MAX_RESULT_CHARS:
        return result
    shrunk = tuple(bound_test(t, _SHRUNK_TEXT_CHARS, _SHRUNK_TEXT_CHARS) for t in result.tests)
    result = replace(result, tests=shrunk, stdout=bound_text(result.stdout, _SHRUNK_TEXT_CHARS),
                     extra={**result.extra, "truncated": TRUNCATED_NOTE})
    if _size(result) <= MAX_RESULT_CHARS:
        return result
    bare = tuple(replace(t, actual=None, stdout="", staff={}) for t in result.tests)
    return replace(result, tests=bare)
