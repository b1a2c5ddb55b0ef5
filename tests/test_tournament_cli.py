"""`grader tournament` end to end on tests/fixtures/tournament players."""
from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

from grader.cli import main
from grader.errors import ExitCode

ROOT = Path(__file__).resolve().parent.parent
SPEC = str(ROOT / "specs" / "comp10001go.yaml")
PLAYERS = Path(__file__).resolve().parent / "fixtures" / "tournament"


def player(name):
    return str(PLAYERS / f"{name}.py")


def games_of(out):
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def test_a_class_tournament_writes_every_report(tmp_path, capsys):
    out = tmp_path / "t"
    args = ["tournament", SPEC, player("first_card"), player("pairs"), player("garbage"), player("broken"),
            "--games", "6", "--seed", "4", "--out", str(out), "--bots", "random,greedy", "--jobs", "2"]
    assert main(args) == ExitCode.OK
    shown = capsys.readouterr()
    assert "pairs" in shown.out and "not entered: broken" in shown.err
    board = json.loads((out / "leaderboard.json").read_text())
    assert board["games"] == 6 and board["seed"] == 4
    assert {r["entrant"] for r in board["standings"]} == {"first_card", "pairs", "garbage", "bot:random", "bot:greedy"}
    assert sum(r["games"] for r in board["standings"]) == 24
    assert board["not_entered"][0]["player"] == "broken"
    rows = list(csv.DictReader((out / "leaderboard.csv").open()))
    assert [r["entrant"] for r in rows] == [r["entrant"] for r in board["standings"]]
    assert {"rating", "low", "high", "above_next", "faults"} <= set(rows[0])
    assert all(float(r["low"]) < float(r["rating"]) < float(r["high"]) for r in rows)
    text = (out / "leaderboard.txt").read_text()
    assert "mean score" in text and "interval" in text and "Not yet settled at 95%" in text  # 6 games settle nothing
    assert board["unsettled"] and board["reused_games"] == 0
    assert sorted(p.name for p in (out / "players").iterdir()) == ["first_card.json", "garbage.json", "pairs.json"]
    report = json.loads((out / "players" / "garbage.json").read_text())
    played = next(r["games"] for r in board["standings"] if r["entrant"] == "garbage")
    assert len(report["games"]) == played and len(report["faults"]) == 6 * played
    move = report["faults"][0]
    assert move["turn"] == 1 and move["kind"] == "not-a-string" and "--replay" in move["replay"] and str(move["seed"])
    assert move["call"]["discard_history"] == [] and len(move["call"]["hand"]) == 10
    assert [f["kind"] for f in report["faults"] if f["role"] == "group"] == ["invalid-grouping"] * played
    # A student's report shows its own hands and the public discards, never the full deal.
    game = games_of(out)[move["game"] - 1]
    assert move["call"]["hand"] == game["log"]["hands"][0][move["seat"]]
    assert all("hands" not in g for g in report["games"]) and len(report["games"][0]["discards"]) == 10

    # Same command and deal key, same games (a fresh run of the same seed); another key, other deals.
    out2, out3 = tmp_path / "t2", tmp_path / "t3"
    out2.mkdir()
    (out2 / ".deal-key").write_text((out / ".deal-key").read_text())
    assert main(args[:-6] + ["--out", str(out2), "--bots", "random,greedy", "--jobs", "1"]) == ExitCode.OK
    assert [(g["seed"], g["entrants"], g["log"]["discards"], g["scores"]) for g in games_of(out2)] == \
           [(g["seed"], g["entrants"], g["log"]["discards"], g["scores"]) for g in games_of(out)]
    assert main(args[:-6] + ["--out", str(out3), "--bots", "random,greedy", "--jobs", "1"]) == ExitCode.OK
    assert [g["entrants"] for g in games_of(out3)] == [g["entrants"] for g in games_of(out)]   # the seating is the seed's
    assert [g["seed"] for g in games_of(out3)] != [g["seed"] for g in games_of(out)]

    # --replay prints one game move by move, re-run from its seed and the folder's deal key.
    capsys.readouterr()
    assert main(["tournament", SPEC, player("first_card"), player("pairs"), player("garbage"),
                 "--seed", "4", "--bots", "random,greedy", "--out", str(out), "--replay", "3"]) == ExitCode.OK
    text = capsys.readouterr().out
    third = games_of(out)[2]
    assert text.startswith(f"game 3  seed {third['seed']}")
    assert "turn 10" in text and "winner" in text
    assert ("ILLEGAL (not-a-string" in text) == ("garbage" in third["entrants"])
    for s, e in enumerate(third["entrants"]):
        assert f"seat {s} {e:<16} plays {third['log']['discards'][0][s]}" in text


