"""Ratings with uncertainty, from the order of the seats in each game (openskill's Weng-Lin
Bayesian models: Plackett-Luce by default).

Each game is one match: every seat a team of one, ranked by its score (equal scores tie).
Each entrant's skill is a normal belief (``mu``, ``sigma``); the leaderboard shows ``mu``
and the interval ``mu +- z * sigma`` for the spec's confidence (0.95 by default).  ``tau`` is
0: skills do not drift during a tournament, so sigma only shrinks as evidence comes in.
Games are taken in game-number order, so the figures are reproducible.  A bot occupying two
seats of one game plays both: its two seats' changes add up.

Two adjacent entrants are *settled* when the chance that the upper one is the stronger,
``Phi((mu_a - mu_b) / sqrt(sigma_a^2 + sigma_b^2))``, reaches the confidence; ``--games auto``
plays until every adjacent pair is settled.
"""
from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Iterable, Sequence

MODELS = {"plackett-luce": "PlackettLuce", "bradley-terry": "BradleyTerryFull", "thurstone-mosteller": "ThurstoneMostellerFull"}


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    def interval(self, confidence: float) -> tuple[float, float]:
        z = NormalDist().inv_cdf(0.5 + confidence / 2)
        return self.mu - z * self.sigma, self.mu + z * self.sigma


def _model(name: str) -> Any:
    import openskill.models

    return getattr(openskill.models, MODELS[name])(tau=0.0)


def rate(games: Iterable[tuple[Sequence[str], Sequence[float]]], entrants: Iterable[str], *,
         model: str = "plackett-luce") -> dict[str, Rating]:
    """Each entrant's rating after ``games`` (pairs of seat entrants and seat scores, in order)."""
    m = _model(model)
    ratings = {e: m.rating(name=e) for e in entrants}
    for seated, scores in games:
        before = [ratings[e] for e in seated]
        teams = [[m.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        after = m.rate(teams, scores=list(scores))
        merged: dict[str, tuple[float, float]] = {}
        for e, old, (new,) in zip(seated, before, after):
            mu, var = merged.get(e, (old.mu, old.sigma ** 2))
            # Several seats of one entrant: mu moves by every seat's change, and each seat's
            # evidence shrinks the variance by its own factor.
            merged[e] = (mu + new.mu - old.mu, var * (new.sigma ** 2 / old.sigma ** 2))
        for e, (mu, var) in merged.items():
            ratings[e] = m.rating(mu=mu, sigma=var ** 0.5)
    return {e: Rating(r.mu, r.sigma) for e, r in ratings.items()}


def chance_above(upper: Rating, lower: Rating) -> float:
    """The chance that ``upper`` is truly the stronger of the two."""
    spread = (upper.sigma ** 2 + lower.sigma ** 2) ** 0.5
    return NormalDist().cdf((upper.mu - lower.mu) / spread) if spread > 0 else float(upper.mu > lower.mu)

