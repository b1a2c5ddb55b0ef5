"""Arenas in worker processes (grader/tournament/workers.py): the same games as in-process,
a killed worker costs only its games, and nothing sandboxed outlives the tournament."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from grader.errors import GraderError
from grader.run._bwrap import BASE_UID, is_root
from grader.run.sandbox import probe
from grader.spec.model import TournamentSpec
from grader.submissions import Submission, discover
from grader.tournament import runner, workers
from grader.tournament.game import game_class
from grader.tournament.standings import standings

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = Path(__file__).resolve().parent / "fixtures" / "tournament"
GO = game_class(ROOT / "reference" / "comp10001go_game.py")({"group_time_limit": 0.5})
FAST = TournamentSpec(move_time_limit=0.3, game_time_limit=3.0)
FIRST = 170  # slots 171.. : clear of the other tournament tests' (101.., 150..)


@pytest.fixture(scope="module")
def slots():
    sessions = runner.SlotSessions()
    try:
        yield sessions
    finally:
        sessions.close()


def pool(slots, *names):
    subs = discover([PLAYERS / f"{n}.py" for n in names], ["comp10001go.py"])
    players, rejected = runner.check_entries(subs, GO, slots.open_session, slot=FIRST)
    assert not rejected, rejected
    return players + runner.bot_entrants(["random", "greedy", "reference"])


def tables(slots, entrants, **kw):
    return workers.WorkerTables(entrants, GO, FAST, profile=probe(), first_slot=FIRST, **kw)


def plain(records):  # timings differ from run to run; everything else must not
    out = [asdict(r) for r in records]
    for r in out:
        r.pop("play_time_s")
    return out


def slot_processes(slots_: range) -> list[int]:
    """Live (not zombie) processes running as the uid of one of ``slots_``."""
    uids = {str(BASE_UID + s) for s in slots_}
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status").read().splitlines() if ":" in line)
        except OSError:
            continue
        if status.get("Uid", "").split()[0:1] and status["Uid"].split()[0] in uids and not status.get("State", "").strip().startswith("Z"):
            found.append(int(pid))
    return found


def gone(slots_: range, within: float = 5.0) -> list[int]:
    deadline = time.monotonic() + within
    while (left := slot_processes(slots_)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def test_games_in_worker_processes_are_the_games_played_in_process(slots):
    # Hostile players too: their faults must be charged to the same seats with the same words.
    entrants = pool(slots, "first_card", "pairs", "garbage", "crasher")
    ids = [e.id for e in entrants]
    seatings = runner.schedule(ids, 10, 5, GO.seats)
    here = runner.run_games(seatings, entrants, GO, FAST, slots.open_session)
    with tables(slots, entrants, jobs=2, pin=True) as t:
        there = t.run(seatings[:3]) + t.run(seatings[3:])  # two rounds on the same workers
        assert t.lost == []
        cpus = sorted(os.sched_getaffinity(0))
        assert [os.sched_getaffinity(pid) for pid in t.pids] == [{cpus[0]}, {cpus[1 % len(cpus)]}]
        if is_root():  # and the sandboxes a worker started inherit its CPU
            seated = slot_processes(range(FIRST + 1, FIRST + 1 + GO.seats))
            assert seated and {frozenset(os.sched_getaffinity(pid)) for pid in seated} == {frozenset({cpus[0]})}
    assert plain(sorted(there, key=lambda r: r.game)) == plain(here)
    assert any(f.entrant == "crasher" and f.kind == "crashed" for r in there for f in r.faults)
    untimed = [replace(row, mean_move_ms=0.0) for row in standings(there, ids, FAST)]
    assert untimed == [replace(row, mean_move_ms=0.0) for row in standings(here, ids, FAST)]  # the same ratings


def test_a_killed_worker_costs_only_its_games_and_leaves_no_sandbox(slots):
    entrants = pool(slots, "first_card", "pairs")
    seatings = runner.schedule([e.id for e in entrants], 24, 9, GO.seats)
    killed: list[int] = []
    with tables(slots, entrants, jobs=2) as t:
        def on_game(record):
            if not killed and record.game >= 3:
                killed.append(t.pids[0])
                os.kill(killed[0], signal.SIGKILL)

        records = t.run(seatings, on_game)
        lost = list(t.lost)
        width = GO.seats
        assert gone(range(FIRST + 1, FIRST + 1 + width)) == []  # worker 0's sandboxes died with it
        assert len(t.pids) == 2  # a new worker took its place
    assert killed and 1 <= len(lost) <= workers.DEPTH, lost
    assert all("killed by signal 9" in g.reason and str(killed[0]) in g.reason for g in lost)
    assert sorted([r.game for r in records] + [g.game for g in lost]) == [s.game for s in seatings]
    assert [f for r in records for f in r.faults] == []  # nobody is charged for the grader's loss
    by_game = {s.game: s for s in seatings}
    again = runner.run_games([by_game[r.game] for r in records], entrants, GO, FAST, slots.open_session)
    assert plain(records) == plain(again)


def test_a_worker_that_keeps_dying_stops_the_tournament(slots):
    entrants = pool(slots, "first_card")
    seatings = runner.schedule([e.id for e in entrants], 40, 2, GO.seats)
    with tables(slots, entrants, jobs=1, respawns=0) as t:
        with pytest.raises(GraderError, match="keep dying"):
            t.run(seatings, lambda record: os.kill(t.pids[0], signal.SIGKILL))


def test_a_grader_bug_in_a_worker_is_reported_not_charged(slots):
    broken = runner.Entrant("nomain", Submission("nomain", Path("x"), {}, None), {"play": "p", "group": "g"})
    entrants = [broken] + runner.bot_entrants(["random", "greedy", "reference"])
    with tables(slots, entrants, jobs=2) as t:
        with pytest.raises(GraderError, match="a tournament worker failed on game 1: AssertionError"):
            t.run(runner.schedule([e.id for e in entrants], 1, 1, GO.seats))


@pytest.mark.skipif(not is_root(), reason="the sandbox runs as a slot's own uid only for root")
def test_ctrl_c_leaves_no_sandbox_behind(tmp_path, terminal_sigint):
    script = tmp_path / "play.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        from grader.spec.model import TournamentSpec
        from grader.submissions import discover
        from grader.tournament import runner, workers
        from grader.tournament.game import game_class

        if __name__ == "__main__":
            game = game_class({str(ROOT / "reference" / "comp10001go_game.py")!r})({{}})
            slots = runner.SlotSessions()
            try:
                subs = discover([{str(PLAYERS / "first_card.py")!r}, {str(PLAYERS / "pairs.py")!r}], ["comp10001go.py"])
                players, _ = runner.check_entries(subs, game, slots.open_session, slot=190)
                entrants = players + runner.bot_entrants(["random", "greedy"])
                seatings = runner.schedule([e.id for e in entrants], 100000, 1, 4)
                with workers.WorkerTables(entrants, game, TournamentSpec(), profile=slots.sandboxes[190].profile,
                                          jobs=2, first_slot=190) as t:
                    t.run(seatings, lambda r: print("game", r.game, flush=True))
            finally:
                slots.close()
        """))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True, text=True, preexec_fn=terminal_sigint)
    try:
        for _ in range(20):  # both workers are playing
            assert proc.stdout is not None and proc.stdout.readline().startswith("game")
        assert len(slot_processes(range(191, 199))) > 0
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert "KeyboardInterrupt" in err
    assert gone(range(190, 199)) == []
