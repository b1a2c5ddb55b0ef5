"""Real sandboxed players from tests/fixtures/tournament: hostile ones finish their games."""
from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pytest

from grader.submissions import discover
from grader.tournament import runner
from grader.spec.model import TournamentSpec
from grader.tournament.game import game_class

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = Path(__file__).resolve().parent / "fixtures" / "tournament"
GO = game_class(ROOT / "reference" / "comp10001go_game.py")({"group_time_limit": 0.5})
FAST = TournamentSpec(move_time_limit=0.3, game_time_limit=3.0)


@pytest.fixture(scope="module")
def sessions():
    open_session, close = runner.sandbox_sessions()
    try:
        yield open_session
    finally:
        close()


def entrants(open_session, *names):
    subs = discover([PLAYERS / f"{n}.py" for n in names], ["comp10001go.py"])
    ok, rejected = runner.check_entries(subs, GO, open_session)
    assert not rejected, rejected
    return ok


def play(open_session, seats, *, seed=1, config=FAST, players=()):
    pool = {e.id: e for e in players}
    for e in runner.bot_entrants(["random", "greedy", "reference"]):
        pool[e.id] = e
    seating = runner.Seating(1, seed, tuple(seats))
    (record,) = runner.run_games([seating], list(pool.values()), GO, config, open_session)
    return record


def faults_of(record, who):
    return [(f.role, f.turn, f.kind) for f in record.faults if f.entrant == who]


def test_check_entries_rejects_what_cannot_play(sessions):
    subs = discover([PLAYERS / "broken.py", PLAYERS / "pairs.py"], ["comp10001go.py"])
    ok, rejected = runner.check_entries(subs, GO, sessions)
    assert [e.id for e in ok] == ["pairs"] and ok[0].names["group"] == "comp10001_group"  # the handout's alias
    assert rejected[0].id == "broken" and "syntax" in rejected[0].reason and "line 1" in rejected[0].reason


def test_every_kind_of_garbage_from_a_sandboxed_player(sessions):
    players = entrants(sessions, "garbage")
    record = play(sessions, ["bot:random", "garbage", "bot:greedy", "bot:reference"], players=players)
    assert faults_of(record, "garbage") == [
        ("play", 1, "not-a-string"), ("play", 2, "not-a-card"), ("play", 3, "not-in-hand"),
        ("play", 4, "exception"), ("play", 5, "protocol"), ("group", None, "invalid-grouping")]
    details = [f.detail for f in record.faults]
    assert "42" in details[0] and "ValueError: no idea what to play" in details[3]
    assert record.log["grouped_by"][1] == "singletons" and len(record.log["discards"]) == 10


def test_players_that_hang_crash_or_flood_output_finish_the_game(sessions):
    players = entrants(sessions, "hanger", "crasher", "chatty")
    record = play(sessions, ["hanger", "crasher", "chatty", "bot:reference"], players=players)
    assert faults_of(record, "hanger") == [("play", 3, "timeout")]  # and plays on after the restart
    assert faults_of(record, "crasher") == [("play", 4, "crashed"), ("group", None, "crashed")]
    assert faults_of(record, "chatty") == []
    assert record.log["grouped_by"] == ["player", "singletons", "player", "player"]
    assert all(len(hand) == 10 - turn for turn, hands in enumerate(record.log["hands"]) for hand in hands)


def test_a_player_cannot_see_another_players_hand(sessions):
    # spy.py searches gc, the call stack, /proc and /tmp for cards it was never shown and
    # plays any it finds, which would be recorded as not-in-hand.
    players = entrants(sessions, "spy", "pairs")
    for seed in (1, 2):
        record = play(sessions, ["spy", "pairs", "bot:reference", "bot:random"], seed=seed, players=players)
        assert faults_of(record, "spy") == []


def test_same_seed_same_games_and_different_seed_different_games(sessions):
    players = entrants(sessions, "first_card", "pairs")
    pool = players + runner.bot_entrants(["random", "greedy", "reference"])
    ids = [e.id for e in pool]

    def tournament(seed, jobs):
        seatings = runner.schedule(ids, 6, seed, GO.seats)
        return [asdict(r) for r in runner.run_games(seatings, pool, GO, FAST, sessions, jobs=jobs)]

    def strip(records):  # timings differ from run to run; everything else must not
        for r in records:
            r.pop("play_time_s")
        return records

    first = strip(tournament(5, 1))
    assert strip(tournament(5, 2)) == first
    other = strip(tournament(6, 1))
    assert [r["log"]["discards"] for r in other] != [r["log"]["discards"] for r in first]


def test_calls_to_several_sessions_are_in_flight_at_once(sessions):
    # The seats of a game are asked from one thread: every call is sent before any answer
    # is read, and each answer is read back from its own session whatever the order.
    players = entrants(sessions, "first_card", "pairs")
    hand = ["5H", "5S", "KD"]
    opened = [sessions(p, 150 + i) for i, p in enumerate(players)]
    try:
        live = [o.__enter__() for o in opened]
        waits = [s.start_call(p.names["play"], [[], 0, hand], time_limit=1.0) for s, p in zip(live, players)]
        results = [w() for w in reversed(waits)][::-1]
        assert [r.status for r in results] == ["ok", "ok"]
        assert (results[0].value, results[1].value) == ("5H", "KD")  # first card; the highest with no pairs yet
    finally:
        for o in opened:
            o.__exit__(None, None, None)


def test_two_colluding_players_at_one_table_cannot_see_each_others_hands(sessions):
    """Issue #12: sandboxes of one game share a kernel; what one player's call publishes in its
    state (file locks, above all) reaches no other player (a red team's pair read every hand)."""
    from dataclasses import replace

    (colluder,) = entrants(sessions, "colluder")
    twin = replace(colluder, id="colluder_twin")
    record = play(sessions, ["colluder", "bot:random", "colluder_twin", "bot:greedy"], players=[colluder, twin])
    leaks = [f for f in record.faults if f.entrant.startswith("colluder")]
    assert not leaks, leaks
