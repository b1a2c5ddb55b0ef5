"""Replay a student's game through the reference with the same cards and the same answers.

Students shuffle on their own, so the cards of a game are recovered from what the
program showed, checked to be a possible deal from one 52-card deck, and laid out
in the order the reference deals (player, player, dealer open, dealer hidden, then
draws). Cards the student's program never showed are filled from the unused rest of
the deck, the dealer's hidden card so that it makes no natural the student's dealer
did not show. The reference then plays that deck with the student's answers.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .transcript import ALL_CARDS, GameRecord, TranscriptParser, card_points


@dataclass(frozen=True)
class Replay:
    """The reference's version of one game, and how many of the student's answers it used."""

    game: GameRecord
    answers_used: int
    wanted_more: bool   # the reference still wanted an answer when the student's game ended


def deal_problems(game: GameRecord) -> list[str]:
    """Why the cards a game showed cannot come from one shuffled 52-card deck."""
    problems = []
    shown = game.revealed()
    for card in dict.fromkeys(shown):
        if card not in ALL_CARDS:
            problems.append(f"'{card}' is not a card of a 52-card deck")
        elif shown.count(card) > 1:
            problems.append(f"{card} was dealt {shown.count(card)} times in one game")
    if len(game.player) != 2:
        problems.append(f"the player should get 2 open cards at the start, {len(game.player)} were shown")
    if game.dealer_up is None:
        problems.append("the dealer's open card ('The first of my initial two cards is ...') was not shown")
    return problems


def _makes_natural(first: str, second: str) -> bool:
    return {card_points(first), card_points(second)} == {10, 11}


def build_deck(game: GameRecord) -> list[str]:
    """A full deck, in the reference's dealing order, that reproduces the game's cards."""
    shown = [c for c in dict.fromkeys(game.revealed()) if c in ALL_CARDS]
    unused = [c for c in ALL_CARDS if c not in shown]

    def take(card: str | None, *, avoid_natural_with: str | None = None) -> str:
        if card is not None and card in ALL_CARDS and card not in deck:
            return card
        for candidate in unused:
            if avoid_natural_with and _makes_natural(avoid_natural_with, candidate):
                continue
            unused.remove(candidate)
            return candidate
        return unused.pop(0)

    deck: list[str] = []
    player = (game.player + [None, None])[:2]
    for card in player:
        deck.append(take(card))
    deck.append(take(game.dealer_up))
    deck.append(take(game.dealer_hidden, avoid_natural_with=deck[2]))
    for card in [*game.player_draws, *game.dealer_draws]:
        if card in ALL_CARDS and card not in deck:
            deck.append(card)
    deck.extend(c for c in unused if c not in deck)
    return deck


class _Answers(io.StringIO):
    """stdin for the reference: the student's answers, cutting the output at every read."""

    def __init__(self, answers: list[tuple[str, str]], out: io.StringIO, items: list[tuple[str, str, str]]):
        super().__init__()
        self.answers = list(answers)
        self.used = 0
        self.out = out
        self.items = items

    def _flush_output(self) -> None:
        text = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        self.items.append(("out", text, ""))

    def readline(self, *_: Any) -> str:  # type: ignore[override]
        self._flush_output()
        if self.used >= len(self.answers):
            return ""
        kind, text = self.answers[self.used]
        self.used += 1
        self.items.append(("in", text, kind))
        return text + "\n"


def replay_game(reference: ModuleType, game: GameRecord, deck: list[str]) -> Replay:
    """Play ``deck`` through the reference's game with the answers the student's game received."""
    out = io.StringIO()
    items: list[tuple[str, str, str]] = []
    answers = _Answers(game.inputs, out, items)
    console = reference.Console(answers, out)
    console.say(f">>>> We are about to start Game number {game.number} <<<<")
    wanted_more = False
    try:
        stake = reference.ask_stake(console)
        reference.Game(console, deck, stake).play()
    except reference.EndOfInput:
        wanted_more = True
    answers._flush_output()
    parser = TranscriptParser()
    for direction, text, kind in items:
        if direction == "out":
            parser.feed_output(text)
        else:
            parser.feed_input(text, kind)
    session = parser.finish()
    replayed = session.games[0] if session.games else GameRecord(number=game.number)
    return Replay(game=replayed, answers_used=answers.used, wanted_more=wanted_more)


def reference_session_lines(reference: ModuleType, replays: list[Replay], total: float) -> list[str]:
    """The lines the reference would print for the whole session, for the wording check."""
    out = io.StringIO()
    console = reference.Console(io.StringIO(), out)
    console.say("******* WELCOME TO BLACKJACK ********")
    lines = out.getvalue().splitlines()
    for replay in replays:
        lines.extend(replay.game.lines)
    out = io.StringIO()
    reference.print_summary(reference.Console(io.StringIO(), out), total)
    return lines + out.getvalue().splitlines()
