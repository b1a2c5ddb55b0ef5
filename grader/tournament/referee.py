"""The referee: plays one game of COMP10001-Go exactly per the rules, in the trusted parent.

Rules (shared/handouts/README.md): one 52-card pack shuffled with ``random.Random(seed)``;
seats 0-3 are dealt 10 cards each (seat ``s`` gets ``deck[10*s : 10*s+10]``; the other 12
cards play no part).  Ten turns: every seat chooses a discard from its own hand given
``(discard_history, player_no, hand)``; then all discards are revealed (appended to the
history as ``[card of seat 0, ..., card of seat 3]``) and the rest of every hand is passed
**to the left, which here means seat i passes to seat (i + 1) % 4**.  After the tenth turn
each seat groups its own ten discards with ``group(discard_history, player_no)`` and the
reference scorer scores the grouping.

Faults never stop a game.  An illegal discard (not a string, not a card, not in the hand, an
exception, a timeout, a crash, a protocol error, or the player's game time used up) is
replaced by the spec's ``default_move`` and recorded; an invalid grouping (or a failed call)
is scored as all singletons and recorded.

Winners: the highest score; tied winners **share** the win, each getting ``1/k`` of it.
"""
from __future__ import annotations

import random
from concurrent.futures import Executor
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Literal, Sequence

from grader.tournament.config import TournamentConfig
from grader.tournament.players import Player, Reply, short

SEATS = 4
TURNS = 10
HAND = 10
VALUES = "A234567890JQK"
SUITS = "SCHD"
DECK = tuple(v + s for v in VALUES for s in SUITS)
CARDS = frozenset(DECK)

FaultKind = Literal["not-a-string", "not-a-card", "not-in-hand", "exception", "timeout", "crashed",
                    "protocol", "game-time", "invalid-grouping"]
_STATUS_KIND: dict[str, FaultKind] = {"error": "exception", "timeout": "timeout", "crashed": "crashed", "protocol": "protocol"}


@dataclass(frozen=True)
class Fault:
    """One illegal move or unusable grouping, with what a student needs to reproduce it."""

    game: int
    seed: int
    seat: int
    entrant: str
    phase: Literal["play", "group"]
    turn: int | None  # 1-based turn for "play", None for "group"
    kind: FaultKind
    detail: str
    returned: str = ""  # repr of what came back, when something did
    replaced_by: str | None = None  # the default card played instead (play only)


@dataclass(frozen=True)
class Move:
    card: str  # the card actually discarded
    time_s: float
    fault: bool = False


@dataclass(frozen=True)
class GameRecord:
    """Everything that happened in one game; plain data, written as one JSON line."""

    game: int
    seed: int
    entrants: tuple[str, ...]  # by seat
    hands: list[list[list[str]]]  # hands[turn][seat]: the hand held when choosing on that turn
    discards: list[list[str]]  # the public discard history, discards[turn][seat]
    moves: list[list[Move]]  # moves[turn][seat]
    groupings: list[list[list[str]]]  # the grouping each seat was scored on
    grouped_by: list[Literal["player", "singletons"]]
    scores: list[int]
    wins: list[float]  # share of the win per seat (1, 1/k for k tied winners, or 0)
    faults: list[Fault] = field(default_factory=list)
    play_time_s: list[float] = field(default_factory=list)  # per seat, over the calls made
    play_calls: list[int] = field(default_factory=list)


def deal(seed: int) -> list[list[str]]:
    """The four starting hands for a game seed."""
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return [deck[HAND * s: HAND * (s + 1)] for s in range(SEATS)]


def pass_left(hands: list[list[str]]) -> list[list[str]]:
    """Seat i's hand goes to seat (i + 1) % 4."""
    return [hands[(s - 1) % SEATS] for s in range(SEATS)]


def default_card(hand: Sequence[str], how: str, rng: random.Random) -> str:
    if how == "lowest":
        return min(hand, key=lambda c: VALUES.index(c[0]))  # the first of equal values
    if how == "random":
        return rng.choice(list(hand))
    return hand[0]


def _returned(value: Any) -> str:
    try:
        return short(repr(value), 120)
    except Exception:
        return "<unprintable>"


def judge_card(reply: Reply, hand: Sequence[str]) -> tuple[FaultKind | None, str]:
    """Why a reply is not a legal discard from ``hand`` (None when it is)."""
    if reply.status != "ok":
        kind = _STATUS_KIND.get(reply.status, "protocol")
        return kind, reply.detail or kind
    value = reply.value
    if type(value) is not str:
        return "not-a-string", f"returned {type(value).__name__} {_returned(value)}, not a card string such as '5H'"
    if value not in CARDS:
        return "not-a-card", f"returned {_returned(value)}, which is not a card (value in {VALUES}, suit in {SUITS})"
    if value not in hand:
        return "not-in-hand", f"returned {value!r}, which is not in the hand {list(hand)}"
    return None, ""


