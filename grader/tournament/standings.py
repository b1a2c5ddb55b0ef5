"""From finished games to the figures of the leaderboard, computed once, here.

Every seat taken counts as one game for its entrant (a bot filling two seats of a game plays
two).  A win is shared: ``k`` tied winners each get ``1/k`` of a win; the win rate is the sum
of those shares over the games played.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from grader.tournament.config import TournamentConfig
from grader.tournament.ratings import elo
from grader.tournament.referee import GameRecord


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant: str
    games: int
    mean_score: float
    wins: float  # shared wins, see the module docstring
    win_rate: float
    rating: float
    illegal_moves: int
    invalid_groupings: int
    moves: int  # calls of the play function actually made
    mean_move_ms: float

    @property
    def is_bot(self) -> bool:
        return self.entrant.startswith("bot:")


def standings(records: Sequence[GameRecord], entrants: Sequence[str], config: TournamentConfig) -> list[Standing]:
    """The leaderboard, best first: by rating, then mean score, then name."""
    records = sorted(records, key=lambda r: r.game)
    ratings = elo(((r.entrants, r.scores) for r in records), entrants, initial=config.rating_initial, k=config.rating_k)
    tally: dict[str, dict[str, float]] = {e: {"games": 0, "score": 0, "wins": 0.0, "illegal": 0, "grouping": 0, "moves": 0, "time": 0.0} for e in entrants}
    for r in records:
        for s, e in enumerate(r.entrants):
            t = tally[e]
            t["games"] += 1
            t["score"] += r.scores[s]
            t["wins"] += r.wins[s]
            t["moves"] += r.play_calls[s]
            t["time"] += r.play_time_s[s]
        for f in r.faults:
            tally[f.entrant]["illegal" if f.phase == "play" else "grouping"] += 1
    rows = []
    for e in entrants:
        t = tally[e]
        games, moves = int(t["games"]), int(t["moves"])
        rows.append(Standing(
            rank=0, entrant=e, games=games,
            mean_score=t["score"] / games if games else 0.0,
            wins=t["wins"], win_rate=t["wins"] / games if games else 0.0,
            rating=ratings[e], illegal_moves=int(t["illegal"]), invalid_groupings=int(t["grouping"]),
            moves=moves, mean_move_ms=1000.0 * t["time"] / moves if moves else 0.0,
        ))
    rows.sort(key=lambda row: (-row.rating, -row.mean_score, row.entrant))
    return [replace(row, rank=i + 1) for i, row in enumerate(rows)]
