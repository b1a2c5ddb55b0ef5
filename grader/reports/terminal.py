"""Console output with rich: the class summary table and the student self-check.

Everything from a submission goes into ``rich.text.Text`` objects, never into markup
strings, so a student's ``"[red]"`` is printed as typed. Of hidden cases the self-check
shows the count and the statuses, nothing else.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any, Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from grader.judge.verdict import SubmissionResult, TestResult
from grader.reports._common import (
    BaseReporter,
    all_violations,
    call_text,
    diff_lines,
    fmt_score,
    function_names,
    hidden_tests,
    not_run_message,
    public_tests,
    score_line,
    status_summary,
    typed,
    violation_location,
    violation_text,
)
from grader.spec.model import Spec
from grader.textsafe import terminal_safe

STATUS_STYLE = {
    "passed": "green", "failed": "red", "error": "magenta",
    "timeout": "yellow", "banned": "red", "crashed": "magenta",
}
STATUS_MARK = {"passed": "✓", "failed": "✗"}


def render_summary(results: Sequence[SubmissionResult], spec: Spec) -> Table:
    """The class table: one row per submission, one column per function."""
    names = function_names(spec, results)
    table = Table(title=Text(f"{spec.title or spec.assignment}: {len(results)} submissions"))
    table.add_column("id", no_wrap=True)
    table.add_column("score", justify="right")
    for name in names:
        table.add_column(Text(name), justify="right")
    table.add_column("errors")
    for r in results:
        cells = [Text(terminal_safe(r.submission)), Text(f"{fmt_score(r.score)}/{fmt_score(r.max_score)}")]
        for name in names:
            fn = r.functions.get(name)
            cell = Text(fmt_score(fn.score) if fn else "-")
            if fn is not None and fn.violations:
                cell.append(" ban", style="red")
            cells.append(cell)
        errors = terminal_safe("; ".join(e.kind for e in r.errors if not e.is_note))
        cells.append(Text(errors, style="red" if errors else ""))
        table.add_row(*cells)
    return table


def value_diff(expected: Any, actual: Any) -> Text:
    """Expected against actual, readable: side by side when short, an ndiff when long."""
    lines = diff_lines(expected, actual)
    text = Text()
    if lines is None:
        text.append("    expected: ", style="dim").append(typed(expected, actual) + "\n")
        text.append("    actual:   ", style="dim").append(typed(actual, expected))
        return text
    text.append("    - expected   + actual\n", style="dim")
    for line in lines:
        style = {"-": "red", "+": "green", "?": "yellow"}.get(line[:1], "")
        text.append(f"    {terminal_safe(line)}\n", style=style)
    text.rstrip()
    return text


def _case(test: TestResult, many_answers: bool = False) -> RenderableType:
    """One case; for a function with many right answers (a validator) the rule broken is
    shown, never one sample answer as if it were the only one."""
    style = STATUS_STYLE.get(test.status, "")
    head = Text()
    head.append(f"{STATUS_MARK.get(test.status, '!')} ", style=style)
    head.append(terminal_safe(f"{test.function} {test.name}"), style="bold")
    head.append(f"  {test.status}", style=style)
    head.append(f"  {test.time_s * 1000:.1f} ms", style="dim")
    if test.passed:
        return head
    parts: list[RenderableType] = [head]
    if test.args is not None:  # a function call; a program's criteria have none
        parts.append(Text("    call: ", style="dim").append(terminal_safe(call_text(test))))
        if test.status == "failed" and many_answers:
            parts.append(Text("    your answer: ", style="dim").append(terminal_safe(repr(test.actual))))
        elif test.status == "failed":
            parts.append(value_diff(test.expected, test.actual))
        elif not many_answers:
            parts.append(Text("    expected: ", style="dim").append(repr(test.expected)))
    elif test.status == "failed" and (test.expected is not None or test.actual is not None):
        parts.append(value_diff(test.expected, test.actual))
    # The diff above already says "expected X, got Y"; repeat only what adds to it.
    restates_diff = test.status == "failed" and test.args is not None and test.message.startswith("expected ") and not many_answers
    if test.message and not restates_diff:
        parts.append(Text("    " + terminal_safe(test.message, keep_lines=True), style=style))
    return Group(*parts)


def render_check(result: SubmissionResult, spec: Spec, hidden_cases: int = 0) -> Group:
    """The student self-check: public cases in full, hidden ones by count and status.

    ``hidden_cases`` counts the cases the self-check did not run: the score is then labelled
    as the public cases' only, with a line saying the hidden ones are graded on submission.
    """
    parts: list[RenderableType] = [Text(f"{spec.title or spec.assignment}: {terminal_safe(result.submission)}", style="bold")]
    for error in result.errors:
        mark = Text("note: ", style="yellow") if error.is_note else Text("! ", style="red")
        line = mark.append(terminal_safe(error.message, keep_lines=True))
        if error.line:
            line.append(f" (line {error.line})")
        parts.append(line)
        if error.excerpt:
            parts.append(Text(error.excerpt))
    for name in function_names(spec, [result]):
        fn = result.functions.get(name)
        tests = [t for t in public_tests(result) if t.function == name]
        if fn is None and not tests:
            continue
        title = Text(f"\n{name}", style="bold underline")
        if fn is not None:
            title.append(f"  {fmt_score(fn.score)}/{fmt_score(fn.max_score)}")
            if fn.extra_credit:
                title.append("  extra credit", style="cyan")
            if fn.found_as and fn.found_as != name:
                title.append(f"  (found as {terminal_safe(fn.found_as)})", style="dim")
        parts.append(title)
        not_run = not_run_message(tests)
        if not_run:
            parts.append(Text(f"  {len(tests)} public case(s) {not_run}", style="dim"))
        else:
            many = _many_answers(spec, name)
            parts.extend(_case(test, many) for test in tests)
    violations = all_violations(result)
    if violations:
        parts.append(Text("\nBanned functions", style="bold red"))
        for v in violations:
            line = Text(terminal_safe(f"  {violation_location(v, spec)}: ")).append(terminal_safe(violation_text(v)))
            if v.source_line.strip():
                line.append(f"\n      {terminal_safe(v.source_line.strip())}", style="dim")
            parts.append(line)
    hidden = hidden_tests(result)
    if hidden:
        parts.append(Text(f"\nHidden cases: {len(hidden)} ({status_summary(hidden)})"))
    if hidden_cases:
        parts.append(Text(f"\n{score_line(result)} on the public cases only", style="bold"))
        parts.append(Text(f"{hidden_cases} hidden case(s) were not run here; they will be graded when you submit."))
    else:
        parts.append(Text(f"\n{score_line(result)}", style="bold"))
    return Group(*parts)


def _many_answers(spec: Spec, name: str) -> bool:
    """Whether the function is judged by a rule (a validator, or one of several answers)."""
    try:
        return spec.function(name).compare.mode in ("validator", "one_of")
    except KeyError:
        return False


def render_to_text(renderable: RenderableType, width: int = 100) -> str:
    """Plain text of a renderable, as a log file or a test sees it."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


class TerminalReporter(BaseReporter):
    """Prints the class summary table; option ``console`` is the rich Console to print on."""

    name = "terminal"

    def write(self, results: Sequence[SubmissionResult], spec: Spec, out_dir: Path) -> list[Path]:
        console = self.options.get("console") or Console()
        console.print(render_summary(results, spec))
        return []
