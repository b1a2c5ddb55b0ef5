"""The workers of a tournament outlive its rounds: a sandbox dies with the thread that started it."""
from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

from grader.spec.model import TournamentSpec
from grader.submissions import discover
from grader.tournament import runner
from grader.tournament.game import game_class

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = Path(__file__).resolve().parent / "fixtures" / "tournament"
GO = game_class(ROOT / "reference" / "comp10001go_game.py")({"group_time_limit": 0.5})
FAST = TournamentSpec(move_time_limit=0.3, game_time_limit=3.0)


class _Recorder:
    """A session that notes the thread of every call (no sandbox)."""

    def __init__(self, threads: list[tuple[threading.Thread, threading.Thread]], opened_in: threading.Thread):
        self.threads, self.opened_in = threads, opened_in

    def __enter__(self) -> "_Recorder":
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def start_call(self, function, args, *, time_limit):
        self.threads.append((self.opened_in, threading.current_thread()))
        hand = args[-1] if function.endswith("play") else None
        value = hand[0] if hand is not None else [[turn[args[1]]] for turn in args[0]]
        from grader.run.model import CallResult
        return lambda: CallResult("ok", value)

    def close(self) -> None:
        pass


def test_every_round_plays_on_the_threads_that_opened_the_sessions():
    threads: list[tuple[threading.Thread, threading.Thread]] = []
    entrants = [runner.Entrant(f"s{i}", names={"play": "comp10001go_play", "group": "comp10001go_group"},
                               submission=object()) for i in range(4)]  # type: ignore[arg-type]

    def open_session(entrant, slot):
        return _Recorder(threads, threading.current_thread())

    seatings = runner.schedule([e.id for e in entrants], 8, 3, GO.seats)
    with runner.Tables(entrants, GO, FAST, open_session, jobs=2, capacity=4) as tables:
        first = tables.run(seatings[:4])
        second = tables.run(seatings[4:])
    assert len(first) == 4 and len(second) == 4 and not any(r.faults for r in first + second)
    assert threads and all(opened is called for opened, called in threads)


def test_sandboxed_sessions_survive_from_one_round_to_the_next():
    # Before the workers outlived their rounds, each round's threads took their sandboxes with
    # them (bwrap --die-with-parent follows the thread) and every honest player's first call of
    # the next round was recorded as a crash.
    open_session, close = runner.sandbox_sessions()
    try:
        subs = discover([PLAYERS / "first_card.py", PLAYERS / "pairs.py"], ["comp10001go.py"])
        players, rejected = runner.check_entries(subs, GO, open_session)
        assert not rejected
        pool = players + runner.bot_entrants(["random", "greedy"])
        seatings = runner.schedule([e.id for e in pool], 6, 11, GO.seats)
        with runner.Tables(pool, GO, FAST, open_session, jobs=2) as tables:
            records = tables.run(seatings[:2]) + tables.run(seatings[2:4]) + tables.run(seatings[4:])
            starts = {slot: session.sandbox.zygote_starts for a in tables.arenas for slot, session in a.live.values()}
        assert [f for r in records for f in r.faults] == []
        assert set(starts.values()) == {1}, starts  # no sandbox had to be started again
    finally:
        close()


def test_closing_the_tables_mid_round_starts_no_new_game():
    # Ctrl-C in the middle of a round closes the tables: the workers finish the game at hand
    # and start no other (they used to play the whole round out first).
    class Slow(_Recorder):
        def start_call(self, function, args, *, time_limit):
            time.sleep(0.002)
            return super().start_call(function, args, time_limit=time_limit)

    entrants = [runner.Entrant(f"s{i}", names={"play": "comp10001go_play", "group": "comp10001go_group"},
                               submission=object()) for i in range(4)]  # type: ignore[arg-type]
    seatings = runner.schedule([e.id for e in entrants], 1000, 3, GO.seats)
    tables = runner.Tables(entrants, GO, FAST, lambda e, s: Slow([], threading.current_thread()), jobs=2)
    closer = threading.Timer(0.3, tables.close)
    closer.start()
    records = tables.run(seatings)
    closer.join()
    assert 0 < len(records) < 100 and not any(r.faults for r in records)


def test_a_worker_that_dies_while_starting_does_not_hang_the_tournament(tmp_path):
    # A script calling the CLI without an `if __name__ == "__main__":` guard: each spawned worker
    # re-runs it and dies while starting.  With the whole field's files in the worker's start
    # arguments (over a pipe's 64 KiB) the coordinator then waited forever on a pipe nobody read.
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import sys\nfrom grader.cli import main\n"
        f"field = sorted(p for p in __import__('glob').glob({str(ROOT / 'submissions' / 'comp10001go' / '*.py')!r})\n"
        "               if not p.rsplit('/', 1)[-1].startswith(('loops_forever', 'slow_brute')))\n"
        f"sys.exit(main(['tournament', {str(ROOT / 'specs' / 'comp10001go.yaml')!r}, *field, '--games', '4', "
        f"'--jobs', '2', '--out', sys.argv[1]]))\n")
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "out")], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert "worker process" in done.stdout + done.stderr and "died" in done.stdout + done.stderr
    assert "4 lost" in done.stdout + done.stderr
    assert 'if __name__ == "__main__":' in done.stdout + done.stderr        # says why, and what to write
