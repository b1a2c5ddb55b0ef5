"""A seat's game budget is charged from outside the player: its own clock is not believed."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.run.model import CallResult
from grader.spec.model import TournamentSpec
from grader.submissions import discover
from grader.tournament import runner
from grader.tournament.game import Reply, game_class
from grader.tournament.match import play_game
from grader.tournament.players import reply_from_call

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = Path(__file__).resolve().parent / "fixtures" / "tournament"
GO = game_class(ROOT / "reference" / "comp10001go_game.py")({"group_time_limit": 0.5})


def test_the_budget_is_charged_the_kernels_cpu_count_and_the_wall_clock_feeds_only_its_backstop():
    thought = CallResult("ok", "5H", time_s=0.25, wall_s=0.3)
    assert (reply_from_call(thought).time_s, reply_from_call(thought).wall_s) == (0.25, 0.3)
    crowded = CallResult("ok", "5H", time_s=0.6, wall_s=2.0)                # an honest 0.6 s on a busy machine
    assert (reply_from_call(crowded).time_s, reply_from_call(crowded).wall_s) == (0.6, 2.0)
    threads = CallResult("ok", "5H", time_s=1.2, wall_s=0.6)                # two threads: CPU over wall
    assert reply_from_call(threads).wall_s == 1.2


class _Fixed:
    """A seat whose every call costs ``cpu`` seconds of CPU time and ``wall`` of wall-clock time."""

    def __init__(self, entrant, cpu, wall):
        self.entrant, self.cpu, self.wall, self.calls = entrant, cpu, wall, 0

    def new_game(self, seed, seat):
        pass

    def start(self, role, args, time_limit):
        self.calls += 1
        value = args[2][0] if role == "play" else [[t[args[1]]] for t in args[0]]
        reply = Reply("ok", value, time_s=self.cpu, wall_s=self.wall)
        return lambda: reply


def test_a_neighbours_load_never_spends_an_honest_players_budget():
    # rt-go: three players burning 0.8 s of CPU a move made an honest 0.6 s-a-move player's
    # wall time 2 s a move, and the budget (then charged the wall clock) ran out at turn 6.
    honest = _Fixed("heavy_honest", cpu=0.6, wall=2.0)
    seats = [honest] + [_Fixed(f"burner{i}", cpu=0.8, wall=2.4) for i in range(3)]
    record = play_game(GO, seats, 3, TournamentSpec(move_time_limit=1.0, game_time_limit=10.0))
    assert [f for f in record.faults if f.entrant == "heavy_honest"] == []
    assert honest.calls == 11 and record.play_time_s[0] == pytest.approx(6.6)


def test_a_player_that_sleeps_runs_into_the_budgets_wall_clock_backstop():
    sleeper = _Fixed("sleeper", cpu=0.0, wall=3.4)   # within the per-call backstop (3.5 s) every time
    seats = [sleeper] + [_Fixed(f"p{i}", cpu=0.001, wall=0.001) for i in range(3)]
    record = play_game(GO, seats, 3, TournamentSpec(move_time_limit=1.0, game_time_limit=10.0))
    faults = [f for f in record.faults if f.entrant == "sleeper"]
    assert [(f.turn, f.role) for f in faults] == [(10, "play"), (None, "group")]   # 9 x 3.4 > 3 x 10 + 0.5 s
    assert all(f.kind == "game-time" and "wall-clock" in f.detail for f in faults)


def _play_one_game(entrant: str, config: TournamentSpec):
    open_session, close = runner.sandbox_sessions()
    try:
        subs = discover([PLAYERS / f"{entrant}.py"], ["comp10001go.py"])
        players, rejected = runner.check_entries(subs, GO, open_session)
        assert not rejected
        pool = players + runner.bot_entrants(["random"])
        seating = runner.Seating(1, 7, (entrant, "bot:random", "bot:random", "bot:random"))
        (record,) = runner.run_games([seating], pool, GO, config, open_session)
    finally:
        close()
    return record, [f for f in record.faults if f.entrant == entrant]


def test_a_player_that_stops_the_harness_clock_still_runs_out_of_game_time():
    record, faults = _play_one_game("clock_liar", TournamentSpec(move_time_limit=0.5, game_time_limit=1.0))
    kinds = [f.kind for f in faults]
    # ~0.2 s a move: the 1 s budget ends after ~5 moves (the last one stopped at what was left)
    assert set(kinds) <= {"timeout", "game-time"} and kinds.count("game-time") >= 5, kinds
    assert 0.9 <= record.play_time_s[0] and record.play_calls[0] < 10


def test_a_player_that_sleeps_and_stops_its_own_clock_still_meets_the_wall_clock_backstop():
    # rt-go sleep_liar: the backstop was charged the child's report of its wall time, which
    # reads the clock the player replaced, so 0.4 s of sleep a move cost nothing at all.
    record, faults = _play_one_game("sleep_liar", TournamentSpec(move_time_limit=0.5, game_time_limit=1.0))
    # 3.5 s of wall clock (3 x 1 s + 0.5 s) is over after 9 moves of 0.4 s
    assert faults and all(f.kind == "game-time" and "wall-clock" in f.detail for f in faults), faults
    assert record.play_calls[0] <= 9


def test_a_sandboxed_player_gets_a_new_budget_for_restarts_each_game():
    from grader.tournament.players import SessionPlayer

    class Session:
        renewed = 0

        def renew_reloads(self):
            self.renewed += 1

    player = SessionPlayer("p", Session(), {"play": "comp10001go_play"})
    player.new_game(1, 0)
    player.new_game(2, 3)
    assert player.session.renewed == 2
