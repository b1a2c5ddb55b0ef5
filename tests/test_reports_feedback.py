"""Student-facing text: Markdown feedback and the rich self-check / class table."""
from __future__ import annotations

import importlib.util
import io
from pathlib import Path

from rich.console import Console

from grader.reports import render_check, render_feedback, render_summary, write_reports
from grader.reports.markdown import md_block, md_code
from grader.reports.terminal import TerminalReporter, render_to_text

FIXTURES = Path(__file__).parent / "fixtures" / "reports"
_spec = importlib.util.spec_from_file_location("reports_batch_feedback", FIXTURES / "batch.py")
batch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)

RESULTS = batch.make_batch()
SPEC = batch.make_spec()
ALICE, BOB, CAROL, DAVE, EVE, MALLORY = RESULTS


# ------------------------------------------------------------------ markdown

def test_markdown_files_per_student(tmp_path):
    written = write_reports(RESULTS, SPEC, tmp_path, ["markdown"])
    feedback = sorted(p for p in written if p.parent.name == "feedback")
    assert len(feedback) == len(RESULTS)
    assert (tmp_path / "feedback" / "bob.md").read_text() == render_feedback(BOB, SPEC)


def test_markdown_shows_score_table_and_failed_public_cases():
    text = render_feedback(BOB, SPEC)
    assert "**Score: 10 / 20**" in text
    assert "| `scrabbleScore` | 5 / 10 | 1/2 passed | 1/2 passed |  |" in text
    assert "| `bonus` | 0 / 5 | 0/1 passed | 0/1 passed | extra credit |" in text
    assert "### `scrabbleScore` multiline: failed" in text
    assert "```python\nscrabbleScore(1, 2)\n```" in text
    assert "```diff\n  line one\n- line two\n+ line 2\n  line three\n```" in text
    assert "4 hidden cases: 1 passed, 2 failed, 1 timeout." in text
    assert "handout\\_example" not in text  # passed public cases are not listed as failures


def test_markdown_violations_errors_and_aliases():
    carol = render_feedback(CAROL, SPEC)
    assert "- `hw_demo.py:12:11`: uses builtins\\.sum `return sum(xs)`" in carol
    assert "found as `scrabble_score`" in carol
    assert "banned: `builtins.sum`" in carol
    dave = render_feedback(DAVE, SPEC)
    assert "## Problems with the submission" in dave
    assert "- `function sum_list is not defined`" in dave
    assert "| `sum_list` | 0 / 10 | 0/1 passed | 0/1 passed | not found |" in dave
    assert "`invalid syntax` (line 3)" in render_feedback(EVE, SPEC)


def test_markdown_keeps_student_text_inert():
    text = render_feedback(MALLORY, SPEC)
    for line in text.splitlines():
        if "<script>" in line:
            # Only ever inside a fenced block.
            before = text[: text.index(line)]
            assert before.count("```") % 2 == 1, line
    assert md_code("a`b") == "``a`b``"
    assert md_code("x|y", in_table=True) == "`x\\|y`"
    assert md_block("```\nrm -rf").startswith("````\n")
    assert md_block("a\x1b[2Jb\n\u202ec") == "```\na\\x1b[2Jb\n\\u202ec\n```"   # no terminal escape, no reordering
    assert md_code("x\x1b]0;title\x07") == "`x\\x1b]0;title\\x07`"


# ------------------------------------------------------------------ terminal

def test_check_shows_public_cases_with_a_diff_and_a_score_line():
    text = render_to_text(render_check(BOB, SPEC))
    assert "✓ scrabbleScore handout_example  passed" in text
    assert "✗ scrabbleScore multiline  failed" in text
    assert "    - line two\n    + line 2" in text
    assert "ms" in text
    assert "Hidden cases: 4 (1 passed, 2 failed, 1 timeout)" in text
    assert text.rstrip().endswith("Score: 10 / 20")


def test_check_long_values_get_a_line_diff():
    text = render_to_text(render_check(BOB, SPEC))
    assert "-  32, 33, 34, 35, 36, 37, 38, 39]" in text
    assert "+  32, 33, 34, 35, 36, 37, 38, 99]" in text


def test_check_short_values_side_by_side_and_problems():
    text = render_to_text(render_check(MALLORY, SPEC))
    assert "expected: 3" in text
    assert "[red]boom[/red]" in text  # printed as typed, not interpreted as markup
    carol = render_to_text(render_check(CAROL, SPEC))
    assert "hw_demo.py:12:11: uses builtins.sum" in carol and "return sum(xs)" in carol
    assert "(found as scrabble_score)" in carol
    dave = render_to_text(render_check(DAVE, SPEC))
    assert "! function sum_list is not defined" in dave


def test_check_never_names_hidden_cases():
    for result in RESULTS:
        text = render_to_text(render_check(result, SPEC))
        for test in result.tests:
            if test.visibility == "hidden":
                assert test.name not in text


def test_class_table_and_terminal_reporter():
    text = render_to_text(render_summary(RESULTS, SPEC), width=160)
    assert "scrabbleScore" in text and "10 ban" in text and "syntax" in text
    buffer = io.StringIO()
    console = Console(file=buffer, width=160, color_system=None)
    assert TerminalReporter({"console": console}).write(RESULTS, SPEC, Path("unused")) == []
    assert "25/20" in buffer.getvalue() and "mal/../<b>lory</b>" in buffer.getvalue()
