"""The game plug-in interface: what a course writes, beside its spec, to run a tournament.

A spec names its game with ``tournament: {game: ../reference/x_game.py}``.  That module
defines ``GAME``, a subclass of :class:`Game`, and the plain attributes ``OPTIONS_SCHEMA``
and ``BOTS`` (what the spec loader checks a spec against without building a game).  The
game owns everything about itself: the
functions a student's player defines (:class:`Role`), the referee (:meth:`Game.play`), the
legal moves and scoring, the built-in bots, its own options (a JSON Schema for
``tournament.options``) and how a finished game reads move by move.

The engine owns everything else: loading and sandboxing the players, calling them
(:class:`Table`, with per-call and per-game time limits), seating and seeding games,
recording faults, rating, storing and writing.  The referee only ever sees :class:`Reply`
values, never a process or an exception, and hands back an :class:`Outcome`.
"""
from __future__ import annotations

import abc
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Mapping, Protocol, Sequence

Status = Literal["ok", "error", "timeout", "crashed", "protocol", "game-time"]
MAX_DETAIL = 300

#: Fault kinds every game shares: why a call gave no usable value.  A game adds its own
#: kinds for values that came back but break its rules ("not-in-hand", "heap-empty" ...).
CALL_FAULTS: dict[str, str] = {"error": "exception", "timeout": "timeout", "crashed": "crashed",
                               "protocol": "protocol", "game-time": "game-time"}


def short(text: Any, limit: int = MAX_DETAIL) -> str:
    """``text`` cut to ``limit`` characters, for messages that quote a student's value."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def shown(value: Any, limit: int = 120) -> str:
    """A student's value as it reads in a message (never raises)."""
    try:
        return short(repr(value), limit)
    except Exception:
        return "<unprintable>"


@dataclass(frozen=True)
class Reply:
    """What a player answered: ``value`` when ``status == "ok"``, else why not (``detail``)."""

    status: Status
    value: Any = None
    time_s: float = 0.0   # CPU time the kernel counted: what the game budget is charged
    detail: str = ""
    wall_s: float = 0.0   # wall-clock time of the call, for the budget's backstop only

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def failure(self) -> tuple[str, str]:
        """The fault kind and message of a reply that is not ``ok``."""
        kind = CALL_FAULTS.get(self.status, "protocol")
        return kind, self.detail or kind


@dataclass(frozen=True)
class Role:
    """One function a player defines: the names accepted for it (the first preferred), its
    parameters (to show a student the call that went wrong) and its own time limit (None:
    the tournament's ``move_time_limit``)."""

    names: tuple[str, ...]
    params: tuple[str, ...]
    time_limit: float | None = None


@dataclass(frozen=True)
class Fault:
    """One call whose answer broke the rules, with what a student needs to reproduce it."""

    game: int
    seed: int
    seat: int
    entrant: str
    role: str
    turn: int | None  # the game's own move counter (1-based), None when it has none
    kind: str
    detail: str
    returned: str = ""  # repr of what came back, when something did
    replaced_by: Any = None  # what the referee did instead (a default move), if anything
    call: dict[str, Any] = field(default_factory=dict)  # the arguments, by parameter name


@dataclass(frozen=True)
class Outcome:
    """What the referee hands back: a score per seat (higher is better) and the game's own log
    (plain JSON data: the engine stores it and gives it back to :meth:`Game.describe` and
    :meth:`Game.view`, never reads it)."""

    scores: list[float]
    log: dict[str, Any] = field(default_factory=dict)


class Table(Protocol):
    """The referee's side of the table: the engine calls players and keeps their clocks."""

    seats: int
    entrants: tuple[str, ...]

    def ask(self, seat: int, role: str, args: Sequence[Any]) -> Reply:
        """Call one seat's function for ``role`` (a ``game-time`` reply when its game time is spent)."""

    def ask_all(self, calls: Sequence[tuple[int, str, Sequence[Any]]]) -> list[Reply]:
        """Several seats' calls at once (they think at the same time); replies in order."""

    def fault(self, seat: int, role: str, turn: int | None, kind: str, detail: str, reply: Reply,
              args: Sequence[Any], replaced_by: Any = None) -> None:
        """Record that ``seat``'s answer broke the rules (the game goes on)."""

    def rng(self, *parts: Any) -> random.Random:
        """A generator seeded from the game's seed and ``parts`` (reproducible defaults)."""


class Game(abc.ABC):
    """A game's rules.  Subclass it in the plug-in module and name the class ``GAME``."""

    #: Shown in messages and the leaderboard's title.
    title: str = "game"
    #: Players per game.
    seats: int = 2
    #: JSON Schema of ``tournament.options`` (the game's own settings).
    options_schema: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": {}}
    #: Bots a tournament adds when the spec and command line name none.
    default_bots: tuple[str, ...] = ()

    def __init__(self, options: Mapping[str, Any]):
        self.options = dict(options)

    @abc.abstractmethod
    def roles(self) -> dict[str, Role]:
        """The functions a player must define, by role name (``play``, ``group``, ``move`` ...)."""

    @abc.abstractmethod
    def bots(self) -> dict[str, type]:
        """The built-in bots by name (trusted, run in the parent): classes built with no
        arguments, with one method per role taking the role's arguments and a seeded
        ``rng`` keyword."""

    @abc.abstractmethod
    def play(self, table: Table, seed: int) -> Outcome:
        """Referee one game on ``table`` from ``seed``; faults never stop a game."""

    def describe(self, entrants: Sequence[str], outcome: Outcome, faults: Sequence[Fault]) -> str:
        """The game move by move for staff (``--replay``); every hidden card may be shown."""
        lines = [f"  seat {s}: {e}  score {outcome.scores[s]:g}" for s, e in enumerate(entrants)]
        lines += [f"  fault: seat {f.seat} {f.role} turn {f.turn}: {f.kind}: {f.detail}" for f in faults]
        return "\n".join(lines) + "\n"

    def view(self, outcome: Outcome, seat: int) -> dict[str, Any]:
        """What the player at ``seat`` may see of a finished game, for its own report."""
        return {}


class PluginError(Exception):
    """A game plug-in that cannot be used (a course's mistake, reported in its terms)."""


def game_class(path: Path) -> type[Game]:
    """Import the plug-in at ``path`` (trusted, like a reference) and return its ``GAME``."""
    from grader.spec.loader import load_trusted_module

    try:
        module = load_trusted_module(Path(path), "game")
    except BaseException as exc:
        raise PluginError(f"cannot import the game plug-in {path}: {type(exc).__name__}: {exc}") from exc
    cls = getattr(module, "GAME", None)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise PluginError(f"the game plug-in {path} defines no GAME (a subclass of grader.tournament.game.Game)")
    return cls


def option_problems(game: type[Game] | Game, options: Any) -> list[tuple[list[Any], str, bool]]:
    """Problems of ``tournament.options`` against the game's schema, as (path under options,
    message, points at a key) for the caller to locate in the YAML."""
    import jsonschema

    schema = game.options_schema
    found: list[tuple[list[Any], str, bool]] = []
    for error in jsonschema.Draft202012Validator(schema).iter_errors(options):
        where = list(error.absolute_path)
        if error.validator == "additionalProperties":
            allowed = ", ".join(sorted(error.schema.get("properties", {}))) or "none"
            for key in sorted(set(error.instance) - set(error.schema.get("properties", {}))):
                found.append(([*where, key], f"unknown option '{key}' (allowed: {allowed})", True))
            continue
        found.append((where, error.message, False))
    return found