def judge_grouping(reply: Reply, mine: Sequence[str], reference: ModuleType) -> tuple[list[list[str]] | None, FaultKind | None, str]:
    """The grouping to score (None when unusable) and why it is unusable."""
    if reply.status != "ok":
        kind = _STATUS_KIND.get(reply.status, "protocol")
        return None, kind, reply.detail or kind
    value = reply.value
    if type(value) not in (list, tuple) or any(type(g) not in (list, tuple) for g in value):
        return None, "invalid-grouping", f"returned {_returned(value)}, not a list of lists of cards"
    groups = [list(g) for g in value]
    cards = [c for g in groups for c in g]
    if any(type(c) is not str or c not in CARDS for c in cards):
        return None, "invalid-grouping", f"returned {_returned(value)}, which holds something that is not a card"
    if sorted(cards) != sorted(mine):
        return None, "invalid-grouping", f"the groups hold {sorted(cards)}, not exactly your ten discards {sorted(mine)}"
    if any(len(g) == 0 for g in groups) or not reference.comp10001go_valid_groups(groups):
        bad = next((g for g in groups if reference.comp10001go_score_group(g) is None), [])
        return None, "invalid-grouping", f"the group {bad} is neither a single card, an N-of-a-kind nor a run"
    return groups, None, ""


class _Seat:
    """Per-game bookkeeping of one seat's time budget."""

    def __init__(self, player: Player, budget: float):
        self.player = player
        self.left = budget
        self.time_s = 0.0
        self.calls = 0

    def ask(self, call: Callable[[float], Reply], limit: float, *, is_move: bool) -> Reply:
        if self.left <= 0:
            return Reply("protocol", detail="")  # not called; the caller records a game-time fault
        reply = call(min(limit, self.left))
        self.left -= reply.time_s
        if is_move:
            self.time_s += reply.time_s
            self.calls += 1
        return reply


def play_game(players: Sequence[Player], seed: int, config: TournamentConfig, reference: ModuleType, *,
              game: int = 0, executor: Executor | None = None) -> GameRecord:
    """Play one full game; ``executor`` (4 threads) lets the seats think at the same time."""
    if len(players) != SEATS:
        raise ValueError(f"a game needs {SEATS} players, not {len(players)}")
    entrants = tuple(p.entrant for p in players)
    seats = [_Seat(p, config.game_time_limit) for p in players]
    for s, p in enumerate(players):
        p.new_game(seed, s)
    faults: list[Fault] = []
    out_of_time = f"the player's {config.game_time_limit:g} s for the game were used up"

    def fault(s: int, phase: Literal["play", "group"], turn: int | None, kind: FaultKind, detail: str,
              reply: Reply, replaced: str | None = None) -> None:
        returned = _returned(reply.value) if reply.status == "ok" else ""
        faults.append(Fault(game, seed, s, entrants[s], phase, turn, kind, detail, returned, replaced))

    def everyone(ask: Callable[[int], Reply]) -> list[Reply]:
        if executor is None:
            return [ask(s) for s in range(SEATS)]
        return [f.result() for f in [executor.submit(ask, s) for s in range(SEATS)]]

    def history_copy() -> list[list[str]]:
        return [list(t) for t in history]  # every player gets its own copy: none can alter another's view

    hands = deal(seed)
    history: list[list[str]] = []
    hand_log: list[list[list[str]]] = []
    move_log: list[list[Move]] = []
    for turn in range(TURNS):
        hand_log.append([list(h) for h in hands])
        out = [seat.left <= 0 for seat in seats]

        def ask_play(s: int) -> Reply:
            return seats[s].ask(lambda limit: players[s].play(history_copy(), s, list(hands[s]), limit),
                                config.move_time_limit, is_move=True)

        chosen, moves = [], []
        for s, reply in enumerate(everyone(ask_play)):
            kind, detail = ("game-time", out_of_time) if out[s] else judge_card(reply, hands[s])
            card = reply.value if kind is None else default_card(hands[s], config.default_move, random.Random(f"default:{seed}:{s}:{turn}"))
            if kind is not None:
                fault(s, "play", turn + 1, kind, detail, reply, card)
            chosen.append(card)
            moves.append(Move(card, reply.time_s, kind is not None))
        for s in range(SEATS):
            hands[s].remove(chosen[s])
        history.append(chosen)
        move_log.append(moves)
        hands = pass_left(hands)

    out = [seat.left <= 0 for seat in seats]

    def ask_group(s: int) -> Reply:
        return seats[s].ask(lambda limit: players[s].group(history_copy(), s, limit), config.group_time_limit, is_move=False)

    groupings: list[list[list[str]]] = []
    grouped_by: list[Literal["player", "singletons"]] = []
    scores: list[int] = []
    for s, reply in enumerate(everyone(ask_group)):
        mine = [t[s] for t in history]
        groups: list[list[str]] | None
        problem: FaultKind | None
        if out[s]:
            groups, problem, detail = None, "game-time", out_of_time
        else:
            groups, problem, detail = judge_grouping(reply, mine, reference)
        if groups is None or problem is not None:
            fault(s, "group", None, problem or "invalid-grouping", detail, reply)
            groups = [[c] for c in mine]
        groupings.append(groups)
        grouped_by.append("player" if problem is None else "singletons")
        scores.append(int(reference.comp10001go_score_grouping(groups)))
    top = max(scores)
    winners = [s for s in range(SEATS) if scores[s] == top]
    wins = [1.0 / len(winners) if s in winners else 0.0 for s in range(SEATS)]
    return GameRecord(game=game, seed=seed, entrants=entrants, hands=hand_log, discards=history, moves=move_log,
                      groupings=groupings, grouped_by=grouped_by, scores=scores, wins=wins, faults=faults,
                      play_time_s=[seat.time_s for seat in seats], play_calls=[seat.calls for seat in seats])
