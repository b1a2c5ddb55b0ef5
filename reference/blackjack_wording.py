"""The handout's wording of a Blackjack session, counted only where each kind of line belongs.

Trusted course code beside specs/blackjack.yaml (loaded by reference/blackjack_program.py).
A kind of line is a line with its cards and amounts as placeholders ("Your next card is {card}").
It counts for the program only when printed in the place the game calls for it:

* a game's lines (its stake prompt to its result line) count in that game, and only the kinds the
  reference printed when it replayed that game with the same cards and answers; a prompt counts only
  on the line an answer ended ("Enter chosen action: 2" printed as a plain line is not a prompt);
* the welcome line before the first game, a game's banner between the previous game and its stake
  prompt, the final total on the line the grader read as the total, the goodbye after the last game.

A legend of the handout's lines printed before the first game, after a game's result or after the
goodbye counts for nothing: the parser skips those places, so they can hold any text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from grader.spec.loader import load_trusted_module

_t = load_trusted_module(Path(__file__).with_name("blackjack_transcript.py"), "blackjack_transcript")

WELCOME = "******* WELCOME TO BLACKJACK ********"
BANNER = ">>>> We are about to start Game number {n} <<<<"
GOODBYE = "******** GOODBYE - COME AGAIN **********"

#: The handout's kinds of line (its sample runs), each judged when its situation arose in the session.
HANDOUT_LINES = (
    WELCOME, BANNER,
    "Enter your stake in Euro: {n}", "{card}", "The first of my initial two cards is {card}",
    "Your next card is {card}", "Your final card is {card}", "Enter chosen action: {n}", "My turn to play...",
    "My second initial card is {card}", "My next card is {card}", "I am stopping...",
    "I have burned myself and you win {n} Euro", "Blackjack for me!!! You have just lost {n} Euro",
    "Blackjack for you!!! You have just won {n} Euro", "You have been burned and have lost {n} Euro",
    "By surrendering you only lose {n} Euro", "You have won {n} Euro", "You have lost {n} Euro",
    "My second card is {card}", "As you see I have a natural blackjack, so you lose your stake",
    "You have won {n} Euro. Lucky you!!", "You have lost {n} Euro. Next time luckier.",
    GOODBYE,
)
#: Prompts: they count only where an answer followed them.
PROMPTS = frozenset(kind for kind in HANDOUT_LINES if kind.endswith(": {n}"))


def template(line: str) -> str:
    """A line's kind: cards and amounts replaced by placeholders."""
    text = _t._CARD.sub("{card}", line.rstrip())
    return re.sub(r"-?\d+(?:\.\d+)?", "{n}", text)


@dataclass
class Wording:
    """The kinds of line whose situation arose, and those the program printed where they belong."""

    arose: set[str] = field(default_factory=set)
    in_place: set[str] = field(default_factory=set)

    def place(self, expected: Iterable[str], printed: Iterable[str]) -> None:
        """One place of the session: the reference's lines for it, and the program's."""
        kinds = {template(line) for line in expected}
        self.arose |= kinds
        self.in_place |= kinds & {template(line) for line in printed}

    def game(self, game: Any, reference_lines: Iterable[str], answered: set[int]) -> None:
        """A replayed game: the program's lines from its stake prompt to its result."""
        printed = [text for number, text in game.lines if number in answered or template(text) not in PROMPTS]
        self.place(reference_lines, printed)

    def session(self, session: Any, *, ended: bool, summary: list[str]) -> None:
        """The places around the games: welcome, each game's banner, and (a session that ended) total and goodbye."""
        lines = session.lines
        last = 0                                   # the last line of the game before
        for game in session.games:
            before = lines[last:max(game.first_line - 1, last)]
            self.place([WELCOME] if game.number == 1 else [], before)
            self.place([BANNER.replace("{n}", str(game.number))], before)
            last = max([last, *(number for number, _ in game.lines)])
        if not session.games:
            self.place([WELCOME], lines)
        if ended:
            total, goodbye = summary[:-1], summary[-1:]
            self.place(total, [session.summary_line[1]] if session.summary_line else [])
            self.place(goodbye, lines[last:])

    def ratio(self) -> tuple[float, list[str]]:
        """Share of the handout's kinds of line the program got right, and the first it did not.

        A kind counts against the program only when its situation arose (the reference printed it for
        the same games); the share is over all the handout's kinds, so it does not depend on which
        situations the program's own deals made.
        """
        missing = [kind for kind in HANDOUT_LINES if kind in self.arose and kind not in self.in_place]
        return 1 - len(missing) / len(HANDOUT_LINES), [f"never printed '{kind}' where it belongs" for kind in missing[:4]]