def test_a_player_cannot_compute_the_deals_from_the_public_seed(tmp_path, capsys):
    # rt-go: seer.py matched its first hand against the deals of games 1..2000 computed from
    # the spec's seed and the engine's public seeding, and knew all four hands of every game.
    out = tmp_path / "t"
    assert main(["tournament", SPEC, player("seer"), "--games", "3", "--out", str(out)]) == ExitCode.OK
    report = json.loads((out / "players" / "seer.json").read_text())
    assert len(report["faults"]) == 3 * 10 and {f["kind"] for f in report["faults"]} == {"not-a-card"}
    assert (out / ".deal-key").stat().st_mode & 0o077 == 0          # staff-only
    capsys.readouterr()
    assert main(["tournament", SPEC, player("seer"), "--out", str(tmp_path / "none"), "--replay", "1"]) == ExitCode.USAGE
    assert "no tournament to replay" in capsys.readouterr().err


def test_a_student_plays_alone_against_the_bots(tmp_path, capsys):
    out = tmp_path / "me"
    assert main(["tournament", SPEC, player("pairs"), "--games", "3", "--out", str(out)]) == ExitCode.OK
    board = json.loads((out / "leaderboard.json").read_text())
    assert {r["entrant"] for r in board["standings"]} == {"pairs", "bot:random", "bot:greedy", "bot:reference"}
    assert next(r for r in board["standings"] if r["entrant"] == "pairs")["games"] == 3


def test_a_student_named_like_a_bot_is_not_entered_and_never_stands_in_for_it(tmp_path, capsys):
    """``bot:reference.py`` once sat in the reference bot's seats as the bot, and the bot in its."""
    import shutil

    shutil.copy(player("first_card"), tmp_path / "bot:reference.py")
    out = tmp_path / "t"
    assert main(["tournament", SPEC, str(tmp_path / "bot:reference.py"), player("pairs"), "--games", "4",
                 "--out", str(out), "--bots", "reference"]) == ExitCode.OK
    assert "not entered: bot:reference: a player's name may not start with 'bot:'" in capsys.readouterr().err
    board = json.loads((out / "leaderboard.json").read_text())
    assert sorted(r["entrant"] for r in board["standings"]) == ["bot:reference", "pairs"]
    assert sorted(p.name for p in (out / "players").iterdir()) == ["pairs.json"]


def test_a_rerun_reads_every_unchanged_game_back_from_the_store(tmp_path, capsys):
    import shutil

    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("first_card", "pairs"):
        shutil.copy(player(name), folder / f"{name}.py")
    out = tmp_path / "t"
    args = ["tournament", SPEC, str(folder), "--games", "8", "--seed", "2", "--out", str(out), "--bots", "random,greedy,reference"]
    assert main(args) == ExitCode.OK
    first = games_of(out)
    capsys.readouterr()
    assert main(args) == ExitCode.OK
    shown = capsys.readouterr().err
    assert "played 0 games" in shown and "8 reused from the store" in shown
    assert json.loads((out / "leaderboard.json").read_text())["reused_games"] == 8
    assert [(g["entrants"], g["scores"]) for g in games_of(out)] == [(g["entrants"], g["scores"]) for g in first]
    # first_card hands in again (now playing its last card): only its games are played again.
    (folder / "first_card.py").write_text((folder / "first_card.py").read_text().replace("hand[0]", "hand[-1]"))
    assert main(args) == ExitCode.OK
    board = json.loads((out / "leaderboard.json").read_text())
    assert board["reused_games"] == sum(1 for g in first if "first_card" not in g["entrants"])
    assert 0 < board["reused_games"] < 8


def test_usage_errors(tmp_path, capsys):
    assert main(["tournament", SPEC, player("pairs"), "--bots", "clever", "--out", str(tmp_path)]) == ExitCode.USAGE
    assert "unknown bot clever" in capsys.readouterr().err
    assert main(["tournament", SPEC, player("broken"), "--out", str(tmp_path)]) == ExitCode.CHECK_FAILED
    assert "syntax" in capsys.readouterr().err
    assert main(["tournament", SPEC, player("pairs"), "--bots", "none", "--out", str(tmp_path)]) == ExitCode.USAGE
    capsys.readouterr()
    assert main(["tournament", SPEC, player("pairs"), "--games", "many", "--out", str(tmp_path)]) == ExitCode.USAGE
    assert "expected a number of games or 'auto'" in capsys.readouterr().err


