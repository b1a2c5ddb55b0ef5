"""What every writer reads off a verdict: ordering, formatting, and the student-safe view.

Nothing here computes a score: it orders, counts and formats what the judge decided.
The student-safe view is the single place that decides what of a case a student may see,
so every student-facing writer leaks the same nothing about hidden cases.
"""
from __future__ import annotations

import difflib
import math
import re
import pprint
import reprlib
import statistics
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Sequence

from grader.judge.verdict import STATUSES, SubmissionResult, TestResult, Violation, hidden_time
from grader.spec.model import Spec

PROBLEM_STATUSES = frozenset({"error", "timeout", "banned", "crashed"})


def fmt_score(value: float | None) -> str:
    """``10`` for 10.0, ``7.5`` for 7.5, ``3.33`` for 10/3: no float noise in a grade."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    rounded = round(float(value), 2)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.2f}".rstrip("0").rstrip(".")


def score_line(result: SubmissionResult) -> str:
    """``Score: 50 / 50 (40 + 10 extra credit)``: extra credit shown apart, so a failed
    regular function is not hidden behind bonus points."""
    extra = sum(f.score for f in result.functions.values() if f.extra_credit)
    line = f"Score: {fmt_score(result.score)} / {fmt_score(result.max_score)}"
    if extra:
        line += f" ({fmt_score(result.score - extra)} + {fmt_score(extra)} extra credit)"
    return line


def function_names(spec: Spec, results: Iterable[SubmissionResult] = ()) -> list[str]:
    """Function names in spec order, then any a verdict has that the spec does not."""
    names = [fn.name for fn in spec.functions]
    seen = set(names)
    for result in results:
        for name in result.functions:
            if name not in seen:
                seen.add(name)
                names.append(name)
    return names


def is_extra_credit(spec: Spec, name: str, results: Iterable[SubmissionResult] = ()) -> bool:
    try:
        return spec.function(name).extra_credit
    except KeyError:
        return any(r.functions[name].extra_credit for r in results if name in r.functions)


def public_tests(result: SubmissionResult) -> list[TestResult]:
    return [t for t in result.tests if t.visibility == "public"]


def hidden_tests(result: SubmissionResult) -> list[TestResult]:
    return [t for t in result.tests if t.visibility != "public"]


def status_counts(tests: Iterable[TestResult]) -> dict[str, int]:
    """Counts per status, every status present, in the fixed STATUSES order."""
    counts: Counter[str] = Counter(t.status for t in tests)
    return {status: counts[status] for status in STATUSES}


def status_summary(tests: Sequence[TestResult]) -> str:
    """``12 hidden cases: 10 passed, 2 failed`` style text; all a student sees of hidden cases."""
    counts = status_counts(tests)
    parts = [f"{n} {status}" for status, n in counts.items() if n]
    return ", ".join(parts) if parts else "none"


NOT_RUN = "not run: "


def natural_key(text: str) -> tuple:
    """``case[2]`` before ``case[10]``: digit runs compare as numbers."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text) if part)


def was_run(test: TestResult) -> bool:
    return not test.message.startswith(NOT_RUN)


def not_run_message(tests: Sequence[TestResult]) -> str | None:
    """The one reason none of these cases ran ("not run: the file could not be loaded"), said once."""
    messages = {t.message for t in tests}
    if tests and len(messages) == 1:
        message = next(iter(messages))
        if message.startswith(NOT_RUN):
            return message
    return None


def all_violations(result: SubmissionResult) -> list[Violation]:
    """Every violation once, even when it is attached to several functions; the run-time
    findings of one banned call on one line are one entry that counts the cases."""
    seen: list[Violation] = []
    for fn in result.functions.values():
        for violation in fn.violations:
            if violation not in seen:
                seen.append(violation)
    merged: dict[tuple, list[Violation]] = {}
    for v in seen:
        key = (v.rule, v.banned, v.layer, v.line, v.counts) if v.layer == "runtime" else (id(v),)
        merged.setdefault(key, []).append(v)
    _fold_lineless(merged)
    return [group[0] if len(group) == 1 else _merge_runtime(group) for group in merged.values()]


def _fold_lineless(merged: dict[tuple, list[Violation]]) -> None:
    """Hidden cases' findings carry no line; when the public cases place the same banned call
    on exactly one line, they are that call's findings too and count in its entry."""
    for key in [k for k in merged if len(k) == 5 and k[3] is None]:
        lined = [k for k in merged if len(k) == 5 and k[3] is not None and (k[:3], k[4]) == (key[:3], key[4])]
        if len(lined) == 1:
            merged[lined[0]].extend(merged.pop(key))


def _merge_runtime(group: list[Violation]) -> Violation:
    cases = [v.case for v in group if v.case]
    functions = tuple(dict.fromkeys(f for v in group for f in v.functions))
    shown = ", ".join(cases[:3]) + (", ..." if len(cases) > 3 else "")
    what = ("removed or replaced the grader's call monitor" if group[0].rule == "tampering"
            else f"called banned {group[0].banned}")
    return replace(group[0], functions=functions, case=None, message=f"{what} while running {len(group)} cases ({shown})")


