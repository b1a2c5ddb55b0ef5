"""A seat's game budget is charged from outside the player: its own clock is not believed."""
from __future__ import annotations

from pathlib import Path

from grader.run.model import CallResult
from grader.spec.model import TournamentSpec
from grader.submissions import discover
from grader.tournament import runner
from grader.tournament.game import game_class
from grader.tournament.players import reply_from_call

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = Path(__file__).resolve().parent / "fixtures" / "tournament"
GO = game_class(ROOT / "reference" / "comp10001go_game.py")({"group_time_limit": 0.5})


def test_the_charged_time_lies_between_the_kernels_count_and_what_the_grader_saw():
    claims_nothing = CallResult("ok", "5H", time_s=0.25, wall_s=1e-6)
    assert reply_from_call(claims_nothing, seen_s=0.3).time_s == 0.25      # the kernel's CPU count
    claims_too_much = CallResult("ok", "5H", time_s=0.001, wall_s=5.0)
    assert reply_from_call(claims_too_much, seen_s=0.02).time_s == 0.02    # no more than the grader saw
    honest = CallResult("ok", "5H", time_s=0.0001, wall_s=0.0003)
    assert reply_from_call(honest, seen_s=0.001).time_s == 0.0003          # fine-grained when believable


def test_a_player_that_stops_the_harness_clock_still_runs_out_of_game_time():
    open_session, close = runner.sandbox_sessions()
    try:
        subs = discover([PLAYERS / "clock_liar.py"], ["comp10001go.py"])
        players, rejected = runner.check_entries(subs, GO, open_session)
        assert not rejected
        pool = players + runner.bot_entrants(["random"])
        seating = runner.Seating(1, 7, ("clock_liar", "bot:random", "bot:random", "bot:random"))
        config = TournamentSpec(move_time_limit=0.5, game_time_limit=1.0)
        (record,) = runner.run_games([seating], pool, GO, config, open_session)
    finally:
        close()
    kinds = [f.kind for f in record.faults if f.entrant == "clock_liar"]
    # ~0.2 s a move: the 1 s budget ends after ~5 moves (the last one stopped at what was left)
    assert set(kinds) <= {"timeout", "game-time"} and kinds.count("game-time") >= 5, kinds
    assert 0.9 <= record.play_time_s[0] and record.play_calls[0] < 10
