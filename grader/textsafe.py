"""Student-chosen text made harmless for a terminal and for a spreadsheet.

A submission's id is a file or folder name the student picked, and its output, exception
messages and values are the student's too.  Printed raw, ``"\\x1b[2K\\rtop_student: 60/50"``
erases the line and forges a score; opened in a spreadsheet, ``=HYPERLINK(...)`` runs.
So text bound for a terminal shows every control character (C0, DEL, C1, ESC sequences,
bidirectional overrides) as a visible escape, and so does a CSV cell (CSV files get read
with ``cat`` too); a CSV cell that a spreadsheet would read as a formula, at its start or
after any separator a spreadsheet splits on, is defused with a leading apostrophe.
"""
from __future__ import annotations

import re

# C0 controls, DEL, C1 controls, and the Unicode bidi/isolate overrides that reorder a line.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_CONTROL_KEEP_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str, *, keep_lines: bool = False) -> str:
    """``text`` with every control character shown as ``\\xNN``/``\\uNNNN`` (newlines and tabs
    kept when ``keep_lines``: for multi-line output, never for an id)."""
    pattern = _CONTROL_KEEP_LINES if keep_lines else _CONTROL
    return pattern.sub(_escape, str(text))


# A spreadsheet may split a cell on any of these when it imports or pastes text.
_SEPARATORS = ",;\t|\r\n"
_FORMULA_TRIGGERS = "=+-@"
_DANGER = re.compile(rf"(^|[{re.escape(_SEPARATORS)}])(\s*)([{re.escape(_FORMULA_TRIGGERS)}\t\r])")


def csv_safe(text: str) -> str:
    """A text cell no spreadsheet runs as a formula and no terminal runs as a command (``cat
    grades.csv``): control characters shown as escapes (newlines and tabs kept), then an
    apostrophe before every formula start, at the beginning of the cell and after any
    separator inside it."""
    shown = terminal_safe(text, keep_lines=True)
    return _DANGER.sub(lambda m: f"{m.group(1)}{m.group(2)}'{m.group(3)}", shown)
