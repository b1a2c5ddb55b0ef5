"""The second game, Nim (specs/nim.yaml + reference/nim_game.py), added without touching
grader/: its rules on the engine's table, and a sandboxed tournament of its corpus
(submissions/nim: a careful player, weak ones, and players that break the rules, crash,
loop, do not compile or misname the function)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.cli import main
from grader.errors import ExitCode
from grader.spec.loader import load_trusted_module
from grader.spec.model import TournamentSpec
from grader.tournament.game import Reply, game_class
from grader.tournament.match import play_game
from grader.tournament.players import BotPlayer

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "specs" / "nim.yaml"
NIM = game_class(ROOT / "reference" / "nim_game.py")
RULES = load_trusted_module(ROOT / "reference" / "nim_game.py", "game")
CONFIG = TournamentSpec()


class Scripted:
    def __init__(self, name, move):
        self.entrant, self.move, self.seen = name, move, []

    def new_game(self, seed, seat):
        pass

    def start(self, role, args, time_limit):
        assert role == "move"
        self.seen.append(list(args[0]))
        reply = self.move(list(args[0]))
        return lambda: reply


def bot(name):
    return BotPlayer(f"bot:{name}", NIM({}).bots()[name]())


def test_the_optimal_bot_wins_every_winnable_deal_and_the_last_take_wins():
    for seed in range(30):
        heaps = RULES.deal(seed, 3, 7)
        record = play_game(NIM({}), [bot("optimal"), bot("random")], seed, CONFIG)
        first_can_win = RULES.REFERENCE.nim_sum(heaps) != 0
        assert record.scores == ([1.0, 0.0] if first_can_win else record.scores)
        moves = record.log["moves"]
        assert moves[-1]["heaps"] == [0, 0, 0] and record.scores[moves[-1]["seat"]] == 1.0
        assert sum(m["take"][1] for m in moves) == sum(heaps)


@pytest.mark.parametrize("reply, kind", [
    (Reply("ok", [0]), "not-a-move"),
    (Reply("ok", "0 1"), "not-a-move"),
    (Reply("ok", [0, True]), "not-a-move"),
    (Reply("ok", [9, 1]), "no-such-heap"),
    (Reply("ok", [-1, 1]), "no-such-heap"),
    (Reply("ok", [0, 0]), "bad-count"),
    (Reply("ok", [0, 99]), "bad-count"),
    (Reply("error", detail="ZeroDivisionError: division by zero"), "exception"),
    (Reply("timeout", detail="stopped"), "timeout"),
])
def test_an_illegal_move_forfeits_the_game_and_is_recorded_with_its_call(reply, kind):
    cheat = Scripted("cheat", lambda heaps: reply)
    record = play_game(NIM({}), [bot("greedy"), cheat], 3, CONFIG, number=4)
    (fault,) = record.faults
    assert (fault.entrant, fault.seat, fault.kind, fault.turn, fault.game) == ("cheat", 1, kind, 2, 4)
    assert fault.call == {"heaps": cheat.seen[0]} and fault.replaced_by == "forfeit"
    assert record.scores == [1.0, 0.0] and record.log["moves"][-1] == {"seat": 1, "forfeit": True}


def test_with_on_illegal_default_the_game_goes_on():
    cheat = Scripted("cheat", lambda heaps: Reply("ok", [0, 99]))
    record = play_game(NIM({"on_illegal": "default", "heaps": 4}), [cheat, bot("random")], 5, CONFIG)
    assert record.faults and all(f.kind == "bad-count" for f in record.faults)
    assert record.log["moves"][-1]["heaps"] == [0, 0, 0, 0] and len(record.log["heaps"]) == 4
    assert all(f.replaced_by[1] == 1 for f in record.faults)  # one object from the first non-empty heap


def test_the_spec_grades_nim_move_as_a_function_too(capsys):
    assert main(["check", str(SPEC), str(ROOT / "submissions" / "nim" / "optimal.py")]) == ExitCode.OK
    assert main(["check", str(SPEC), str(ROOT / "submissions" / "nim" / "takes_one.py")]) == ExitCode.CHECK_FAILED


def test_a_class_tournament_of_the_nim_corpus(tmp_path, capsys, pinned_deals):
    out = pinned_deals(tmp_path / "nim")
    assert main(["tournament", str(SPEC), str(ROOT / "submissions" / "nim"), "--games", "40", "--jobs", "2",
                 "--out", str(out)]) == ExitCode.OK
    board = json.loads((out / "leaderboard.json").read_text())
    not_entered = {r["player"]: r["reason"] for r in board["not_entered"]}
    assert set(not_entered) == {"syntax_error", "wrong_name"}
    assert "syntax" in not_entered["syntax_error"] and "defines no nim_move" in not_entered["wrong_name"]
    rows = {r["entrant"]: r for r in board["standings"]}
    assert rows["optimal"]["faults"] == 0 and rows["takes_one"]["faults"] == 0
    assert rows["optimal"]["rating"] > rows["takes_one"]["rating"]
    assert rows["optimal"]["rating"] > rows["bot:random"]["rating"]

    def kinds(name):
        report = json.loads((out / "players" / f"{name}.json").read_text())
        return {f["kind"] for f in report["faults"]}, report

    crash, report = kinds("crashes_on_empty_heap")
    assert crash == {"exception"} and "ZeroDivisionError" in report["faults"][0]["detail"]
    assert 0 in report["faults"][0]["call"]["heaps"]  # the exact call that crashed, to run by hand
    loops, _ = kinds("loops_when_losing")
    assert loops <= {"timeout", "game-time"} and "timeout" in loops
    over, _ = kinds("greedy_overreach")
    assert over == {"bad-count"}
    assert kinds("off_by_one")[0] <= {"no-such-heap", "bad-count"} and kinds("off_by_one")[0]
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 40 and all(sorted(g["scores"]) == [0.0, 1.0] for g in games)
