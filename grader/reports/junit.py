"""JUnit XML for CI systems (GitLab, Jenkins, GitHub test reporters).

``<testsuites>`` holds one ``<testsuite>`` per submission; each case is a ``<testcase>``
with ``classname="<assignment>.<submission>.<function>"`` and ``name="<case>"``. A wrong
answer is a ``<failure>``; error, timeout, crashed and banned are ``<error>``s, so CI
tells "the code is wrong" from "the code did not run". Problems of the whole submission
(syntax error, missing function) are extra ``<error>`` test cases. Scores, per-function
scores and ban violations are ``<properties>`` of the suite; no score is computed here.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Sequence

from grader.judge.verdict import SubmissionResult, TestResult, hidden_time, shown_duration
from grader.reports._atomic import atomic_write_bytes
from grader.reports._common import (
    BaseReporter,
    CaseView,
    all_violations,
    fmt_score,
    function_names,
    short_repr,
    violation_location,
    violation_text,
)
from grader.spec.model import Spec

# Characters XML 1.0 cannot carry at all, even escaped; a student can print any of them.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: object) -> str:
    return _XML_ILLEGAL.sub("\ufffd", str(value))


def _component(value: str) -> str:
    """One dotted classname part: CI tools split classnames on dots."""
    return xml_text(value).replace(".", "_") or "_"


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: object) -> ET.Element:
    element = ET.SubElement(parent, tag, {k: xml_text(v) for k, v in attrs.items()})
    if text:
        element.text = xml_text(text)
    return element


def _outcome(case: ET.Element, test: TestResult) -> None:
    if test.passed:
        return
    view = CaseView.of(test)
    tag = "failure" if test.status == "failed" else "error"
    if not view.public:
        _sub(case, tag, message=f"hidden case {test.status}", type=test.status)
        return
    if test.status == "failed" and view.expected is not None:
        message = f"expected {short_repr(test.expected)}, got {short_repr(test.actual)}"
    else:
        message = view.message or test.status
    body = [f"{label}: {value}" for label, value in (("call", view.call), ("expected", view.expected)) if value is not None]
    if view.actual is not None:
        body.append(f"actual: {view.actual}")
    if view.message:
        body.append(view.message)
    _sub(case, tag, "\n".join(body), message=message, type=test.status)


class JUnitReporter(BaseReporter):
    """``DIR/junit.xml``."""

    name = "junit"

    def document(self, results: Sequence[SubmissionResult], spec: Spec) -> ET.Element:
        """The ``<testsuites>`` root for the whole batch."""
        root = ET.Element("testsuites", {"name": xml_text(spec.assignment)})
        totals = {"tests": 0, "failures": 0, "errors": 0, "time": 0.0}
        for result in results:
            suite = self._suite(root, result, spec)
            for key in ("tests", "failures", "errors"):
                totals[key] += int(suite.get(key, "0"))
            totals["time"] += float(suite.get("time", "0"))
        for key, value in totals.items():
            root.set(key, f"{value:.3f}" if key == "time" else str(value))
        return root

    def _suite(self, root: ET.Element, result: SubmissionResult, spec: Spec) -> ET.Element:
        prefix = f"{_component(spec.assignment)}.{_component(result.submission)}"
        suite = _sub(root, "testsuite", name=prefix)
        props = _sub(suite, "properties")
        _sub(props, "property", name="score", value=fmt_score(result.score))
        _sub(props, "property", name="max_score", value=fmt_score(result.max_score))
        for name in function_names(spec, [result]):
            fn = result.functions.get(name)
            if fn is not None:
                _sub(props, "property", name=f"score.{name}",
                     value=f"{fmt_score(fn.score)}/{fmt_score(fn.max_score)}")
        for i, violation in enumerate(all_violations(result), start=1):
            _sub(props, "property", name=f"violation.{i}",
                 value=f"{violation_location(violation, spec)}: {violation_text(violation)}")
        for i, note in enumerate((e for e in result.errors if e.is_note), start=1):
            _sub(props, "property", name=f"note.{i}", value=note.message)  # advice, never an <error>

        seen: set[tuple[str, str]] = set()

        def unique(classname: str, name: str) -> str:
            candidate, n = name, 1
            while (classname, candidate) in seen:
                n += 1
                candidate = f"{name} #{n}"
            seen.add((classname, candidate))
            return candidate

        counts = {"tests": 0, "failures": 0, "errors": 0}
        time = 0.0
        for error in (e for e in result.errors if not e.is_note):
            classname = prefix if error.function is None else f"{prefix}.{_component(error.function)}"
            case = _sub(suite, "testcase", classname=classname,
                        name=unique(classname, f"submission: {error.kind}"), time="0.000")
            detail = error.message + (f" (line {error.line})" if error.line else "")
            _sub(case, "error", detail, message=error.message, type=error.kind)
            counts["tests"] += 1
            counts["errors"] += 1
        for test in result.tests:
            classname = f"{prefix}.{_component(test.function)}"
            case = _sub(suite, "testcase", classname=classname,
                        name=unique(classname, test.name), time=f"{shown_time(test):.3f}")
            _outcome(case, test)
            counts["tests"] += 1
            time += shown_time(test)
            if test.status == "failed":
                counts["failures"] += 1
            elif not test.passed:
                counts["errors"] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
        suite.set("skipped", "0")
        suite.set("time", f"{max(time, shown_duration(result.duration_s)):.3f}")
        return suite

    def write(self, results: Sequence[SubmissionResult], spec: Spec, out_dir: Path) -> list[Path]:
        root = self.document(results, spec)
        ET.indent(root)
        data = ET.tostring(root, encoding="utf-8", xml_declaration=True)
        return [atomic_write_bytes(Path(out_dir) / "junit.xml", data + b"\n")]


def shown_time(test: TestResult) -> float:
    """A case's time as JUnit shows it: CI pages show it to the student (GitHub Classroom), so a
    hidden case's is coarse like everywhere a student looks (``hidden_time``)."""
    return test.time_s if test.visibility == "public" else hidden_time(test.time_s)
