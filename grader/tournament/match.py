"""One game: the engine's side of the table around a game's referee.

The referee (the plug-in's :meth:`Game.play`) decides what to ask and whether an answer is
legal; this module makes the calls, keeps each seat's clock (a per-call limit and a budget
over the whole game: a seat whose budget is spent is not called again and gets a
``game-time`` reply), lets the seats think at the same time (every call is sent before the
first answer is awaited: separate processes, one thread here), records faults with the
arguments of the call, and turns the referee's :class:`Outcome` into a :class:`GameRecord`.
Winners are the top scores; tied winners share the win, each getting ``1/k`` of it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from grader.run.child.deadlines import blocked_after
from grader.spec.model import TournamentSpec
from grader.tournament.game import Fault, Game, Outcome, Reply, shown
from grader.tournament.players import Player


@dataclass(frozen=True)
class GameRecord:
    """Everything that happened in one game; plain data, written as one JSON line."""

    game: int
    seed: int
    entrants: tuple[str, ...]  # by seat
    scores: list[float]
    wins: list[float]  # share of the win per seat (1, 1/k for k tied winners, or 0)
    faults: list[Fault] = field(default_factory=list)
    play_time_s: list[float] = field(default_factory=list)  # per seat, over the calls made
    play_calls: list[int] = field(default_factory=list)
    log: dict[str, Any] = field(default_factory=dict)  # the game's own record (see Outcome.log)
    reused: bool = field(default=False, compare=False)  # read from the store, not played now

    @property
    def outcome(self) -> Outcome:
        return Outcome(list(self.scores), self.log)


def shared_wins(scores: Sequence[float]) -> list[float]:
    top = max(scores)
    winners = [s for s, score in enumerate(scores) if score == top]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(scores))]


class _Seat:
    """Per-game bookkeeping of one seat's time budget: the CPU time the kernel counted for
    its calls (a neighbour's load cannot spend it), with a wall-clock backstop."""

    def __init__(self, player: Player, budget: float):
        self.player = player
        self.left = budget
        # the budget's wall-clock backstop, as a call's: only a player that sleeps or blocks
        # gets there, the budget itself is CPU time
        self.wall_left = blocked_after(budget)
        self.time_s = 0.0
        self.calls = 0


class GameTable:
    """The :class:`~grader.tournament.game.Table` a referee plays one game on."""

    def __init__(self, game: Game, players: Sequence[Player], seed: int, config: TournamentSpec, *, number: int = 0):
        self.game, self.seed, self.config, self.number = game, seed, config, number
        self.seats = len(players)
        self.entrants = tuple(p.entrant for p in players)
        self._seats = [_Seat(p, config.game_time_limit) for p in players]
        self._roles = game.roles()
        self.faults: list[Fault] = []
        self._out_of_time = f"the player's {config.game_time_limit:g} s of CPU time for the game were used up"
        self._out_of_wall = (f"the player's calls in this game took {blocked_after(config.game_time_limit):g} s "
                             f"of wall-clock time (its budget is {config.game_time_limit:g} s of CPU time): "
                             "did it sleep or block?")

    def ask(self, seat: int, role: str, args: Sequence[Any]) -> Reply:
        return self._start(seat, role, args)()

    def ask_all(self, calls: Sequence[tuple[int, str, Sequence[Any]]]) -> list[Reply]:
        waits = [self._start(*c) for c in calls]
        return [wait() for wait in waits]

    def _start(self, seat: int, role: str, args: Sequence[Any]) -> Callable[[], Reply]:
        s = self._seats[seat]
        if s.left <= 0 or s.wall_left <= 0:
            spent = Reply("game-time", detail=self._out_of_time if s.left <= 0 else self._out_of_wall)
            return lambda: spent
        limit = self._roles[role].time_limit or self.config.move_time_limit
        wait = s.player.start(role, args, min(limit, s.left))

        def finish() -> Reply:
            reply = wait()
            s.left -= reply.time_s
            s.wall_left -= max(reply.wall_s, reply.time_s)
            s.time_s += reply.time_s
            s.calls += 1
            return reply

        return finish

    def fault(self, seat: int, role: str, turn: int | None, kind: str, detail: str, reply: Reply,
              args: Sequence[Any], replaced_by: Any = None) -> None:
        params = self._roles[role].params
        call = {name: value for name, value in zip(params, args)} if len(params) == len(args) else {"args": list(args)}
        returned = shown(reply.value) if reply.ok else ""
        self.faults.append(Fault(self.number, self.seed, seat, self.entrants[seat], role, turn, kind, detail,
                                 returned, replaced_by, call))

    def rng(self, *parts: Any) -> random.Random:
        return random.Random(":".join(map(str, ("default", self.seed, *parts))))

    def record(self, outcome: Outcome) -> GameRecord:
        if len(outcome.scores) != self.seats:
            raise ValueError(f"the referee scored {len(outcome.scores)} seats of {self.seats}")
        return GameRecord(game=self.number, seed=self.seed, entrants=self.entrants, scores=list(outcome.scores),
                          wins=shared_wins(outcome.scores), faults=list(self.faults),
                          play_time_s=[s.time_s for s in self._seats], play_calls=[s.calls for s in self._seats],
                          log=outcome.log)


def play_game(game: Game, players: Sequence[Player], seed: int, config: TournamentSpec, *,
              number: int = 0) -> GameRecord:
    """Play one full game."""
    if len(players) != game.seats:
        raise ValueError(f"a game needs {game.seats} players, not {len(players)}")
    for s, p in enumerate(players):
        p.new_game(seed, s)
    table = GameTable(game, players, seed, config, number=number)
    return table.record(game.play(table, seed))
