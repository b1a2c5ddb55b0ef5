"""Where a file stops parsing, shown the way Python shows it: the line, and a caret under the spot.

The parent parses the student's source itself (compiling to an AST runs nothing), so the
excerpt does not depend on what the sandboxed child reports.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class SyntaxProblem:
    message: str        # Python's own words: "expected ':'"
    lineno: int | None
    excerpt: str        # the offending line and a caret under the column, or ""


def excerpt(text: str | None, offset: int | None) -> str:
    """``    def war(a, b)`` over ``                 ^``, indentation kept relative."""
    if not text:
        return ""
    line = text.rstrip("\n").expandtabs(4)
    stripped = line.lstrip()
    indent = len(line) - len(stripped)
    shown = "    " + stripped
    if not offset or offset < 1:
        return shown
    column = max(0, min(offset - 1 - indent, len(stripped)))
    return f"{shown}\n    {' ' * column}^"


def syntax_problem(source: str, filename: str) -> SyntaxProblem | None:
    """The first syntax error of ``source``, or None when it parses."""
    try:
        ast.parse(source, filename=filename)
    except SyntaxError as exc:
        return SyntaxProblem(str(exc.msg), exc.lineno, excerpt(exc.text, exc.offset))
    except (ValueError, RecursionError, MemoryError) as exc:   # NUL bytes, absurd nesting
        return SyntaxProblem(f"{type(exc).__name__}: {exc}", None, "")
    return None
