"""Run an assignment's public cases as pytest tests.

    pytest --grader-spec SPEC --submission FILE

Each public case becomes one test with the node id ``SPEC::function::case``. The
submission is graded once per session, by the same sandboxed pipeline as
``grader check`` (:func:`grader.check.check_result`: public cases only, hidden ones are
never run), and every verdict is mapped to its test. A failing test shows the call,
expected against actual (with a diff for long values), the exception and the student's
line, and what the code printed.

With ``--grader-spec`` and no paths on the command line, only the spec is collected (not
the tests of the folder you are in); with explicit paths, the spec is collected as well.
The plugin is registered through the ``pytest11`` entry point ``grader``; without the
options it does nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import pytest

from grader.judge.verdict import SubmissionResult, TestResult

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("grader", "grader: an assignment's public cases as tests")
    group.addoption("--grader-spec", metavar="SPEC", default=None,
                    help="assignment spec (or a student bundle's spec.yaml) whose public cases become tests")
    group.addoption("--submission", metavar="FILE", default=None,
                    help="the file to test against --grader-spec")


@dataclass
class GraderRun:
    """One session's grading: the spec, the file, and the verdicts, computed once."""

    spec_path: Path
    submission: Path
    shown_spec: str
    graded: bool = False
    result: SubmissionResult | None = None
    error: str = ""
    verdicts: dict[tuple[str, str], TestResult] = field(default_factory=dict)

    def grade(self) -> SubmissionResult:
        if not self.graded:
            self.graded = True
            from grader.check import check_result
            from grader.errors import GraderError
            from grader.spec.problems import SpecError

            try:
                self.result, _ = check_result(str(self.spec_path), str(self.submission))
            except SpecError as exc:
                self.error = "\n".join(str(p) for p in exc.problems)
            except GraderError as exc:
                self.error = f"grader: {exc}"
            else:
                self.verdicts = {(t.function, t.name): t for t in self.result.tests if t.visibility == "public"}
        if self.result is None:
            raise GradingFailed(self.error or "the submission could not be graded")
        return self.result


RUN_KEY = pytest.StashKey[GraderRun]()


def pytest_configure(config: pytest.Config) -> None:
    spec = config.getoption("grader_spec")
    submission = config.getoption("submission")
    if not spec:
        if submission:
            raise pytest.UsageError("--submission needs --grader-spec SPEC")
        return
    if not submission:
        raise pytest.UsageError("--grader-spec needs --submission FILE (the file to test)")
    here = config.invocation_params.dir
    spec_path = (here / spec).resolve()
    submission_path = (here / submission).resolve()
    if not spec_path.is_file():
        raise pytest.UsageError(f"--grader-spec: no such file: {spec}")
    if not submission_path.is_file():
        raise pytest.UsageError(f"--submission: no such file: {submission}")
    config.stash[RUN_KEY] = GraderRun(spec_path, submission_path, spec)
    if config.args_source == pytest.Config.ArgsSource.ARGS:
        config.args.append(str(spec_path))
    else:  # no paths given: run the spec alone, not whatever tests live in this folder
        config.args[:] = [str(spec_path)]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    run = parent.config.stash.get(RUN_KEY, None)
    if run is None or file_path.resolve() != run.spec_path:
        return None
    try:
        nodeid = str(file_path.relative_to(parent.config.rootpath))
    except ValueError:
        nodeid = run.shown_spec
    return SpecFile.from_parent(parent, path=file_path, nodeid=nodeid.replace("\\", "/"))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    run = config.stash.get(RUN_KEY, None)
    if run is None or run.result is None:
        return
    from grader.reports._common import fmt_score

    result = run.result
    public = list(run.verdicts.values())
    passed = sum(t.passed for t in public)
    score = sum(t.score for t in public)
    possible = sum(t.max_score for t in public)
    tr = terminalreporter
    tr.write_sep("-", "grader")
    tr.write_line(f"{run.submission.name} on {run.shown_spec}: {passed}/{len(public)} public cases passed, "
                  f"{fmt_score(score)}/{fmt_score(possible)} points on them (hidden cases are not run here)")
    for error in result.errors:
        tr.write_line(f"  {'note' if error.kind == 'note' else 'problem'}: {error.message}")
    if result.isolation:
        tr.write_line(f"  isolation: {result.isolation}")


