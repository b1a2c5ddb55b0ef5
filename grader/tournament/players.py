"""Who sits at the table: the one interface the engine calls, and its two kinds.

A :class:`Player` answers a role's call with a :class:`Reply` (caught once, here, never as
an exception), in two steps: ``start`` sends the call, the function it returns waits for the
answer, so that all the seats of a game think at once from one thread.  :class:`SessionPlayer` forwards to a student's module loaded in a sandbox
session; :class:`BotPlayer` runs a game's trusted built-in bot in this process.  Neither
ever receives more than the referee hands it.
"""
from __future__ import annotations

import random
import time
from typing import Any, Callable, Mapping, Protocol, Sequence, cast

from grader.tournament.game import Reply, Status, short

BOT_PREFIX = "bot:"


class Player(Protocol):
    """A seat's occupant.  ``entrant`` is the id shown on the leaderboard."""

    entrant: str

    def new_game(self, seed: int, seat: int) -> None:
        """Called before each game (bots reseed their randomness from it)."""

    def start(self, role: str, args: Sequence[Any], time_limit: float) -> Callable[[], Reply]:
        """Ask this player's function for ``role``; the result waits for its answer."""


def is_bot(entrant: str) -> bool:
    return entrant.startswith(BOT_PREFIX)


def _exception_line(exc: Any) -> str:
    """The last line of a traceback (``ValueError: ...``): what a student needs first."""
    if exc is None:
        return ""
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
    # The game budget is charged the CPU time the kernel counted for the session (``time_s``),
    # never the player's word nor the wall clock: a neighbour burning every core (or a busy
    # machine) stretches an honest player's wall time, not its CPU time.  The wall-clock
    # figure feeds only the budget's backstop, and it is the time the grader itself waited
    # for the answer (``wall_s``): a player that sleeps and stops its own clock still pays.
    measured = float(getattr(result, "time_s", 0.0) or 0.0)
    waited = float(getattr(result, "wall_s", 0.0) or 0.0)
    return Reply(status=status, value=getattr(result, "value", None) if status == "ok" else None,
                 time_s=measured, detail=short(detail), wall_s=max(measured, waited))


class SessionPlayer:
    """A submission loaded once in its own sandbox session and called move by move."""

    def __init__(self, entrant: str, session: Any, names: Mapping[str, str]):
        self.entrant = entrant
        self.session = session
        self.names = dict(names)  # role -> the function name this submission defines

    def new_game(self, seed: int, seat: int) -> None:
        renew = getattr(self.session, "renew_reloads", None)   # a sandbox session: restarts per game
        if renew is not None:
            renew()

    def start(self, role: str, args: Sequence[Any], time_limit: float) -> Callable[[], Reply]:
        wait = self.session.start_call(self.names[role], list(args), time_limit=time_limit)
        return lambda: reply_from_call(wait())


class BotPlayer:
    """A game's built-in bot (trusted) run in this process, seeded per game and seat."""

    def __init__(self, entrant: str, bot: Any):
        self.entrant = entrant
        self.bot = bot
        self.rng = random.Random(0)

    def new_game(self, seed: int, seat: int) -> None:
        self.rng = random.Random(f"bot:{self.entrant}:{seed}:{seat}")

    def start(self, role: str, args: Sequence[Any], time_limit: float) -> Callable[[], Reply]:
        start = time.perf_counter()
        try:
            value = getattr(self.bot, role)(*args, rng=self.rng)
            spent = time.perf_counter() - start
            reply = Reply("ok", value, spent, wall_s=spent)
        except Exception as exc:  # a bot bug must not stop the tournament either
            spent = time.perf_counter() - start
            reply = Reply("error", None, spent, short(f"{type(exc).__name__}: {exc}"), wall_s=spent)
        return lambda: reply


def pick_name(candidates: Sequence[str], defined: Sequence[str] | None) -> str:
    """The first of ``candidates`` the module defines (or the first, when unknown)."""
    if defined:
        for name in candidates:
            if name in defined:
                return name
    return candidates[0]
