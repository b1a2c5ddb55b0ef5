"""What a person at a terminal sees of a console program's output, line by line.

A program's output is not its screen: ``\\r``, backspaces and ANSI escape sequences let it print one
thing and show another (print a line for a parser, then erase it; print a total and overwrite it).
:class:`Terminal` renders the output as a terminal would, for the lines a transcript is read from:

* ``\\r`` returns to column 0 and later text overwrites; ``\\b`` moves back one column; ``\\t`` moves to
  the next multiple of 8; ``\\n`` ends the line (a terminal's ``onlcr``: the next line starts at column 0);
* CSI sequences that stay on the line are carried out: erase in line (``K``, ``1K``, ``2K``), cursor
  forward/back/to a column (``C``, ``D``, ``G``, and ``a``, `````), erase/delete/insert characters
  (``X``, ``P``, ``@``); colours and other text attributes (SGR, ``m``) are dropped, as is showing or
  hiding the cursor (``?25h``/``?25l``), window titles and hyperlinks (OSC), and other control characters;
* anything that leaves the line or changes what is drawn where, once something is on the screen (cursor
  up/down/to a position, erase in display, save/restore the cursor, scrolling, the alternate screen,
  another character set, vertical tab, form feed, an unknown sequence), cannot be rendered as lines:
  it is recorded in :attr:`Terminal.moves` so that the reader of the transcript can refuse to grade it.

The screen has no width: a line is as long as its text (the cursor alone, moved right, pads at most to
:data:`MAX_PAD` columns, so a program cannot make the grader build huge lines out of short sequences).
Wide characters take two columns, combining marks none. Generic: nothing here knows any assignment.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: The farthest column the cursor alone (CSI C/G, a tab) can move past the end of the line's text.
MAX_PAD = 256
#: Characters that need more than appending: controls, ESC, C1 controls and DEL.
_SPECIAL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
_CSI_END = re.compile(r"[\x40-\x7e]")
_CSI_BODY = re.compile(r"[\x30-\x3f]*[\x20-\x2f]*")
#: CSI sequences with no effect on the text shown: colours (SGR), showing/hiding or blinking the cursor,
#: its shape, queries the terminal answers on the program's input.
_HARMLESS_CSI = re.compile(r"[0-9;:]*m|\?(?:25|12)[hl]|[0-9]* q|[0-9;]*[nc]|>[0-9;]*c")
#: Escape sequences that are carried out on the line (final byte), with their default count.
_IN_LINE = set("KCDGa`XP@")
#: Two-character escapes that leave the line (save/restore, index, reverse index, next line, reset,
#: screen alignment) or draw other glyphs (shift out/in of a character set).
_MOVING_ESC = set("78DEMc#NOno|}~")


@dataclass(frozen=True)
class Move:
    """A sequence that rewrites or leaves the line, at ``line`` (1-based, the line being written)."""

    line: int
    sequence: str      # readable: "ESC[1A", "ESC 7", "\\x0b"

    def describe(self) -> str:
        return f"{self.sequence} at line {self.line}"


def readable(sequence: str) -> str:
    """An escape sequence as a person can read it in a message: ESC and other controls spelt out."""
    out = []
    for ch in sequence:
        if ch == "\x1b":
            out.append("ESC")
        elif ch == "\x9b":
            out.append("CSI")
        elif ord(ch) < 0x20 or 0x7f <= ord(ch) <= 0x9f:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return "".join(out)[:40]


def _width(ch: str) -> int:
    if ch.isascii():
        return 1
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


class Terminal:
    """Feed output (and the echo of what was typed) in order; completed lines come back from :meth:`feed`."""

    def __init__(self) -> None:
        self._cells: list[str] = []     # the line being written, one string per column ("" after a wide char)
        self._col = 0
        self._pending = ""              # an escape sequence cut off at the end of a chunk
        self._lines = 0                 # lines completed so far
        self._shown = False             # something other than blanks is on the screen
        self.moves: list[Move] = []

    @property
    def current(self) -> str:
        """The line being written, as shown now."""
        return "".join(self._cells)

    def feed(self, text: str) -> list[str]:
        """Render ``text``; the lines it completed, as shown."""
        if self._pending:
            text, self._pending = self._pending + text, ""
        done: list[str] = []
        if "\n" not in text and not _SPECIAL.search(text):
            self._write(text)
            return done
        i, n = 0, len(text)
        special_at = -1                     # where the next special character is (n: none), searched once each
        while i < n:
            if special_at < i:
                special = _SPECIAL.search(text, i)
                special_at = special.start() if special else n
            stop = special_at
            newline = text.find("\n", i, stop)
            if newline >= 0:
                stop = newline
            if stop > i:
                self._write(text[i:stop])
            if stop >= n:
                break
            ch = text[stop]
            if ch == "\n":
                done.append(self._end_line())
                i = stop + 1
            elif ch in "\x1b\x9b":
                end = self._escape(text, stop)
                if end is None:         # cut off: wait for the rest
                    self._pending = text[stop:]
                    break
                i = end
            else:
                self._control(ch)
                i = stop + 1
        return done

    def end_line(self) -> str:
        """End the line being written (as a typed Enter does) and return it as shown."""
        return self._end_line()

    # ------------------------------------------------------------------ rendering

    def _end_line(self) -> str:
        line = "".join(self._cells)
        if line.strip():
            self._shown = True
        self._cells, self._col = [], 0
        self._lines += 1
        return line

    def _write(self, text: str) -> None:
        cells = self._cells
        if text.isascii():
            col, end = self._col, self._col + len(text)
            if col < len(cells):            # over what is there: a wide character half covered goes blank
                self._clear_wide(col)
                self._clear_wide(end - 1)
            elif col > len(cells):
                cells.extend(" " * (col - len(cells)))
            cells[col:end] = text
            self._col = end
            return
        for ch in text:
            width = _width(ch)
            if width == 0:
                if self._col > 0 and self._col <= len(cells):
                    cells[self._col - 1] += ch      # a combining mark joins the character before it
                continue
            self._clear_wide(self._col)
            if width == 2:
                self._clear_wide(self._col + 1)
            self._put(self._col, ch)
            if width == 2:
                self._put(self._col + 1, "")
            self._col += width

    def _put(self, col: int, value: str) -> None:
        cells = self._cells
        if col < len(cells):
            cells[col] = value
        else:
            cells.extend(" " * (col - len(cells)))
            cells.append(value)

    def _clear_wide(self, col: int) -> None:
        """Overwriting either half of a wide character blanks the other half."""
        cells = self._cells
        if col < len(cells) and cells[col] == "" and col > 0:
            cells[col - 1] = " "
        if col + 1 < len(cells) and cells[col + 1] == "":
            cells[col + 1] = " "

    def _to(self, col: int) -> None:
        self._col = max(0, min(col, max(len(self._cells) + 8, MAX_PAD)))

    def _control(self, ch: str) -> None:
        if ch == "\r":
            self._col = 0
        elif ch == "\b":
            self._col = max(0, self._col - 1)
        elif ch == "\t":
            self._to((self._col // 8 + 1) * 8)
        elif ch in "\x0b\x0c\x0e\x0f":     # down a line keeping the column; another character set
            self._move(ch)
        # any other control character shows nothing

    def _move(self, sequence: str) -> None:
        if self._shown or "".join(self._cells).strip():
            self.moves.append(Move(self._lines + 1, readable(sequence)))

    def _escape(self, text: str, at: int) -> int | None:
        """Carry out the escape sequence at ``at``; where the text goes on, None when it is cut off."""
        if text[at] == "\x9b":
            return self._csi(text, at, at + 1)
        if at + 1 >= len(text):
            return None
        kind = text[at + 1]
        if not " " <= kind <= "~":         # a control or non-ASCII character cuts the sequence: no line is sure
            self._move(text[at:at + 2])
            return at + 1
        if kind == "[":
            return self._csi(text, at, at + 2)
        if kind in "]PX^_":                 # OSC, DCS, SOS, PM, APC: a string up to BEL or ESC \ , not shown
            end = re.compile(r"\x07|\x1b\\|\x9c").search(text, at + 2)
            if end is None:
                return None if len(text) - at < 4096 else len(text)
            return end.end()
        if kind in "()*+-./":               # designate a character set: only ASCII ("B") draws the same glyphs
            if at + 2 >= len(text):
                return None
            if text[at + 2] not in "B":
                self._move(text[at:at + 3])
            return at + 3
        if kind in " %":                    # other designations: two characters follow ESC
            return at + 3 if at + 2 < len(text) else None
        if kind in _MOVING_ESC:
            self._move(text[at:at + 2])
        return at + 2                       # keypad modes (ESC = / ESC >) and the rest: nothing shown

    def _csi(self, text: str, at: int, body: int) -> int | None:
        end = _CSI_END.search(text, body)
        if end is None:
            return None if len(text) - body < 64 else len(text)
        sequence = text[at:end.end()]
        params, final = text[body:end.start()], end.group()
        if not _CSI_BODY.fullmatch(params):   # a control inside the sequence: a terminal would run it there
            self._move(sequence)
            return end.end()
        if _HARMLESS_CSI.fullmatch(params + final):
            return end.end()
        if final not in _IN_LINE or not re.fullmatch(r"[0-9]*", params):
            self._move(sequence)
            return end.end()
        count = int(params[:6]) if params else 0
        cells = self._cells
        if final == "K":
            if count == 0:
                del cells[self._col:]
            elif count == 1:
                for col in range(min(self._col + 1, len(cells))):
                    cells[col] = " "
            elif count == 2:
                cells.clear()
            else:
                self._move(sequence)
        elif final in "Ca":
            self._to(self._col + max(count, 1))
        elif final == "D":
            self._to(self._col - max(count, 1))
        elif final in "G`":
            self._to(max(count, 1) - 1)
        elif final == "X":
            for col in range(self._col, min(self._col + max(count, 1), len(cells))):
                cells[col] = " "
        elif final == "P":
            del cells[self._col:self._col + max(count, 1)]
        elif final == "@" and self._col < len(cells):      # the line's end falls off the right margin
            width = max(len(cells), MAX_PAD)
            cells[self._col:self._col] = [" "] * min(max(count, 1), MAX_PAD)
            del cells[width:]
        return end.end()


def render(text: str) -> tuple[list[str], list[Move]]:
    """All of ``text`` as shown: its lines (the last one even without a line break) and the moves it made."""
    terminal = Terminal()
    lines = terminal.feed(text)
    lines.append(terminal.end_line())
    return lines, terminal.moves
