"""Finished games in the store: the key covers everything that decides a game, and a record
reads back exactly as it was written."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from grader.store import Store
from grader.submissions import Submission
from grader.spec.model import TournamentSpec
from grader.tournament.game import Fault, game_class
from grader.tournament.match import GameRecord
from grader.tournament.results import GameStore, from_json, to_json
from grader.tournament.runner import Entrant, Seating

ROOT = Path(__file__).resolve().parent.parent
NIM = game_class(ROOT / "reference" / "nim_game.py")
CONFIG = TournamentSpec()
SEATING = Seating(3, 77, ("ann", "bot:random"))


def entrants(code: bytes = b"def nim_move(h): return [0, 1]\n"):
    sub = Submission(id="ann", path=Path("ann.py"), files={"nim.py": code}, main="nim.py")
    return [Entrant("ann", sub, {"move": "nim_move"}), Entrant("bot:random")]


def test_the_key_changes_with_whatever_decides_the_game(tmp_path):
    with Store(tmp_path) as store:
        def key(options=None, config=CONFIG, people=None, seating=SEATING):
            return GameStore(store, "nim", NIM(options or {}), config, people or entrants()).key(seating)

        base = key()
        assert key() == base
        assert key(options={"heaps": 4}) != base
        assert key(config=TournamentSpec(move_time_limit=0.2)) != base
        assert key(people=entrants(b"def nim_move(h): return [1, 1]\n")) != base  # ann handed in again
        assert key(seating=Seating(3, 77, ("bot:random", "ann"))) != base  # seats swapped
        assert key(seating=Seating(4, 77, ("ann", "bot:random"))) != base


def test_a_record_reads_back_as_written(tmp_path):
    fault = Fault(3, 77, 0, "ann", "move", 2, "bad-count", "took 9", "[0, 9]", "forfeit", {"heaps": [1, 2, 3]})
    record = GameRecord(game=3, seed=77, entrants=("ann", "bot:random"), scores=[0.0, 1.0], wins=[0.0, 1.0],
                        faults=[fault], play_time_s=[0.01, 0.0], play_calls=[2, 1], log={"heaps": [1, 2, 3], "moves": []})
    with Store(tmp_path) as store:
        saved = GameStore(store, "nim", NIM({}), TournamentSpec(), entrants())
        seating = Seating(3, 77, ("ann", "bot:random"))
        assert saved.known([seating]) == {}
        saved.save(seating, record)
        (back,) = saved.known([seating]).values()
    assert back == record and back.reused and from_json(to_json(record)) == record


def test_a_record_is_stored_in_the_format_it_always_had():
    # Games stored by earlier versions are read back by this one: to_json skips asdict's deep
    # copy of the log, never a field.
    fault = Fault(3, 77, 0, "ann", "move", 2, "bad-count", "took 9", "[0, 9]", ["forfeit"], {"heaps": [[1, 2], 3]})
    record = GameRecord(game=3, seed=77, entrants=("ann", "bot:random"), scores=[0.0, 1.0], wins=[0.0, 1.0],
                        faults=[fault, fault], play_time_s=[0.01, 0.0], play_calls=[2, 1],
                        log={"hands": [[["5H", "KD"]]], "moves": [(1, 2)]}, reused=True)
    old = asdict(record)
    del old["reused"]
    assert json.dumps(to_json(record)) == json.dumps(old)
