"""The contract between the console-program engine and an assignment's plug-in.

The engine builds and runs any console program and records what happened; the plug-in,
a trusted module beside the spec (``program: plugin: ../reference/x_program.py``), knows
the assignment: how to answer the program, how to read its transcript, how to judge it.
A plug-in module defines:

``CRITERIA``
    names of the criteria it scores (their points come from the spec's ``scoring``).
``CASE_SCHEMA`` / ``OPTIONS_SCHEMA``
    JSON Schemas of one case and of the spec's ``program.options``.
``start(case, ctx) -> Play``
    the player of one case (it answers each time the program waits for input) and the
    files or environment the program gets for it.
``judge(runs, ctx) -> Judgement``
    scores of its criteria, tests (each with its line or game), rules broken, and the cases whose
    session the program cut short (no speed is measured on work it did not do).

The engine gives the player only what the program printed; the player returns an answer,
or :class:`Stop` to end the session (saying whether the grader lost track, which is never
the student's fault, or the program misbehaved).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping, Protocol, Sequence

import jsonschema

from grader.judge.verdict import TestResult
from grader.spec.loader import load_trusted_module

from .session import Crash, Transcript
from .terminal import Move


@dataclass(frozen=True)
class Stop:
    """The player ends the session. ``by_grader``: the grader could not follow the program."""

    reason: str
    by_grader: bool = False


class Player(Protocol):
    def answer(self, output: str) -> "str | Stop":
        """The answer to send, given the output printed since the last answer."""


@dataclass
class Play:
    """How one case is played: the player, and files/environment the program gets."""

    player: Player
    files: dict[str, bytes] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Context:
    """What a plug-in may know while playing and judging one submission."""

    reference: ModuleType | None
    options: Mapping[str, Any]
    points: Mapping[str, float]     # per criterion of the plug-in
    language: str
    main_file: str
    sources: Mapping[str, str]


@dataclass(frozen=True)
class CaseRun:
    """One case as it ran: the case, the transcript, a real crash if there was one, and the player."""

    case: Mapping[str, Any]
    transcript: Transcript
    crash: Crash | None
    player: Any


@dataclass
class Judgement:
    scores: dict[str, float]                       # criterion -> points earned
    tests: list[TestResult] = field(default_factory=list)
    # (rule, message) or (rule, message, staff): ``staff``, what only staff see (a hidden case's game)
    rules_broken: list[tuple[str, str] | tuple[str, str, str]] = field(default_factory=list)
    # Cases whose session the program ended before the player did (it skipped work the reference does):
    # their CPU time says nothing of the program's speed, so, as after a crash, there are no speed points.
    short_cases: tuple[str, ...] = ()


def played_share(done: int, wanted: int, criterion: str) -> tuple[float, TestResult | None]:
    """For a plug-in: the share of the games the player asked for that the program played out, and a test saying so
    (under the plug-in's ``criterion``).

    A game the program never played is not a game it got right: scores judged on the games played count only
    this share of their points (a program that plays nothing scores nothing there).
    """
    if not wanted or done >= wanted:
        return 1.0, None
    share = done / wanted
    return share, TestResult(name="played", function=criterion, visibility="public", status="failed", score=0.0,
                             max_score=0.0, message=f"the program played {done} of the {wanted} games the player asked "
                             f"for to a result: the scores judged on games count {share:.0%} of their points")


def unreadable(moves: Sequence[Move], games: int, shown: int = 3) -> str:
    """For a plug-in: why a session whose output moved the cursor to other lines (the ``moves`` of
    :meth:`Transcript.screen` or of a :class:`~grader.programs.terminal.Terminal`) can't be graded, in the student's
    words. What a person saw there is not the lines the program printed, so none of its ``games`` is judged."""
    listed = ", ".join(move.describe() for move in moves[:shown])
    more = f" and {len(moves) - shown} more" if len(moves) > shown else ""
    return (f"the program moves the cursor to rewrite earlier lines ({listed}{more}); its output can't be graded: "
            f"its {games} game(s) are not judged and earn no points (print each line once, in order; "
            "colours and a carriage return within one line are fine)")


class HiddenFinding(str):
    """A plug-in's finding in a hidden case, as a student reads it: where it was (the text
    before its first ':', "long_session game 3"), no more.  The full text, which quotes the
    program's output of that case and what the grader expected, is ``full``, for staff.

    A plug-in's aspect tests are public, one over every case, so their messages once showed
    students the hidden cases' games (their cards, stakes and expected money)."""

    full: str

    def __new__(cls, full: str) -> "HiddenFinding":
        shown = super().__new__(cls, f"{full.split(':', 1)[0]}: wrong in a hidden case (the details are for staff)")
        shown.full = full
        return shown


def hide_findings(findings: Mapping[str, list[str]], since: Mapping[str, int]) -> None:
    """Turn the findings added to each list after ``since[key]`` into :class:`HiddenFinding` objects
    (call it after judging a hidden case's run)."""
    for key, found in findings.items():
        found[since.get(key, 0):] = [HiddenFinding(f) for f in found[since.get(key, 0):]]


def listing(findings: Sequence[str], shown: int = 3) -> tuple[str, str]:
    """The first ``shown`` findings and a count of the rest: (for the student, for staff).

    The student's puts the public cases' findings first, since those they can act on."""
    def listed(texts: Sequence[str]) -> str:
        more = f"; ... ({len(texts) - shown} more)" if len(texts) > shown else ""
        return "; ".join(texts[:shown]) + more

    public_first = sorted(findings, key=lambda f: isinstance(f, HiddenFinding))
    return listed(public_first), listed([getattr(f, "full", f) for f in findings])


@dataclass(frozen=True)
class Plugin:
    module: ModuleType

    @property
    def criteria(self) -> tuple[str, ...]:
        return tuple(self.module.CRITERIA)

    def start(self, case: Mapping[str, Any], ctx: Context) -> Play:
        return self.module.start(case, ctx)

    def judge(self, runs: Sequence[CaseRun], ctx: Context) -> Judgement:
        return self.module.judge(runs, ctx)

    def problems(self, program: Mapping[str, Any]) -> list[tuple[list[Any], str]]:
        """Schema problems of the spec's cases and options, as (path, message)."""
        found: list[tuple[list[Any], str]] = []
        case_schema = jsonschema.Draft202012Validator(getattr(self.module, "CASE_SCHEMA", {}))
        for i, case in enumerate(program.get("cases", ())):
            for error in case_schema.iter_errors(case):
                found.append((["cases", i, *error.absolute_path], error.message))
        options_schema = jsonschema.Draft202012Validator(getattr(self.module, "OPTIONS_SCHEMA", {}))
        for error in options_schema.iter_errors(program.get("options", {})):
            found.append((["options", *error.absolute_path], error.message))
        return found


def load_plugin(path: Path) -> Plugin:
    """Import a plug-in (trusted code, parent process only) and check that it has the contract's parts."""
    module = load_trusted_module(path, "program_plugin")
    missing = [name for name in ("CRITERIA", "start", "judge") if not hasattr(module, name)]
    if missing:
        raise ImportError(f"{path.name} is not a program plug-in: it lacks {', '.join(missing)}")
    return Plugin(module)