def banned_counts(violations: Iterable[Violation]) -> str:
    """``builtins.sum ×13``: each banned name once, with how many findings name it."""
    counts = Counter(v.banned for v in violations)
    return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())


def submission_file(spec: Spec) -> str:
    return spec.submission_files[0] if spec.submission_files else "submission"


def violation_location(violation: Violation, spec: Spec) -> str:
    """``hw7.py:12:4``: where the banned call is, in the student's own file."""
    where = submission_file(spec)
    if violation.line is not None:
        where += f":{violation.line}"
        if violation.col is not None:
            where += f":{violation.col}"
    return where


def violation_text(violation: Violation) -> str:
    text = violation.message or f"uses banned {violation.banned}"
    extras = []
    if violation.layer == "runtime" and violation.case:
        extras.append(f"at run time in case {violation.case}")
    if not violation.counts:
        extras.append("flagged only, no penalty")
    if violation.evasion:
        extras.append("looks like an attempt to hide the call")
    return text + (f" ({'; '.join(extras)})" if extras else "")


_REPR = reprlib.Repr()
_REPR.maxstring = 120
_REPR.maxother = 120
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 12
_REPR.maxlevel = 4


def short_repr(value: Any) -> str:
    """A bounded repr for tables and headlines; full values go in diffs and call lines."""
    return _REPR.repr(value)


def long_repr(value: Any, width: int = 88) -> str:
    return pprint.pformat(value, width=width, compact=True, sort_dicts=False)


SHORT_REPR = 60  # reprs up to this long read fine side by side; longer ones get a diff


def typed(value: Any, other: Any, text: str | None = None) -> str:
    """``True (bool)`` beside ``1 (int)``: the type is said when the two values' types differ."""
    from grader.judge.compare import type_name

    shown = repr(value) if text is None else text
    return shown if type(value) is type(other) else f"{shown} ({type_name(value)})"


def diff_lines(expected: Any, actual: Any) -> list[str] | None:
    """An ``ndiff`` of expected against actual, or None when the two are short enough to compare by eye.

    Multi-line strings are compared line by line as text, other values by their
    pretty-printed reprs, so a long list differs only on the line that differs.
    """
    if isinstance(expected, str) and isinstance(actual, str) and ("\n" in expected or "\n" in actual):
        left, right = expected.splitlines(), actual.splitlines()
    else:
        exp_repr, act_repr = repr(expected), repr(actual)
        if len(exp_repr) <= SHORT_REPR and len(act_repr) <= SHORT_REPR:
            return None
        if isinstance(expected, str) and isinstance(actual, str):
            left, right = _chunks(exp_repr), _chunks(act_repr)
        else:
            left = long_repr(expected, SHORT_REPR).splitlines()
            right = long_repr(actual, SHORT_REPR).splitlines()
    return [line.rstrip() for line in difflib.ndiff(left, right)]


def _chunks(text: str, size: int = SHORT_REPR) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def call_text(test: TestResult) -> str:
    """``add(1, [2, 3])`` for a public case: the call as the student would type it."""
    args = test.args
    if args is None:
        return f"{test.function}()"
    if not isinstance(args, (list, tuple)):
        args = (args,)
    return f"{test.function}({', '.join(repr(a) for a in args)})"


@dataclass(frozen=True)
class CaseView:
    """What a student may see of one case: everything if public, the status if hidden."""

    name: str
    function: str
    public: bool
    status: str
    score: float
    max_score: float
    time_s: float
    call: str | None
    expected: str | None
    actual: str | None
    message: str
    diff: tuple[str, ...] | None = None  # ndiff lines for a failed public case with long values

    @classmethod
    def of(cls, test: TestResult) -> "CaseView":
        if test.visibility != "public":
            # Status only: the message and stdout of a hidden case may echo its inputs.
            return cls(test.name, test.function, False, test.status, test.score,
                       test.max_score, hidden_time(test.time_s), None, None, None, "")
        # A program's criteria (games, wording, style) have no call and may have no values.
        is_call = test.args is not None
        has_values = is_call or test.expected is not None or test.actual is not None
        shows_values = has_values and test.status in ("passed", "failed")
        diff = diff_lines(test.expected, test.actual) if shows_values and test.status == "failed" else None
        return cls(
            test.name, test.function, True, test.status, test.score, test.max_score,
            test.time_s, call_text(test) if is_call else None,
            typed(test.expected, test.actual, long_repr(test.expected)) if shows_values else (long_repr(test.expected) if has_values else None),
            typed(test.actual, test.expected, long_repr(test.actual)) if shows_values else None,
            test.message,
            tuple(diff) if diff else None,
        )


def mean(values: Sequence[float]) -> float | None:
    return statistics.fmean(values) if values else None


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


class BaseReporter:
    """Stores the report options; subclasses set ``name`` and implement ``write``."""

    name = ""

    def __init__(self, options: "Mapping[str, Any] | None" = None) -> None:
        self.options: dict[str, Any] = dict(options or {})
