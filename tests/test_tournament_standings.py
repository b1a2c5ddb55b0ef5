"""Leaderboard figures on a tiny fixed tournament, computed by hand."""
from __future__ import annotations

import pytest

from grader.tournament.config import TournamentConfig
from grader.tournament.ratings import elo, expected, update
from grader.tournament.referee import Fault, GameRecord
from grader.tournament.standings import standings


def record(game, entrants, scores, *, time_s=(0, 0, 0, 0), calls=(10, 10, 10, 10), faults=()):
    top = max(scores)
    k = scores.count(top)
    return GameRecord(game=game, seed=game, entrants=tuple(entrants), hands=[], discards=[], moves=[], groupings=[[]] * 4,
                      grouped_by=["player"] * 4, scores=list(scores), wins=[1 / k if s == top else 0.0 for s in scores],
                      faults=list(faults), play_time_s=list(time_s), play_calls=list(calls))


def fault(game, entrant, phase):
    return Fault(game, game, 0, entrant, phase, 1 if phase == "play" else None, "exception", "boom")


GAMES = [
    # a beats everyone, b and c draw, d loses to all
    record(1, "abcd", [10, 5, 5, -3], time_s=(0.010, 0, 0, 0), faults=[fault(1, "a", "play"), fault(1, "a", "play")]),
    # d and c tie for the win (half a win each), b beats a
    record(2, "dcba", [20, 20, 0, -1], time_s=(0, 0, 0, 0.030), faults=[fault(2, "b", "group")]),
]


def test_expected_score():
    assert expected(1500, 1500) == 0.5
    assert expected(1900, 1500) == pytest.approx(10 / 11)


def test_elo_by_hand():
    k = 32 / 3  # K / (seats - 1)
    after_1 = update({e: 1500.0 for e in "abcd"}, "abcd", [10, 5, 5, -3], 32)
    # all equal, so every expectation is 0.5: a +1.5 k = +16, b and c (0 + 0.5 + 1) - 1.5 = 0, d -16
    assert after_1 == pytest.approx({"a": 1516, "b": 1500, "c": 1500, "d": 1484})
    final = elo([(g.entrants, g.scores) for g in GAMES], "abcd")
    e = expected
    # b: beats a (1516), loses to c (1500) and d (1484): E(b,a) + E(b,d) = 1 since 1516 and 1484 mirror 1500.
    assert final["b"] == pytest.approx(1500 + k * ((1 - e(1500, 1516)) + (0 - 0.5) + (0 - e(1500, 1484))))
    assert final["b"] == pytest.approx(1500 - k / 2)
    assert final["c"] == pytest.approx(1500 + k)  # beats a and b, draws d: (1 - E) + 0.5 + (0.5 - E') with E + E' = 1
    # a (1516) loses to b and c (1500) and d (1484); d beats a and b, draws c.
    assert final["a"] == pytest.approx(1516 + k * (-2 * e(1516, 1500) - e(1516, 1484)))
    assert final["d"] == pytest.approx(1484 + k * ((1 - e(1484, 1516)) + (1 - e(1484, 1500)) + (0.5 - e(1484, 1500))))
    assert sum(final.values()) == pytest.approx(4 * 1500)


def test_standings_by_hand():
    rows = {r.entrant: r for r in standings(GAMES, list("abcd"), TournamentConfig())}
    assert {e: r.games for e, r in rows.items()} == {"a": 2, "b": 2, "c": 2, "d": 2}
    assert {e: r.mean_score for e, r in rows.items()} == {"a": 4.5, "b": 2.5, "c": 12.5, "d": 8.5}
    assert {e: r.wins for e, r in rows.items()} == {"a": 1.0, "b": 0.0, "c": 0.5, "d": 0.5}
    assert {e: r.win_rate for e, r in rows.items()} == {"a": 0.5, "b": 0.0, "c": 0.25, "d": 0.25}
    assert (rows["a"].illegal_moves, rows["a"].invalid_groupings, rows["b"].invalid_groupings) == (2, 0, 1)
    # a: 10 ms in game 1 (seat 0) + 30 ms in game 2 (seat 3) over 20 moves
    assert rows["a"].mean_move_ms == pytest.approx(40 / 20) and rows["d"].mean_move_ms == 0.0
    assert rows["c"].rank == 1 and rows["b"].rank == 4  # ranked by rating
    assert [r.rank for r in sorted(rows.values(), key=lambda r: -r.rating)] == [1, 2, 3, 4]


def test_a_bot_in_two_seats_plays_two_games_and_not_itself():
    g = record(1, ["x", "bot:random", "bot:random", "y"], [3, 1, 2, 0])
    rows = {r.entrant: r for r in standings([g], ["x", "y", "bot:random"], TournamentConfig())}
    assert rows["bot:random"].games == 2 and rows["bot:random"].mean_score == 1.5
    ratings = elo([(g.entrants, g.scores)], ["x", "y", "bot:random"])
    assert sum(ratings.values()) == pytest.approx(3 * 1500)  # zero-sum
