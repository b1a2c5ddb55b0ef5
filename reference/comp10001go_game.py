"""COMP10001-Go as a tournament game (named by specs/comp10001go.yaml's ``tournament.game``).

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
replaced by ``options.default_move`` and recorded; an invalid grouping (or a failed call)
is scored as all singletons and recorded.

Bots (trusted, in the grader's process), all grouping with the reference's optimal
``comp10001go_group`` so that a bot's strength is in its play:
``random`` discards a uniformly random card; ``greedy`` keeps making pairs and
alternating-colour neighbours of its own discards, else sheds the card whose orphan costs
least; ``reference`` plays the reference ``comp10001go_play``.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Sequence

from grader.spec.loader import load_trusted_module
from grader.tournament.game import Fault, Game, Outcome, Reply, Role, Table, shown

REFERENCE = load_trusted_module(Path(__file__).with_name("comp10001go.py"), "reference")

SEATS = 4
TURNS = 10
HAND = 10
VALUES = "A234567890JQK"
SUITS = "SCHD"
DECK = tuple(v + s for v in VALUES for s in SUITS)
CARDS = frozenset(DECK)
NUMBER = {v: i + 1 for i, v in enumerate(VALUES)}
RED = {"H": 1, "D": 1, "S": 0, "C": 0}


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


def judge_card(reply: Reply, hand: Sequence[str]) -> tuple[str | None, str]:
    """Why a reply is not a legal discard from ``hand`` (None when it is)."""
    if not reply.ok:
        return reply.failure()
    value = reply.value
    if type(value) is not str:
        return "not-a-string", f"returned {type(value).__name__} {shown(value)}, not a card string such as '5H'"
    if value not in CARDS:
        return "not-a-card", f"returned {shown(value)}, which is not a card (value in {VALUES}, suit in {SUITS})"
    if value not in hand:
        return "not-in-hand", f"returned {value!r}, which is not in the hand {list(hand)}"
    return None, ""


def judge_grouping(reply: Reply, mine: Sequence[str]) -> tuple[list[list[str]] | None, str | None, str]:
    """The grouping to score (None when unusable) and why it is unusable."""
    if not reply.ok:
        kind, detail = reply.failure()
        return None, kind, detail
    value = reply.value
    if type(value) not in (list, tuple) or any(type(g) not in (list, tuple) for g in value):
        return None, "invalid-grouping", f"returned {shown(value)}, not a list of lists of cards"
    groups = [list(g) for g in value]
    cards = [c for g in groups for c in g]
    if any(type(c) is not str or c not in CARDS for c in cards):
        return None, "invalid-grouping", f"returned {shown(value)}, which holds something that is not a card"
    if sorted(cards) != sorted(mine):
        return None, "invalid-grouping", f"the groups hold {sorted(cards)}, not exactly your ten discards {sorted(mine)}"
    if any(len(g) == 0 for g in groups) or not REFERENCE.comp10001go_valid_groups(groups):
        bad = next((g for g in groups if REFERENCE.comp10001go_score_group(g) is None), [])
        return None, "invalid-grouping", f"the group {bad} is neither a single card, an N-of-a-kind nor a run"
    return groups, None, ""


# ------------------------------------------------------------------ bots
class _Bot:
    def group(self, history: list[list[str]], player_no: int, *, rng: random.Random) -> Any:
        return REFERENCE.comp10001go_group(history, player_no)


class RandomBot(_Bot):
    def play(self, history: list[list[str]], player_no: int, hand: list[str], *, rng: random.Random) -> str:
        return rng.choice(hand)


class GreedyBot(_Bot):
    def play(self, history: list[list[str]], player_no: int, hand: list[str], *, rng: random.Random) -> str:
        mine = [turn[player_no] for turn in history]

        def worth(card: str) -> float:
            v, colour = NUMBER[card[0]], RED[card[1]]
            if v == 1:
                return -20.0
            same = sum(1 for c in mine if c[0] == card[0])
            near = sum(1 for c in mine if c[0] != "A" and abs(NUMBER[c[0]] - v) == 1 and RED[c[1]] != colour)
            return 3.0 * v * same + v * near - v

        # max() keeps the first of equal cards, so ties go to the earlier card in the hand.
        return max(hand, key=worth)


class ReferenceBot(_Bot):
    def play(self, history: list[list[str]], player_no: int, hand: list[str], *, rng: random.Random) -> str:
        return REFERENCE.comp10001go_play(history, player_no, hand)


# ------------------------------------------------------------------ the game
#: The game's own options (``tournament.options``), and its bots by name: plain module
#: attributes, so the spec loader can check a spec without building a game.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "reference": ReferenceBot}
OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "default_move": {"enum": ["first", "lowest", "random"], "description": "card played in place of an illegal move"},
        "group_time_limit": {"type": "number", "exclusiveMinimum": 0, "description": "seconds for the call of the group function"},
        "play_function": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "group_function": {"type": "array", "items": {"type": "string"}, "minItems": 1},
    },
}


class Comp10001Go(Game):
    title = "COMP10001-Go"
    seats = SEATS
    default_bots = ("random", "greedy", "reference")
    options_schema = OPTIONS_SCHEMA

    def roles(self) -> dict[str, Role]:
        o = self.options
        return {
            "play": Role(tuple(o.get("play_function", ("comp10001go_play", "comp10001_play"))),
                         ("discard_history", "player_no", "hand")),
            "group": Role(tuple(o.get("group_function", ("comp10001go_group", "comp10001_group"))),
                          ("discard_history", "player_no"), float(o.get("group_time_limit", 2.0))),
        }

    def bots(self) -> dict[str, type]:
        return dict(BOTS)

    def play(self, table: Table, seed: int) -> Outcome:
        how = self.options.get("default_move", "first")
        hands = deal(seed)
        history: list[list[str]] = []
        hand_log: list[list[list[str]]] = []
        for turn in range(1, TURNS + 1):
            hand_log.append([list(h) for h in hands])
            # Every player gets its own copy of the history: none can alter another's view.
            calls = [(s, "play", ([list(t) for t in history], s, list(hands[s]))) for s in range(SEATS)]
            chosen = []
            for (s, _, args), reply in zip(calls, table.ask_all(calls)):
                kind, detail = judge_card(reply, hands[s])
                card = reply.value
                if kind is not None:
                    card = default_card(hands[s], how, table.rng(s, turn - 1))
                    table.fault(s, "play", turn, kind, detail, reply, args, card)
                chosen.append(card)
            for s in range(SEATS):
                hands[s].remove(chosen[s])
            history.append(chosen)
            hands = pass_left(hands)
        calls = [(s, "group", ([list(t) for t in history], s)) for s in range(SEATS)]
        groupings, grouped_by, scores = [], [], []
        for (s, _, args), reply in zip(calls, table.ask_all(calls)):
            mine = [t[s] for t in history]
            groups, kind, detail = judge_grouping(reply, mine)
            if groups is None or kind is not None:
                table.fault(s, "group", None, kind or "invalid-grouping", detail, reply, args)
                groups = [[c] for c in mine]
            groupings.append(groups)
            grouped_by.append("player" if kind is None else "singletons")
            scores.append(int(REFERENCE.comp10001go_score_grouping(groups)))
        return Outcome(scores, {"hands": hand_log, "discards": history, "groupings": groupings, "grouped_by": grouped_by})

    def view(self, outcome: Outcome, seat: int) -> dict[str, Any]:
        """A player sees its own discards and grouping (and the public discards), never a hand."""
        log = outcome.log
        return {"discards": [turn[seat] for turn in log["discards"]], "grouping": log["groupings"][seat],
                "grouped_by": log["grouped_by"][seat]}

    def describe(self, entrants: Sequence[str], outcome: Outcome, faults: Sequence[Fault]) -> str:
        log = outcome.log
        lines = [f"  seat {s}: {e}" for s, e in enumerate(entrants)]
        illegal = {(f.turn, f.seat): f for f in faults if f.role == "play"}
        for turn, (hands, discards) in enumerate(zip(log["hands"], log["discards"]), start=1):
            lines.append(f"turn {turn}")
            for s, card in enumerate(discards):
                f = illegal.get((turn, s))
                note = f"   ILLEGAL ({f.kind}: {f.detail}); played the default" if f is not None else ""
                lines.append(f"  seat {s} {entrants[s]:<16} plays {card}  from {' '.join(hands[s])}{note}")
            if turn < len(log["discards"]):
                lines.append("  hands pass to the left (seat i -> seat i+1)")
        lines.append("grouping")
        bad = {f.seat: f for f in faults if f.role == "group"}
        for s, e in enumerate(entrants):
            groups = "  ".join("[" + " ".join(g) + "]" for g in log["groupings"][s])
            note = f"   (scored as singletons: {bad[s].kind}: {bad[s].detail})" if s in bad else ""
            lines.append(f"  seat {s} {e:<16} {outcome.scores[s]:>5}  {groups}{note}")
        return "\n".join(lines) + "\n"


GAME = Comp10001Go
