"""Drive one interactive session of any console program and record it.

The program is fed only when the kernel says it is blocked reading its standard input
(:meth:`grader.run.process.Program.read_turn`); the player (the assignment's plug-in)
decides *what* to answer from what was printed. Everything is recorded with its time as a
:class:`Transcript`, and a real crash (an uncaught exception, a non-zero exit, a signal) is
told apart from the grader losing track of the program, which is never the student's fault.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Collection, Literal

from .terminal import Move, Terminal

if TYPE_CHECKING:
    from grader.languages import Language

Ended = Literal["exit", "timeout", "session_limit", "stopped", "lost", "output_limit"]


@dataclass(frozen=True)
class Event:
    at: float          # seconds since the program started
    stream: str        # "out" (what the program printed) | "in" (what the grader sent)
    text: str


@dataclass(frozen=True)
class Transcript:
    events: tuple[Event, ...]
    ended: Ended
    note: str = ""                 # why the session ended early, in the student's words
    exit_code: int | None = None
    signal: str = ""               # "crashed (SIGSEGV)", "cpu time limit", ...
    stderr: str = ""
    cpu_s: float = 0.0             # measured by the kernel, from outside
    wall_s: float = 0.0

    @property
    def output(self) -> str:
        return "".join(e.text for e in self.events if e.stream == "out")

    def lines(self) -> list[str]:
        """What a console showed, line by line, the answers on the lines of their prompts (see :meth:`screen`)."""
        return self.screen()[0]

    def screen(self) -> tuple[list[str], list[Move]]:
        """The lines a person at a terminal saw (``\\r`` and backspaces overwrite, colours dropped), and the
        cursor moves off the line that make the output unreadable as lines (:mod:`grader.programs.terminal`)."""
        terminal = Terminal()
        lines: list[str] = []
        for event in self.events:
            lines += terminal.feed(event.text)
            if event.stream == "in":        # the answer is echoed where the cursor is, then Enter
                lines.append(terminal.end_line())
        lines.append(terminal.end_line())
        return lines, terminal.moves

    def segments(self) -> tuple[list[list[str]], list[Move]]:
        """What a console showed between the answers, rendered as :meth:`screen` renders it: for each answer the
        lines shown since the one before, the last of them the prompt's line as it stood when the answer was typed
        (without the answer), then the lines shown after the last answer; and the cursor moves off the line."""
        terminal = Terminal()
        parts: list[list[str]] = [[]]
        for event in self.events:
            if event.stream == "in":
                parts[-1].append(terminal.current)
                terminal.feed(event.text)
                terminal.end_line()
                parts.append([])
            else:
                parts[-1] += terminal.feed(event.text)
        parts[-1].append(terminal.end_line())
        return parts, terminal.moves


@dataclass(frozen=True)
class Crash:
    status: str        # crashed | timeout
    message: str
    line: int | None = None


def drive(program: Any, player: Any, *, step_s: float, session_s: float, max_inputs: int) -> Transcript:
    """Play a whole session against ``program`` until it exits or the session must end."""
    from .plugin import Stop

    events: list[Event] = []
    ended: Ended = "exit"
    note = ""
    inputs = 0
    while True:
        left = session_s - (events[-1].at if events else 0.0)
        turn = program.read_turn(max(0.0, min(step_s, left)))
        if turn.text:
            events.append(Event(turn.at, "out", turn.text))
        if getattr(program, "truncated", False):
            ended, note = "output_limit", "the program printed more than the output limit"
            break
        if turn.state == "exit":
            break
        if turn.state == "timeout":
            ended = "session_limit" if turn.at >= session_s - 1e-3 else "timeout"
            note = (f"the session took longer than {session_s:g} s" if ended == "session_limit" else
                    f"no output, no input and no exit for {step_s:g} s")
            break
        inputs += 1
        reply = player.answer(turn.text) if inputs <= max_inputs else Stop(f"the program asked for more than {max_inputs} answers")
        if isinstance(reply, Stop):
            ended, note = ("lost" if reply.by_grader else "stopped"), reply.reason
            break
        events.append(Event(turn.at, "in", reply))
        if not program.send(reply + "\n"):
            break
    if program.poll() is None:
        program.close_stdin()
        # a program that closed its output is exiting: let it, so the kernel accounts its CPU time
        if program.wait(step_s if ended == "exit" else 0.2) is None:
            program.kill("stopped by the grader")
    return Transcript(tuple(events), ended, note, program.returncode, program.killed_reason if ended == "exit" else "",
                      program.stderr, program.time_s, (events[-1].at if events else 0.0))


def find_crash(transcript: Transcript, sources: Collection[str], language: Language) -> Crash | None:
    """A real crash of the program (exception, non-zero exit, signal) or its hang; never the grader's own stop.

    The language reads its own error output (a Python traceback, a Java stack trace) for the line and the exception.
    """
    found = language.uncaught(transcript.stderr, sources)
    line, exception = found.line, found.exception
    at_line = f" at line {line}" if line else ""
    if transcript.ended in ("timeout", "session_limit"):
        return Crash("timeout", transcript.note)
    if transcript.ended == "output_limit":
        return Crash("crashed", transcript.note)
    if transcript.ended != "exit":
        return None
    if transcript.signal and transcript.signal != "stopped by the grader":
        return Crash("crashed", f"{transcript.signal}{at_line}", line)
    if found.raised:
        return Crash("crashed", f"uncaught exception{at_line}: {exception}", line)
    if transcript.exit_code not in (0, None):
        return Crash("crashed", f"exit code {transcript.exit_code}{at_line}" + (f": {exception}" if exception else ""), line)
    return None
