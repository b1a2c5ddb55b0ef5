"""From finished games to the figures of the leaderboard, computed once, here.

Every seat taken counts as one game for its entrant (a bot filling two seats of a game plays
two).  A win is shared: ``k`` tied winners each get ``1/k`` of a win; the win rate is the sum
of those shares over the games played.  The order is by rating (see :mod:`.ratings`), and
each row says whether its place above the next row is settled at the spec's confidence.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from grader.spec.model import TournamentSpec
from grader.tournament.match import GameRecord
from grader.tournament.players import is_bot
from grader.tournament.ratings import chance_above, rate


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant: str
    games: int
    mean_score: float
    wins: float  # shared wins, see the module docstring
    win_rate: float
    rating: float  # mu: the estimate of the entrant's skill
    sigma: float  # its uncertainty
    low: float  # the interval at the spec's confidence
    high: float
    above_next: float | None  # chance this row is truly stronger than the next (None for the last)
    faults: int  # calls answered against the rules
    moves: int  # calls of the player's functions actually made
    mean_move_ms: float

    @property
    def is_bot(self) -> bool:
        return is_bot(self.entrant)


def standings(records: Sequence[GameRecord], entrants: Sequence[str], config: TournamentSpec) -> list[Standing]:
    """The leaderboard, best first: by rating, then mean score, then name."""
    records = sorted(records, key=lambda r: r.game)
    ratings = rate(((r.entrants, r.scores) for r in records), entrants, model=config.rating_model)
    tally: dict[str, dict[str, float]] = {e: {"games": 0, "score": 0, "wins": 0.0, "faults": 0, "moves": 0, "time": 0.0} for e in entrants}
    for r in records:
        for s, e in enumerate(r.entrants):
            t = tally[e]
            t["games"] += 1
            t["score"] += r.scores[s]
            t["wins"] += r.wins[s]
            t["moves"] += r.play_calls[s]
            t["time"] += r.play_time_s[s]
        for f in r.faults:
            tally[f.entrant]["faults"] += 1
    rows = []
    for e in entrants:
        t, rating = tally[e], ratings[e]
        games, moves = int(t["games"]), int(t["moves"])
        low, high = rating.interval(config.rating_interval)
        rows.append(Standing(
            rank=0, entrant=e, games=games,
            mean_score=t["score"] / games if games else 0.0,
            wins=t["wins"], win_rate=t["wins"] / games if games else 0.0,
            rating=rating.mu, sigma=rating.sigma, low=low, high=high, above_next=None,
            faults=int(t["faults"]), moves=moves, mean_move_ms=1000.0 * t["time"] / moves if moves else 0.0,
        ))
    rows.sort(key=lambda row: (-row.rating, -row.mean_score, row.entrant))
    out = []
    for i, row in enumerate(rows):
        above = None
        if i + 1 < len(rows):
            above = chance_above(ratings[row.entrant], ratings[rows[i + 1].entrant])
        out.append(replace(row, rank=i + 1, above_next=above))
    return out


def unsettled_pairs(rows: Sequence[Standing], confidence: float) -> list[tuple[str, str]]:
    """Adjacent rows whose order is not yet known at ``confidence``."""
    return [(a.entrant, b.entrant) for a, b in zip(rows, rows[1:]) if a.above_next is not None and a.above_next < confidence]
