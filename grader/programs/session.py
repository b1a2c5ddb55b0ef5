"""Drive one interactive session of a submission through the program API.

The driver reads until the program waits for input (a prompt, or the end of a game),
asks the player for an answer, sends it, and records everything as a transcript:
``("out", text, "")`` and ``("in", text, kind)`` items. It never sleeps a fixed time:
it reacts to output, and only falls back on a short quiet period for a prompt it does
not recognise.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .drivers import QUIT, Player
from .transcript import GameRecord, Session, TranscriptParser, classify_result, looks_like_prompt, normalize

QUIET_S = 0.4          # an unrecognised, unterminated line followed by this much silence is a prompt
MAX_INPUTS = 600       # a session never needs more answers than this


@dataclass
class RunRecord:
    """A finished session: the transcript, what it parsed to, and how the process ended."""

    items: list[tuple[str, str, str]]
    session: Session
    exit_code: int | None = None
    stderr: str = ""
    timed_out: bool = False
    killed_reason: str = ""
    time_s: float = 0.0
    problem: str = ""          # why the driver gave up, in the student's words
    quit_sent: bool = False


def waiting_for_input(fresh: str) -> bool:
    """True when ``fresh`` output ends where the program must be reading: a prompt or a game's result."""
    lines = fresh.replace("\r", "").split("\n")
    tail = lines[-1]
    if tail.strip() and looks_like_prompt(tail):
        return True
    complete = [line for line in lines[:-1] if line.strip()]
    if not complete:
        return False
    if any(classify_result(line) for line in complete) and not tail.strip():
        return True
    return not tail.strip() and looks_like_prompt(complete[-1])


def _session_over(fresh: str) -> bool:
    """After the quit answer: the goodbye line, or a new prompt (the program did not stop)."""
    lines = fresh.replace("\r", "").split("\n")
    return any("goodbye" in normalize(line) for line in lines[:-1]) or looks_like_prompt(lines[-1])


def expected_kind(parser: TranscriptParser, prompt: str) -> str:
    """What the program is asking for, from its prompt and the state of the game."""
    game: GameRecord | None = parser.game
    text = normalize(prompt)
    if game is None:
        return "stake"
    if game.result_kind is not None:
        return "again"
    if "action" in text:
        return "action"
    if "insur" in text or ("stake" in text and game.stake is not None):
        return "insurance"
    if "stake" in text or game.stake is None:
        return "stake"
    asked = {kind for kind, _ in game.inputs}
    if game.dealer_up and game.dealer_up.startswith("Ace") and not asked & {"insurance", "action"}:
        return "insurance"
    return "action"


def _exited(program: Any) -> bool:
    return program.poll() is not None


def _read_turn(program: Any, step_timeout: float) -> tuple[str, bool]:
    """Output up to the next input point: (text, True), or (text, False) at exit or timeout."""
    text = ""
    deadline = time.monotonic() + step_timeout
    while True:
        left = deadline - time.monotonic()
        chunk = program.read_until(lambda fresh: waiting_for_input(text + fresh), max(0.0, min(QUIET_S, left)))
        text += chunk
        if waiting_for_input(text):
            return text, True
        if _exited(program) or left <= 0:
            return text, False
        tail = text.replace("\r", "").split("\n")[-1]
        if not chunk and tail.strip():
            return text, True   # quiet after an unterminated line: an unusual prompt


def drive(program: Any, player: Player, *, step_timeout: float, session_timeout: float) -> RunRecord:
    """Play a whole session against ``program`` and wait for it to end."""
    parser = TranscriptParser()
    items: list[tuple[str, str, str]] = []
    problem = ""
    quit_sent = False
    inputs = 0
    started = time.monotonic()
    while True:
        text, waiting = _read_turn(program, step_timeout)
        items.append(("out", text, ""))
        parser.feed_output(text)
        if not waiting:
            if not _exited(program) and not quit_sent:
                problem = f"no prompt or result after {step_timeout:g} s of waiting"
            break
        if inputs >= MAX_INPUTS or time.monotonic() - started > session_timeout:
            problem = "the session went on too long (too many questions or too much time)"
            break
        kind = expected_kind(parser, parser.pending_prompt())
        answer = player.answer(kind, parser.game)
        program.send(answer + "\n")
        items.append(("in", answer, kind))
        parser.feed_input(answer, kind)
        inputs += 1
        if kind == "again" and answer == QUIT:
            quit_sent = True
            break
    if quit_sent:
        text = program.read_until(_session_over, step_timeout)
        text += program.read_all(QUIET_S if _session_over(text) else 0.0)
        items.append(("out", text, ""))
        parser.feed_output(text)
        after = normalize(text)
        if "stake" in after or "game number" in after:
            problem = f"did not end on the quit answer '{QUIT}': it went on with another game"
    timed_out = False
    if program.wait(0.2 if problem else step_timeout) is None:
        timed_out = not problem
        program.kill("timeout" if timed_out else "stopped by the grader")
    return RunRecord(
        items=items,
        session=parser.finish(),
        exit_code=program.returncode,
        stderr=program.stderr,
        timed_out=timed_out,
        killed_reason="output limit exceeded" if getattr(program, "truncated", False) else program.killed_reason,
        time_s=time.monotonic() - started,
        problem=problem,
        quit_sent=quit_sent,
    )
