"""Leaderboard figures on a tiny fixed tournament: tallies by hand, ratings with intervals."""
from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from grader.spec.model import TournamentSpec
from grader.tournament.game import Fault
from grader.tournament.match import GameRecord, shared_wins
from grader.tournament.ratings import Rating, chance_above, rate
from grader.tournament.standings import standings, unsettled_pairs


def record(game, entrants, scores, *, time_s=(0, 0, 0, 0), calls=(10, 10, 10, 10), faults=()):
    return GameRecord(game=game, seed=game, entrants=tuple(entrants), scores=list(scores), wins=shared_wins(scores),
                      faults=list(faults), play_time_s=list(time_s), play_calls=list(calls))


def fault(game, entrant, role):
    return Fault(game, game, 0, entrant, role, 1 if role == "play" else None, "exception", "boom")


GAMES = [
    # a beats everyone, b and c draw, d loses to all
    record(1, "abcd", [10, 5, 5, -3], time_s=(0.010, 0, 0, 0), faults=[fault(1, "a", "play"), fault(1, "a", "play")]),
    # d and c tie for the win (half a win each), b beats a
    record(2, "dcba", [20, 20, 0, -1], time_s=(0, 0, 0, 0.030), faults=[fault(2, "b", "group")]),
]


def test_tallies_by_hand():
    rows = {r.entrant: r for r in standings(GAMES, list("abcd"), TournamentSpec())}
    assert {e: r.games for e, r in rows.items()} == {"a": 2, "b": 2, "c": 2, "d": 2}
    assert {e: r.mean_score for e, r in rows.items()} == {"a": 4.5, "b": 2.5, "c": 12.5, "d": 8.5}
    assert {e: r.wins for e, r in rows.items()} == {"a": 1.0, "b": 0.0, "c": 0.5, "d": 0.5}
    assert {e: r.win_rate for e, r in rows.items()} == {"a": 0.5, "b": 0.0, "c": 0.25, "d": 0.25}
    assert (rows["a"].faults, rows["b"].faults, rows["c"].faults) == (2, 1, 0)
    # a: 10 ms in game 1 (seat 0) + 30 ms in game 2 (seat 3) over 20 moves
    assert rows["a"].mean_move_ms == pytest.approx(40 / 20) and rows["d"].mean_move_ms == 0.0
    assert [r.rank for r in sorted(rows.values(), key=lambda r: -r.rating)] == [1, 2, 3, 4]


def test_ratings_are_openskill_on_the_order_of_the_seats():
    model = PlackettLuce(tau=0.0)
    mine = {e: model.rating() for e in "abcd"}
    for g in GAMES:
        teams = model.rate([[mine[e]] for e in g.entrants], scores=list(g.scores))
        for e, (new,) in zip(g.entrants, teams):
            mine[e] = new
    ours = rate([(g.entrants, g.scores) for g in GAMES], "abcd")
    for e in "abcd":
        assert ours[e].mu == pytest.approx(mine[e].mu) and ours[e].sigma == pytest.approx(mine[e].sigma)
    assert all(ours[e].sigma < 25 / 3 for e in "abcd")  # evidence shrinks every uncertainty


def test_each_row_has_an_interval_and_the_chance_it_is_above_the_next():
    rows = standings(GAMES, list("abcd"), TournamentSpec(rating_interval=0.95))
    for r in rows:
        assert r.low == pytest.approx(r.rating - 1.959964 * r.sigma, abs=1e-4)
        assert r.high == pytest.approx(r.rating + 1.959964 * r.sigma, abs=1e-4)
    assert all(0.5 <= r.above_next <= 1 for r in rows[:-1]) and rows[-1].above_next is None
    # Two games tell little: nothing is settled at 95%, every adjacent pair is reported.
    assert len(unsettled_pairs(rows, 0.95)) == 3
    assert unsettled_pairs(rows, 0.5) == []


def test_many_one_sided_games_settle_the_order():
    games = [record(g, ["x", "y", "z", "w"][g % 4:] + ["x", "y", "z", "w"][:g % 4], [0, 0, 0, 0]) for g in range(1, 41)]
    games = [record(g.game, g.entrants, [{"x": 9, "y": 5, "z": 2, "w": -1}[e] for e in g.entrants]) for g in games]
    rows = standings(games, list("xyzw"), TournamentSpec())
    assert [r.entrant for r in rows] == list("xyzw")
    assert unsettled_pairs(rows, 0.95) == []


def test_chance_above():
    assert chance_above(Rating(30, 1), Rating(30, 1)) == pytest.approx(0.5)
    assert chance_above(Rating(40, 1), Rating(30, 1)) > 0.999
    assert chance_above(Rating(31, 8), Rating(30, 8)) < 0.6


def test_a_bot_in_two_seats_plays_two_games_and_both_seats_count():
    g = record(1, ["x", "bot:random", "bot:random", "y"], [3, 1, 2, 0])
    rows = {r.entrant: r for r in standings([g], ["x", "y", "bot:random"], TournamentSpec())}
    assert rows["bot:random"].games == 2 and rows["bot:random"].mean_score == 1.5
    model = PlackettLuce(tau=0.0)
    start = model.rating()
    teams = model.rate([[model.rating()] for _ in range(4)], scores=[3, 1, 2, 0])
    moved = (teams[1][0].mu - start.mu) + (teams[2][0].mu - start.mu)
    assert rows["bot:random"].rating == pytest.approx(start.mu + moved)
    assert rows["bot:random"].sigma < teams[1][0].sigma  # two seats of evidence