class GradingFailed(Exception):
    """The submission could not be graded at all (bad spec, unreadable file, no sandbox)."""


class CaseFailed(Exception):
    def __init__(self, test: TestResult, result: SubmissionResult):
        super().__init__(test.message or test.status)
        self.test = test
        self.result = result


class SpecFile(pytest.File):
    """A spec: one collector per function that has public cases."""

    def collect(self) -> Iterator[pytest.Collector]:
        from grader.spec.loader import load_spec
        from grader.spec.problems import SpecError

        try:
            spec = load_spec(self.path)
        except SpecError as exc:
            raise self.CollectError("the spec is invalid:\n" + "\n".join(str(p) for p in exc.problems)) from None
        if spec.kind != "functions":
            raise self.CollectError(f"{spec.assignment} is a {spec.kind} assignment; the pytest plugin runs function cases only")
        for fn in spec.functions:
            cases = [c for c in fn.cases if c.visibility == "public"]
            if cases:
                yield FunctionNode.from_parent(self, name=fn.name, cases=cases)


class FunctionNode(pytest.Collector):
    def __init__(self, *, cases: list[Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cases = cases

    def collect(self) -> Iterator[pytest.Item]:
        for case in self.cases:
            yield CaseItem.from_parent(self, name=case.name, function=self.name, args=case.args)


class CaseItem(pytest.Item):
    def __init__(self, *, function: str, args: tuple[Any, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.function = function
        self.args = args

    @property
    def run(self) -> GraderRun:
        return self.config.stash[RUN_KEY]

    def runtest(self) -> None:
        result = self.run.grade()
        test = self.run.verdicts.get((self.function, self.name))
        if test is None:
            raise GradingFailed(f"the grader gave no verdict for {self.function}: {self.name}")
        self.user_properties += [("score", test.score), ("max_score", test.max_score), ("status", test.status)]
        if not test.passed:
            raise CaseFailed(test, result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, CaseFailed):
            return describe_failure(excinfo.value.test, excinfo.value.result, self.run.submission)
        if isinstance(excinfo.value, GradingFailed):
            return f"{self.call_text()}: not graded\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def call_text(self) -> str:
        return f"{self.function}({', '.join(repr(a) for a in self.args)})"

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.function}: {self.name}"


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


KIND_NAMES = {"syntax": "syntax error", "import-error": "error while importing", "timeout": "timed out while importing",
              "crashed": "crashed while importing", "missing-function": "missing function"}


def _source_line(path: Path | None, line: int | None) -> str:
    if path is None or not line:
        return ""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def describe_failure(test: TestResult, result: SubmissionResult, submission: Path | None = None) -> str:
    """What a student needs to fix one case: the call, expected vs actual, the error and where."""
    from grader.reports._common import call_text, diff_lines, long_repr

    message = test.message.splitlines()
    lines = [f"{call_text(test)} {test.status}: {message[0] if message else test.status}", "expected:"]
    lines.append(_indent(long_repr(test.expected)))
    if test.status == "failed":
        lines.append("actual:")
        lines.append(_indent(long_repr(test.actual)))
        diff = diff_lines(test.expected, test.actual)
        if diff:
            lines.append("difference (- expected, + actual):")
            lines.append(_indent("\n".join(diff)))
    lines += message[1:]
    if test.stdout:
        shown = test.stdout if len(test.stdout) <= 2000 else test.stdout[:2000] + "\n... (cut)"
        lines.append("printed:")
        lines.append(_indent(shown.rstrip("\n")))
    for error in result.errors:
        if error.is_note or error.function not in (None, test.function):
            continue
        where = f" (line {error.line})" if error.line else ""
        lines.append(f"{KIND_NAMES.get(error.kind, error.kind)}: {error.message}{where}")
        source = _source_line(submission, error.line)
        if error.excerpt:
            lines.append(error.excerpt)
        elif source:
            lines.append(f"    line {error.line}: {source}")
    return "\n".join(lines)
