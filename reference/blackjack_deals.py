"""Whose deals a Blackjack program's games are, and whether every card of them could be honest.

Trusted course code beside specs/blackjack.yaml (loaded by reference/blackjack_program.py).

* A program that reads the grader's decks (``deck_env``) must deal every card from them in the
  dealing order of the spec's notes: player, player, dealer open, dealer hidden, then each card
  drawn from the top (the player's hits and double, then the dealer's draws). ``deck_deviation``
  names the first card of a game that is not the supplied deck's next card, with its line.
* The games a program deals itself are tested card by card (``CardTest``): every card it shows,
  in the order it shows them, is compared with what a fair shuffle gives at that moment (each
  unseen card equally likely, the dealer's hidden card not a natural once the game went on
  without one). For a few dozen events (the dealer's or the player's total becoming 12 ... 21 or
  over 21 with that card, a dealer natural, the card's rank) the test multiplies the likelihood
  ratios of alternatives that make the event 0, 1/4, 1/2, 2 or 4 times as likely (odds), and
  averages them. Under a fair shuffle that average is a martingale of mean 1 whatever the
  player does, so by Ville's inequality it ever reaches 1/alpha with probability at most alpha:
  the false-alarm rate holds exactly, for any number of games and any strategy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.spec.loader import load_trusted_module

_t = load_trusted_module(Path(__file__).with_name("blackjack_transcript.py"), "blackjack_transcript")

#: Odds ratios of the alternatives each event is tested against (0: the event never happens).
ODDS = (0.0, 0.25, 0.5, 2.0, 4.0)
_SLOT_NAMES = {"player": "the player's {n} card", "dealer_up": "the dealer's open card",
               "hidden": "the dealer's hidden card", "player_draw": "the player's {n} drawn card",
               "dealer_draw": "the dealer's {n} drawn card"}
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _ordinal(n: int) -> str:
    return _ORDINALS[n - 1] if n <= len(_ORDINALS) else f"{n}th"


def slots(game: Any) -> list[tuple[str, str, int]]:
    """(slot, card, line) of every card the game showed as new, in the order shown.

    Slots: player (the two open cards), dealer_up, hidden (the dealer's first card after the open
    one), player_draw, dealer_draw. A card shown a second time is left out: the deal aspect reports it.
    """
    out: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    hidden_seen = False
    for whom, card, line in game.shown:
        if whom == "dealer":    # the dealer's first card after the open one is the hidden card, even a repeated one
            whom, hidden_seen = ("dealer_draw" if hidden_seen else "hidden"), True
        if card in seen:
            continue
        seen.add(card)
        out.append((whom, card, line))
    return out


def opening(game: Any) -> tuple[str, ...]:
    """The player's two cards and the dealer's open card, as the game showed them."""
    return (*game.player[:2], game.dealer_up or "")


def follows_opening(game: Any, deck: list[str]) -> bool:
    return bool(deck) and list(opening(game)) == deck[:3]


ORDERS = {"dealt": "player, player, dealer open, dealer hidden, then every card drawn from the top",
          "lazy": "player, player, dealer open, the player's cards, then the dealer's hidden card and draws"}


def deck_deviation(game: Any, deck: list[str], order: str = "dealt") -> str | None:
    """The first card of a game that is not dealt from ``deck`` in ``order`` (see ORDERS), else None.

    ``dealt`` is the spec's order; ``lazy`` deals the dealer's hidden card when the dealer's turn comes.
    A hidden card that repeats a card already shown took none from the deck (the deal aspect reports it).
    """
    by_slot: dict[str, list[tuple[str, int]]] = {}
    for slot, card, line in slots(game):
        by_slot.setdefault(slot, []).append((card, line))
    hidden_shown = any(whom == "dealer" for whom, _, _ in game.shown)
    sequence: list[tuple[str, str, int] | None] = []       # (what, card, line) in dealing order; None: an unseen card
    for k, (card, line) in enumerate(by_slot.get("player", [])[:2]):
        sequence.append((_SLOT_NAMES["player"].format(n=_ordinal(k + 1)), card, line))
    sequence.extend((_SLOT_NAMES["dealer_up"], card, line) for card, line in by_slot.get("dealer_up", [])[:1])
    hidden = [(_SLOT_NAMES["hidden"], card, line) for card, line in by_slot.get("hidden", [])[:1]]
    draws = [(_SLOT_NAMES["player_draw"].format(n=_ordinal(k + 1)), card, line)
             for k, (card, line) in enumerate(by_slot.get("player_draw", []))]
    if order == "dealt":
        sequence.extend(hidden or ([] if hidden_shown else [None]))
        sequence.extend(draws)
    else:
        sequence.extend(draws)
        sequence.extend(hidden)
    sequence.extend((_SLOT_NAMES["dealer_draw"].format(n=_ordinal(k + 1)), card, line)
                    for k, (card, line) in enumerate(by_slot.get("dealer_draw", [])))
    for index, item in enumerate(sequence):
        if item is None:
            continue
        what, card, line = item
        due = deck[index] if index < len(deck) else "no card"
        if card != due:
            return (f"line {line} shows {card} as {what}, but the supplied deck's card {index + 1} is {due} "
                    f"(the deck is dealt {ORDERS[order]})")
    return None


# ----------------------------------------------------------------------------- the card-by-card test

def _natural_with(up: str, card: str) -> bool:
    return {_t.card_points(up), _t.card_points(card)} == {10, 11}


def _bucket(total: int) -> str:
    return "over 21" if total > 21 else str(total) if total >= 12 else "11 or less"


@dataclass
class _Event:
    """One tested event: its observed count, its expected count, and the log-likelihood of each alternative."""

    label: str
    observed: int = 0
    expected: float = 0.0
    chances: int = 0
    log_lr: list[float] = field(default_factory=lambda: [0.0] * len(ODDS))

    def step(self, p: float, happened: bool) -> None:
        if p <= 0.0 or p >= 1.0:
            return       # certain either way: no evidence
        self.chances += 1
        self.expected += p
        self.observed += happened
        for i, odds in enumerate(ODDS):
            q = odds * p / (odds * p + 1 - p)
            if self.log_lr[i] == -math.inf:
                continue
            ratio = (q / p) if happened else (1 - q) / (1 - p)
            self.log_lr[i] = self.log_lr[i] + math.log(ratio) if ratio > 0 else -math.inf


@dataclass
class CardTest:
    """Every card of the games a program dealt itself against a fair shuffle (see the module's doc)."""

    events: dict[str, _Event] = field(default_factory=dict)
    cards: int = 0
    games: int = 0

    def __post_init__(self) -> None:
        """The events are fixed before the first card, so that their average is one martingale."""
        self.events["natural"] = _Event("the dealer had a natural")
        for rank in _t.RANKS:
            self.events[f"rank {rank}"] = _Event(f"a card was a{'n' if rank in ('8', 'Ace') else ''} {rank}")
        for whose in ("the player's", "the dealer's"):
            for bucket in ["11 or less", *map(str, range(12, 22)), "over 21"]:
                self.events[f"{whose} {bucket}"] = _Event(f"{whose} total became {bucket}")

    def add_game(self, game: Any) -> None:
        """Feed one game's cards in the order shown (a game with an impossible deal is the deal aspect's)."""
        shown = slots(game)
        if any(card not in _t.ALL_CARDS for _, card, _ in shown):
            return
        self.games += 1
        unseen = set(_t.ALL_CARDS)
        up: str | None = None
        player: list[str] = []
        dealer: list[str] = []
        peek = ""        # "" before the dealer's peek (or none), then "natural" or "none"
        peeked = False
        for slot, card, _ in shown:
            if not peeked and up is not None and len(player) >= 2 and slot != "player":
                peeked = True
                peek = self._peek(game, up, player, unseen)
            probs = self._probabilities(slot, unseen, up, peek)
            if probs.get(card, 0.0) > 0.0:
                self._card(slot, card, probs, player, dealer)
            unseen.discard(card)
            if slot in ("player", "player_draw"):
                player.append(card)
            elif slot == "dealer_up":
                up = card
                dealer.append(card)
            else:
                dealer.append(card)
            if slot == "hidden":
                peek = ""
        if not peeked and up is not None and len(player) >= 2:
            self._peek(game, up, player, unseen)

    def _peek(self, game: Any, up: str, player: list[str], unseen: set[str]) -> str:
        """The dealer's peek after the opening: "natural", "none" (the game went on without one), or ""."""
        if _t.hand_total(player) == 21 or _t.card_points(up) not in (10, 11):
            return ""        # the player's natural ends the game; a dealer showing 2-9 cannot have one
        completing = sum(1 for c in unseen if _natural_with(up, c))
        natural = game.result_kind == "dealer_natural"
        self.events["natural"].step(completing / len(unseen), natural)
        return "natural" if natural else "none"

    @staticmethod
    def _probabilities(slot: str, unseen: set[str], up: str | None, peek: str) -> dict[str, float]:
        """Chance of each unseen card for the card shown now, under a fair shuffle and what the peek told."""
        n = len(unseen)
        if not peek or up is None:
            return {c: 1 / n for c in unseen}
        if peek == "natural":    # the hidden card completes the natural; any other card is one of the rest
            completing = [c for c in unseen if _natural_with(up, c)]
            if slot == "hidden":
                return {c: 1 / len(completing) for c in completing} if completing else {}
            return {c: (1 - (1 / len(completing) if c in completing else 0.0)) / (n - 1) for c in unseen} if n > 1 else {}
        others = [c for c in unseen if not _natural_with(up, c)]    # what the hidden card can be
        m = len(others)
        if slot == "hidden":
            return {c: 1 / m for c in others} if m else {}
        if n < 2 or not m:
            return {}
        spare = set(others)
        return {c: (1 - (1 / m if c in spare else 0.0)) / (n - 1) for c in unseen}

    def _card(self, slot: str, card: str, probs: dict[str, float], player: list[str], dealer: list[str]) -> None:
        self.cards += 1
        rank = card.split(" of ")[0]
        rank_p: dict[str, float] = {}
        for c, p in probs.items():
            r = c.split(" of ")[0]
            rank_p[r] = rank_p.get(r, 0.0) + p
        for r in _t.RANKS:
            self.events[f"rank {r}"].step(rank_p.get(r, 0.0), r == rank)
        if slot in ("player", "dealer_up"):
            return      # the opening: its totals are the opening tests' (naturals, ranks)
        hand, whose = (player, "the player's") if slot == "player_draw" else (dealer, "the dealer's")
        if slot == "hidden" and not dealer:
            return
        bucket_p: dict[str, float] = {}
        for c, p in probs.items():
            b = _bucket(_t.hand_total([*hand, c]))
            bucket_p[b] = bucket_p.get(b, 0.0) + p
        got = _bucket(_t.hand_total([*hand, card]))
        for b in sorted(bucket_p):
            self.events[f"{whose} {b}"].step(bucket_p[b], b == got)

    def evidence(self) -> tuple[float, _Event | None]:
        """log of the test martingale (the average over events and alternatives), and the event weighing most."""
        if not self.events:
            return -math.inf, None
        terms = [(value, event) for event in self.events.values() for value in event.log_lr]
        top = max(value for value, _ in terms)
        if top == -math.inf:
            return -math.inf, None
        total = top + math.log(sum(math.exp(value - top) for value, _ in terms)) - math.log(len(terms))
        worst = max(self.events.values(), key=lambda e: max(e.log_lr))
        return total, worst

    def verdict(self, alpha: float) -> str | None:
        """Why the cards are not a fair shuffle at significance ``alpha``, else None."""
        total, worst = self.evidence()
        if worst is None or total < math.log(1 / alpha):
            return None
        return (f"the {self.cards} cards of the {self.games} games it dealt itself are not a fair shuffle: "
                f"{worst.label} {worst.observed} times in {worst.chances} cards where a fair shuffle gives it about "
                f"{worst.expected:.1f} times (chance of such a deal under a fair shuffle below {alpha:g})")
