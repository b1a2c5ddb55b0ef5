"""A multiplayer Elo rating, computed from the pairwise results inside each game.

Every game is read as the 6 head-to-head matches between its seats: the higher score beats
the lower, equal scores draw.  Each seat's rating moves by ``K / (seats - 1)`` times the sum of
(result - expected) over its matches, all seats updated together after the game, games taken
in game-number order (so the figure is reproducible).  A bot occupying two seats of one game
does not play itself; its two seats' changes add up.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence


def expected(r_a: float, r_b: float) -> float:
    """The chance that a player rated ``r_a`` beats one rated ``r_b``."""
    return 1.0 / (1.0 + 10.0 ** ((r_b - r_a) / 400.0))


def update(ratings: Mapping[str, float], entrants: Sequence[str], scores: Sequence[int], k: float) -> dict[str, float]:
    """The ratings after one game (a new dict; ``ratings`` is not changed)."""
    n = len(entrants)
    change = {e: 0.0 for e in entrants}
    for i in range(n):
        for j in range(n):
            if i == j or entrants[i] == entrants[j]:
                continue
            result = 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
            change[entrants[i]] += k / (n - 1) * (result - expected(ratings[entrants[i]], ratings[entrants[j]]))
    out = dict(ratings)
    for e, delta in change.items():
        out[e] += delta
    return out


def elo(games: Iterable[tuple[Sequence[str], Sequence[int]]], entrants: Iterable[str], *, initial: float = 1500.0, k: float = 32.0) -> dict[str, float]:
    """Final ratings after ``games`` (pairs of seat entrants and seat scores, in order)."""
    ratings = {e: float(initial) for e in entrants}
    for seated, scores in games:
        ratings = update(ratings, seated, scores, k)
    return ratings