def test_a_spec_without_a_tournament_is_a_clear_usage_error(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-m", "grader", "tournament", str(root / "specs" / "hw7_iteration.yaml"),
                           "--games", "1", "--out", str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "defines no tournament" in proc.stderr and "Traceback" not in proc.stderr


def test_a_game_lost_with_a_worker_is_reported_charged_to_nobody_and_played_by_the_rerun(tmp_path, capsys, monkeypatch):
    from grader.tournament import runner, workers

    real = workers.parallel_tables

    def losing(*args, **kwargs):  # the tables of the run, as if game 2's worker had died
        tables = real(*args, **kwargs)
        play = tables.run

        def run(seatings, on_game=None):
            kept = [s for s in seatings if s.game != 2]
            tables.lost += [runner.LostGame(s.game, s.seed, s.entrants, "the grader's worker process 0 died (killed by signal 9)")
                            for s in seatings if s.game == 2]
            return play(kept, on_game)

        tables.run = run
        return tables

    out = tmp_path / "t"
    args = ["tournament", SPEC, "--games", "4", "--seed", "3", "--out", str(out), "--bots", "random,greedy,reference"]
    monkeypatch.setattr(workers, "parallel_tables", losing)
    assert main(args) == ExitCode.OK
    err = capsys.readouterr().err
    assert "game 2 not played: the grader's worker process 0 died (killed by signal 9)" in err and "1 lost" in err
    assert [g["game"] for g in games_of(out)] == [1, 3, 4]
    assert sum(r["faults"] for r in json.loads((out / "leaderboard.json").read_text())["standings"]) == 0
    monkeypatch.setattr(workers, "parallel_tables", real)
    assert main(args) == ExitCode.OK  # the rerun plays the lost game, reads the rest back
    assert "played 1 games" in capsys.readouterr().err and [g["game"] for g in games_of(out)] == [1, 2, 3, 4]


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_players_name_is_shown_as_text_on_the_terminal_and_in_a_spreadsheet(tmp_path, monkeypatch):
    # rt-go: entrant ids went raw into the rich table (markup: [reverse]... restyled the rows
    # after it), leaderboard.txt and leaderboard.csv (a formula a spreadsheet runs).
    klass = tmp_path / "class"
    klass.mkdir()
    for name in ("[reverse]top", "=HYPERLINK(1)", "x,+SUM(1)"):
        (klass / f"{name}.py").write_text((PLAYERS / "pairs.py").read_text())
    out = tmp_path / "t"
    screen = _Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    assert main(["tournament", SPEC, *map(str, sorted(klass.iterdir())), "--games", "2", "--bots", "random",
                 "--out", str(out)]) == ExitCode.OK
    assert "[reverse]top" in screen.getvalue() and "\x1b[7m" not in screen.getvalue()
    cells = {r["entrant"] for r in csv.DictReader((out / "leaderboard.csv").open())}
    assert {"'=HYPERLINK(1)", "x,'+SUM(1)", "[reverse]top"} <= cells


def test_a_replay_shows_the_game_that_counted_and_says_when_playing_it_again_differs(tmp_path, capsys):
    # rt-go replay/counter.py: --replay played the game again on fresh sessions, so a player
    # that counts its moves in a file showed staff a game other than the one scored.
    out = tmp_path / "t"
    entries = [player("counter"), player("pairs")]
    assert main(["tournament", SPEC, *entries, "--games", "4", "--seed", "3", "--out", str(out)]) == ExitCode.OK
    played = {g["game"]: g for g in games_of(out)}
    later = max(g for g, record in played.items() if "counter" in record["entrants"])
    capsys.readouterr()
    assert main(["tournament", SPEC, *entries, "--seed", "3", "--out", str(out), "--replay", str(later)]) == ExitCode.OK
    shown = capsys.readouterr()
    seat = played[later]["entrants"].index("counter")
    assert f"seat {seat} counter          plays {played[later]['log']['discards'][0][seat]}" in shown.out
    assert "played again now it went differently" in shown.err
    assert "counter" in played[1]["entrants"]      # its first game: the count starts at 0 both times
    assert main(["tournament", SPEC, *entries, "--seed", "3", "--out", str(out), "--replay", "1"]) == ExitCode.OK
    assert "shown as stored; played again, it went the same way" in capsys.readouterr().err
