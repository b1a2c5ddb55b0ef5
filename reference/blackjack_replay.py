"""Replay a student's game through the reference with the same cards and the same answers.

Trusted course code beside specs/blackjack.yaml. Students shuffle on their own, so the cards of
a game are recovered from what the program showed and laid out in the order the reference
deals (player, player, dealer open, dealer hidden, then draws). Cards the program never showed
are filled from the unused rest of the deck, the dealer's hidden card so that it makes a
natural exactly when the program's dealer claimed one. The reference then plays that deck,
asking its questions; each is answered with the student's answer of the same kind.
"""
from __future__ import annotations

import io
import random
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

from grader.spec.loader import load_trusted_module

_t = load_trusted_module(Path(__file__).with_name("blackjack_transcript.py"), "blackjack_transcript")


@dataclass(frozen=True)
class Replay:
    """The reference's version of one game, and what it made of the student's answers."""

    game: Any                    # the reference's GameRecord
    answers_unused: list[str]    # kinds of the student's answers the reference never asked for
    wanted: list[str]            # kinds the reference asked for that the student's game never answered


def deal_problems(game: Any) -> list[str]:
    """Why the cards a game showed cannot come from one shuffled 52-card deck."""
    problems = []
    shown = game.revealed()
    for card in dict.fromkeys(shown):
        if card not in _t.ALL_CARDS:
            problems.append(f"'{card}' is not a card of a 52-card deck")
    for card, line in game.repeated[:3]:
        problems.append(f"{card} was dealt a second time in one game (line {line})")
    if len(game.repeated) > 3:
        problems.append(f"... and {len(game.repeated) - 3} more cards dealt a second time")
    if len(game.player) != 2:
        problems.append(f"the player should get 2 open cards at the start, {len(game.player)} were shown")
    if game.dealer_up is None:
        problems.append("the dealer's open card was not shown")
    return problems


def replayable(game: Any) -> bool:
    """Its cards can be played again: every one a card of the deck, two for the player, the dealer's open one.

    A card shown twice does not stop a replay: the reference is dealt the cards as shown, repeat included
    (``build_deck(game, as_shown=True)``), so the rest of the game is judged like any other.
    """
    return all(card in _t.ALL_CARDS for card in game.revealed()) and len(game.player) == 2 and game.dealer_up is not None


def _natural(first: str, second: str) -> bool:
    return {_t.card_points(first), _t.card_points(second)} == {10, 11}


def build_deck(game: Any, *, as_shown: bool = False) -> list[str]:
    """A full deck, in the reference's dealing order, that reproduces the game's cards.

    ``as_shown``: a card the game showed twice is dealt twice (its other cards still fill the rest), so that
    the reference plays the very cards the program played.
    """
    shown = [c for c in dict.fromkeys(game.revealed()) if c in _t.ALL_CARDS]
    unused = [c for c in _t.ALL_CARDS if c not in shown]
    deck: list[str] = []

    def take(card: str | None, natural_with: str | None = None, natural: bool = False) -> str:
        if card is not None and card in _t.ALL_CARDS and (as_shown or card not in deck):
            return card
        for candidate in unused:
            if natural_with is None or _natural(natural_with, candidate) == natural:
                unused.remove(candidate)
                return candidate
        return unused.pop(0)

    for card in (game.player + [None, None])[:2]:
        deck.append(take(card))
    deck.append(take(game.dealer_up))
    deck.append(take(game.dealer_hidden, deck[2], game.result_kind == "dealer_natural"))
    for card in [*game.player_draws, *game.dealer_draws]:
        if card in _t.ALL_CARDS and (as_shown or card not in deck):
            deck.append(card)
    deck.extend(c for c in unused if c not in deck)
    return deck


class _Answers(io.StringIO):
    """stdin for the reference: its question's kind is read off its own prompt; the student's answer of that kind."""

    def __init__(self, answers: list[Any], out: io.StringIO, parser: Any):
        super().__init__()
        self.pending = {kind: [a for a in answers if a.kind == kind] for kind in ("stake", "insurance", "action")}
        self.out = out
        self.parser = parser
        self.wanted: list[str] = []

    def readline(self, *_: Any) -> str:  # type: ignore[override]
        self.parser.feed_output(self.out.getvalue())
        self.out.seek(0)
        self.out.truncate()
        prompt = _t.normalize(self.parser.partial)
        kind = "stake" if "stake in euro" in prompt else "insurance" if "insure" in prompt else "action"
        if self.pending[kind]:
            answer = self.pending[kind].pop(0)
        elif kind == "insurance":   # the student's program never offered it: as if the player kept the stake
            self.wanted.append(kind)
            game = self.parser.game
            answer = _t.Answer(kind, "", (game.stake if game else 0) or 0)
        else:
            self.wanted.append(kind)
            return ""
        reference_answer = _t.Answer(kind, _amount(answer.value), answer.value)
        self.parser.feed_answer(reference_answer)
        return reference_answer.text + "\n"


def _amount(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def replay_game(reference: ModuleType, game: Any, deck: list[str]) -> Replay:
    """Play ``deck`` through the reference's game with the answers the student's game received."""
    out = io.StringIO()
    parser = _t.TranscriptParser()
    answers = _Answers(game.answers, out, parser)
    console = reference.Console(answers, out)
    try:
        stake = reference.ask_stake(console)
        reference.Game(console, deck, stake).play()
    except reference.EndOfInput:
        pass
    parser.feed_output(out.getvalue())
    session = parser.finish()
    replayed = session.games[0] if session.games else _t.GameRecord(number=game.number, first_line=0)
    unused = [a.kind for kind in answers.pending for a in answers.pending[kind]]
    return Replay(replayed, unused, answers.wanted)


def reference_lines(reference: ModuleType, name: str, *args: Any) -> list[str]:
    """The lines one of the reference's printing functions writes (banners, the summary)."""
    out = io.StringIO()
    console = reference.Console(io.StringIO(), out)
    getattr(reference, name)(console, *args) if name != "say" else console.say(*args)
    return out.getvalue().splitlines()


def spec_decks(case: Mapping[str, Any]) -> list[list[str]]:
    """The decks a case gives deck-aware programs: listed prefixes completed in order, else seeded shuffles."""
    prefixes = case.get("decks")
    if prefixes:
        return [list(p) + [c for c in _t.ALL_CARDS if c not in p] for p in prefixes]
    rng = random.Random(case.get("seed", 0))
    decks = []
    for _ in range(max(int(case.get("games", 3)), 1)):
        deck = list(_t.ALL_CARDS)
        rng.shuffle(deck)
        decks.append(deck)
    return decks
