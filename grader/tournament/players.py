"""Who sits at the table: the one interface the referee talks to, and its two kinds.

A :class:`Player` answers ``play`` and ``group`` with a :class:`Reply` (caught once, here,
never as an exception).  :class:`SessionPlayer` forwards to a student's module loaded in a
sandbox session; :class:`BotPlayer` runs a trusted built-in strategy in this process.
Neither ever receives more than the referee hands it: its own hand and the public discards.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Literal, Protocol, Sequence, cast

Status = Literal["ok", "error", "timeout", "crashed", "protocol"]
History = list[list[str]]
MAX_DETAIL = 300


@dataclass(frozen=True)
class Reply:
    """What a player answered: a value when ``status == "ok"``, else why not."""

    status: Status
    value: Any = None
    time_s: float = 0.0
    detail: str = ""


class Player(Protocol):
    """A seat's occupant.  ``entrant`` is the id shown on the leaderboard."""

    entrant: str

    def new_game(self, seed: int, seat: int) -> None:
        """Called before each game (bots reseed their randomness from it)."""

    def play(self, history: History, player_no: int, hand: list[str], time_limit: float) -> Reply:
        """The card to discard."""

    def group(self, history: History, player_no: int, time_limit: float) -> Reply:
        """The grouping of this player's discards."""


def short(text: Any, limit: int = MAX_DETAIL) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _exception_line(exc: Any) -> str:
    """The last line of a traceback (``ValueError: ...``): what a student needs first."""
    if exc is None:
        return ""
    if isinstance(exc, BaseException):
        return f"{type(exc).__name__}: {exc}"
    if isinstance(exc, dict):
        kind, message = exc.get("type") or exc.get("name") or "", exc.get("message", "")
        return f"{kind}: {message}" if kind else str(message)
    lines = [line for line in str(exc).strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def reply_from_call(result: Any) -> Reply:
    """Turn a sandbox ``CallResult`` into a :class:`Reply` (the one place this happens)."""
    raw = getattr(result, "status", "protocol")
    status = cast(Status, raw if raw in ("ok", "error", "timeout", "crashed", "protocol") else "protocol")
    detail = ""
    if status == "error":
        detail = _exception_line(getattr(result, "exception", None)) or str(getattr(result, "detail", "") or "")
    elif status != "ok":
        detail = str(getattr(result, "detail", "") or status)
    # Wall-clock time of the call as measured in the child: CPU time is too coarse for ~0.1 ms moves.
    elapsed = getattr(result, "wall_s", None) or getattr(result, "time_s", None) or 0.0
    return Reply(status=status, value=getattr(result, "value", None) if status == "ok" else None,
                 time_s=float(elapsed), detail=short(detail))


class SessionPlayer:
    """A submission loaded once in its own sandbox session and called move by move."""

    def __init__(self, entrant: str, session: Any, play_name: str, group_name: str):
        self.entrant = entrant
        self.session = session
        self.play_name = play_name
        self.group_name = group_name

    def new_game(self, seed: int, seat: int) -> None:
        pass

    def play(self, history: History, player_no: int, hand: list[str], time_limit: float) -> Reply:
        return reply_from_call(self.session.call(self.play_name, [history, player_no, hand], time_limit=time_limit))

    def group(self, history: History, player_no: int, time_limit: float) -> Reply:
        return reply_from_call(self.session.call(self.group_name, [history, player_no], time_limit=time_limit))


class BotPlayer:
    """A built-in strategy (trusted) run in this process; see :mod:`grader.tournament.bots`."""

    def __init__(self, entrant: str, strategy: Any):
        self.entrant = entrant
        self.strategy = strategy
        self.rng = random.Random(0)

    def new_game(self, seed: int, seat: int) -> None:
        self.rng = random.Random(f"bot:{self.entrant}:{seed}:{seat}")

    def _timed(self, fn: Any, *args: Any) -> Reply:
        start = time.perf_counter()
        try:
            value = fn(*args)
        except Exception as exc:  # a bot bug must not stop the tournament either
            return Reply("error", None, time.perf_counter() - start, short(f"{type(exc).__name__}: {exc}"))
        return Reply("ok", value, time.perf_counter() - start)

    def play(self, history: History, player_no: int, hand: list[str], time_limit: float) -> Reply:
        return self._timed(self.strategy.play, history, player_no, hand, self.rng)

    def group(self, history: History, player_no: int, time_limit: float) -> Reply:
        return self._timed(self.strategy.group, history, player_no)


def pick_name(candidates: Sequence[str], defined: Sequence[str] | None) -> str:
    """The first of ``candidates`` the module defines (or the first, when unknown)."""
    if defined:
        for name in candidates:
            if name in defined:
                return name
    return candidates[0]
