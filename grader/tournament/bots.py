"""Built-in opponents, trusted and run in-process, so one student can play a full table.

* ``bot:random``: discards a uniformly random card (seeded per game and seat);
* ``bot:greedy``: a one-look heuristic: keep making pairs and alternating-colour neighbours
  of its own discards, else shed the card whose orphan costs least;
* ``bot:reference``: the reference ``comp10001go_play``.

All three group with the reference ``comp10001go_group`` (an optimal grouping): a bot's
strength is in its play.
"""
from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from grader.tournament.players import BotPlayer

VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "0": 10, "J": 11, "Q": 12, "K": 13}
RED = {"H": 1, "D": 1, "S": 0, "C": 0}
PREFIX = "bot:"


class _Bot:
    def __init__(self, reference: ModuleType):
        self.reference = reference

    def group(self, history: list[list[str]], player_no: int) -> Any:
        return self.reference.comp10001go_group(history, player_no)


class RandomBot(_Bot):
    def play(self, history: list[list[str]], player_no: int, hand: list[str], rng: random.Random) -> str:
        return rng.choice(hand)


class GreedyBot(_Bot):
    def play(self, history: list[list[str]], player_no: int, hand: list[str], rng: random.Random) -> str:
        mine = [turn[player_no] for turn in history]

        def worth(card: str) -> float:
            v, colour = VALUES[card[0]], RED[card[1]]
            if v == 1:
                return -20.0
            same = sum(1 for c in mine if c[0] == card[0])
            near = sum(1 for c in mine if c[0] != "A" and abs(VALUES[c[0]] - v) == 1 and RED[c[1]] != colour)
            return 3.0 * v * same + v * near - v

        # max() keeps the first of equal cards, so ties go to the earlier card in the hand.
        return max(hand, key=worth)


class ReferenceBot(_Bot):
    def play(self, history: list[list[str]], player_no: int, hand: list[str], rng: random.Random) -> str:
        return self.reference.comp10001go_play(history, player_no, hand)


STRATEGIES = {"random": RandomBot, "greedy": GreedyBot, "reference": ReferenceBot}


def is_bot(entrant: str) -> bool:
    return entrant.startswith(PREFIX)


def make_bot(entrant: str, reference: ModuleType) -> BotPlayer:
    """The player for ``bot:NAME``."""
    name = entrant[len(PREFIX):] if is_bot(entrant) else entrant
    return BotPlayer(PREFIX + name, STRATEGIES[name](reference))
