"""Finished games in the results store, so a rerun plays only what changed.

A game is stored under a digest of everything that decides it: the game plug-in's code (and
the modules beside it that it imports), its options, the time limits, the game's seed and
number, and who sat where with the digest of each submission's files.  A student who hands
in again changes only the games they sat in; every other game of a rerun is read back.
"""
from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import asdict, fields, replace
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping, Sequence

from grader.store import Store
from grader.spec.model import TournamentSpec
from grader.tournament.game import Fault, Game
from grader.tournament.match import GameRecord
from grader.tournament.runner import Entrant, Seating


def _code_digest(game: Game) -> str:
    """The plug-in's source and that of the modules beside it it holds (its reference)."""
    module = sys.modules.get(type(game).__module__)
    own = getattr(module, "__file__", None)
    files: set[Path] = set()
    if module is not None and own:
        home = Path(own).parent
        files.add(Path(own))
        for value in vars(module).values():
            where = getattr(value, "__file__", None) if isinstance(value, ModuleType) else None
            if where and Path(where).parent == home:
                files.add(Path(where))
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


class GameStore:
    """The games of one tournament in the output folder's store."""

    def __init__(self, store: Store, assignment: str, game: Game, config: TournamentSpec, entrants: Sequence[Entrant]):
        self.store, self.assignment = store, assignment
        base = {"code": _code_digest(game), "options": game.options, "move": config.move_time_limit,
                "budget": config.game_time_limit,
                "clock": "cpu"}   # how a seat's budget is charged: games of an earlier rule are replayed
        self._base = json.dumps(base, sort_keys=True, default=str)
        self._who = {e.id: (e.submission.digest if e.submission is not None else "bot") for e in entrants}

    def key(self, seating: Seating) -> str:
        seats = [[e, self._who[e]] for e in seating.entrants]
        text = json.dumps([self._base, seating.game, seating.seed, seats])
        return hashlib.sha256(text.encode()).hexdigest()

    def known(self, seatings: Sequence[Seating]) -> dict[int, GameRecord]:
        """The games already in the store, by game number."""
        out = {}
        for seating in seatings:
            data = self.store.game(self.key(seating))
            if data is not None:
                out[seating.game] = replace(from_json(data), reused=True)
        return out

    def save(self, seating: Seating, record: GameRecord) -> None:
        self.store.save_game(self.key(seating), self.assignment, to_json(record))


def to_json(record: GameRecord) -> dict[str, Any]:
    """The record as JSON-ready data (what :func:`dataclasses.asdict` gave, without its deep
    copy of the game's log: 0.7 ms a game, on the thread that stores every game)."""
    data = {f.name: getattr(record, f.name) for f in fields(record) if f.name != "reused"}
    data["faults"] = [asdict(f) for f in record.faults]
    return data


def from_json(data: Mapping[str, Any]) -> GameRecord:
    fields = dict(data)
    fields["entrants"] = tuple(fields["entrants"])
    fields["faults"] = [Fault(**f) for f in fields.get("faults", [])]
    return GameRecord(**fields)
