"""Per-student feedback in Markdown, paste-able into an LMS comment: ``DIR/feedback/<id>.md``.

Student-written text (returned values, exception messages, their source lines) only ever
appears inside code spans or fenced blocks, with fences longer than any backtick run in
it, so a student cannot inject links, HTML or table breaks into the comment.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from grader.judge.verdict import SubmissionResult
from grader.reports._atomic import atomic_write_text, safe_name
from grader.reports._common import (
    BaseReporter,
    CaseView,
    all_violations,
    banned_counts,
    fmt_score,
    function_names,
    hidden_tests,
    is_extra_credit,
    not_run_message,
    public_tests,
    score_line,
    status_summary,
    violation_location,
    violation_text,
)
from grader.spec.model import Spec
from grader.textsafe import terminal_safe

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")


def md_text(text: str) -> str:
    """Plain text with Markdown and HTML neutralised."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _fence_for(text: str, minimum: int) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(minimum, longest + 1)


def md_code(text: str, *, in_table: bool = False) -> str:
    """An inline code span that survives any backticks (and, in tables, pipes) in ``text``."""
    text = " ".join(terminal_safe(str(text)).split()) or " "
    fence = _fence_for(text, 1)
    if text.startswith("`") or text.endswith("`"):
        text = f" {text} "
    if in_table:
        text = text.replace("|", "\\|")
    return f"{fence}{text}{fence}"


def md_block(text: str, lang: str = "") -> str:
    """A fenced block: control codes shown as escapes (a feedback file is read with ``cat``
    too, and a bidi override would reorder what a browser shows), lines kept."""
    text = terminal_safe(text, keep_lines=True)
    fence = _fence_for(text, 3)
    return f"{fence}{lang}\n{text}\n{fence}"


def render_feedback(result: SubmissionResult, spec: Spec) -> str:
    """The whole feedback comment for one submission."""
    out: list[str] = [f"# {md_text(spec.title or spec.assignment)}", "",
                      f"**{score_line(result)}**", ""]
    problems = [e for e in result.errors if not e.is_note]
    advice = [e for e in result.errors if e.is_note]
    if problems:
        out += ["## Problems with the submission", ""]
        for error in problems:
            where = f" (line {error.line})" if error.line else ""
            out.append(f"- {md_code(error.message)}{where}")
            if error.excerpt:
                out += ["", md_block(error.excerpt), ""]
        out.append("")
    if advice:
        out += ["## Notes", ""]
        out += [f"- {md_text(e.message)}" for e in advice]
        out.append("")

    out += ["## Functions", "",
            "| Function | Score | Public cases | Hidden cases | Notes |",
            "|---|---:|---|---|---|"]
    for name in function_names(spec, [result]):
        fn = result.functions.get(name)
        tests = [t for t in result.tests if t.function == name]
        public = [t for t in tests if t.visibility == "public"]
        hidden = [t for t in tests if t.visibility != "public"]
        notes = []
        if is_extra_credit(spec, name, [result]):
            notes.append("extra credit")
        if fn is None or fn.found_as is None:
            notes.append("not found")
        elif fn.found_as != name:
            notes.append(f"found as {md_code(fn.found_as, in_table=True)}")
        if fn is not None and fn.violations:
            notes.append("banned: " + md_code(banned_counts(fn.violations), in_table=True))
        score = f"{fmt_score(fn.score)} / {fmt_score(fn.max_score)}" if fn else "-"
        out.append(
            f"| {md_code(name, in_table=True)} | {score} "
            f"| {_passed(public)} | {_passed(hidden)} | {'; '.join(notes)} |"
        )
    out.append("")

    violations = all_violations(result)
    if violations:
        out += ["## Banned functions", ""]
        for v in violations:
            line = f"- {md_code(violation_location(v, spec))}: {md_text(violation_text(v))}"
            if v.source_line.strip():
                line += f" {md_code(v.source_line.strip())}"
            out.append(line)
        out.append("")

    failed = [t for t in public_tests(result) if not t.passed]
    said: list[tuple[str, str]] = []
    for name in function_names(spec, [result]):
        why = not_run_message([t for t in failed if t.function == name])
        if why:
            said.append((name, why))
    if said:
        out += ["## Cases not run", ""]
        out += [f"- {md_code(name)}: {md_text(why)}" for name, why in said]
        out.append("")
    failed = [t for t in failed if t.function not in {name for name, _ in said}]
    if failed:
        out += ["## Failed public cases", ""]
        for test in failed:
            view = CaseView.of(test)
            out += [f"### {md_code(view.function)} {md_text(view.name)}: {view.status}", ""]
            if view.call is not None:
                out += ["Call:", "", md_block(view.call, "python"), ""]
            if view.expected is not None:
                out += ["Expected:", "", md_block(view.expected), ""]
            if view.actual is not None:
                out += ["Got:", "", md_block(view.actual), ""]
            if view.diff:
                out += ["Difference (`-` expected, `+` got):", "", md_block("\n".join(view.diff), "diff"), ""]
            if view.message:
                out += [md_block(view.message), ""]

    hidden = hidden_tests(result)
    if hidden:
        out += ["## Hidden cases", "",
                f"{len(hidden)} hidden cases: {status_summary(hidden)}.", ""]
        for name in function_names(spec, [result]):
            mine = [t for t in hidden if t.function == name]
            if mine:
                out.append(f"- {md_code(name)}: {status_summary(mine)}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _passed(tests: Sequence) -> str:
    if not tests:
        return "-"
    return f"{sum(1 for t in tests if t.passed)}/{len(tests)} passed"


class MarkdownReporter(BaseReporter):
    """``DIR/feedback/<id>.md`` per submission."""

    name = "markdown"

    def write(self, results: Sequence[SubmissionResult], spec: Spec, out_dir: Path) -> list[Path]:
        folder = Path(out_dir) / "feedback"
        return [atomic_write_text(folder / f"{safe_name(r.submission)}.md", render_feedback(r, spec))
                for r in results]
