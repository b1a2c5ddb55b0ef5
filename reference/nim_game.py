"""Nim as a tournament game (named by specs/nim.yaml's ``tournament.game``).

Rules: the heaps are dealt from the game's seed (``heaps`` heaps of 1..``largest`` objects,
options below).  Two seats move in turn, seat 0 first: a player's ``nim_move(heaps)`` returns
``[heap_index, count]`` and takes ``count`` >= 1 objects from that heap.  Whoever takes the
last object wins (score 1; the other 0).

A move that breaks the rules (not a pair of ints, no such heap, too many or too few
objects, an exception, a timeout, a crash, the game time used up) is recorded; with
``on_illegal: forfeit`` (the default) the player who made it loses at once, with
``default`` one object is taken from the first non-empty heap instead and the game goes on.

Bots: ``random`` (a uniformly random legal move), ``greedy`` (empties the largest heap),
``optimal`` (the reference's nim-sum move: it wins every winnable position).
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Sequence

from grader.spec.loader import load_trusted_module
from grader.tournament.game import Fault, Game, Outcome, Reply, Role, Table, shown

REFERENCE = load_trusted_module(Path(__file__).with_name("nim.py"), "reference")


def deal(seed: int, heaps: int, largest: int) -> list[int]:
    rng = random.Random(f"nim:{seed}")
    return [rng.randint(1, largest) for _ in range(heaps)]


def judge_move(reply: Reply, heaps: Sequence[int]) -> tuple[str | None, str]:
    """Why a reply is not a legal move on ``heaps`` (None when it is)."""
    if not reply.ok:
        return reply.failure()
    value = reply.value
    if type(value) not in (list, tuple) or len(value) != 2 or any(type(v) is not int for v in value):
        return "not-a-move", f"returned {shown(value)}, not a pair [heap_index, count] of ints"
    heap, count = value
    if not 0 <= heap < len(heaps):
        return "no-such-heap", f"returned {shown(value)}: there is no heap {heap} (heaps are numbered 0..{len(heaps) - 1})"
    if not 1 <= count <= heaps[heap]:
        return "bad-count", f"returned {shown(value)}: heap {heap} holds {heaps[heap]}, so take 1 to {heaps[heap]}"
    return None, ""


class RandomBot:
    def move(self, heaps: list[int], *, rng: random.Random) -> list[int]:
        heap = rng.choice([i for i, h in enumerate(heaps) if h])
        return [heap, rng.randint(1, heaps[heap])]


class GreedyBot:
    def move(self, heaps: list[int], *, rng: random.Random) -> list[int]:
        heap = max(range(len(heaps)), key=lambda i: heaps[i])
        return [heap, heaps[heap]]


class OptimalBot:
    def move(self, heaps: list[int], *, rng: random.Random) -> list[int]:
        return REFERENCE.nim_move(heaps)


#: The game's own options (``tournament.options``), and its bots by name: plain module
#: attributes, so the spec loader can check a spec without building a game.
BOTS = {"random": RandomBot, "greedy": GreedyBot, "optimal": OptimalBot}
OPTIONS_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "heaps": {"type": "integer", "minimum": 1, "maximum": 10, "description": "heaps in a game"},
        "largest": {"type": "integer", "minimum": 1, "maximum": 100, "description": "most objects in a heap at the deal"},
        "on_illegal": {"enum": ["forfeit", "default"], "description": "what an illegal move costs"},
    },
}


class Nim(Game):
    title = "Nim"
    seats = 2
    default_bots = ("random", "greedy", "optimal")
    options_schema = OPTIONS_SCHEMA

    def roles(self) -> dict[str, Role]:
        return {"move": Role(("nim_move",), ("heaps",))}

    def bots(self) -> dict[str, type]:
        return dict(BOTS)

    def play(self, table: Table, seed: int) -> Outcome:
        heaps = deal(seed, int(self.options.get("heaps", 3)), int(self.options.get("largest", 7)))
        start, moves = list(heaps), []
        seat, turn = 0, 0
        while any(heaps):
            turn += 1
            args = (list(heaps),)
            reply = table.ask(seat, "move", args)
            kind, detail = judge_move(reply, heaps)
            if kind is None:
                heap, count = reply.value
            elif self.options.get("on_illegal", "forfeit") == "forfeit":
                table.fault(seat, "move", turn, kind, detail, reply, args, "forfeit")
                moves.append({"seat": seat, "forfeit": True})
                return Outcome([0.0 if s == seat else 1.0 for s in range(2)], {"heaps": start, "moves": moves})
            else:
                heap, count = next(i for i, h in enumerate(heaps) if h), 1
                table.fault(seat, "move", turn, kind, detail, reply, args, [heap, count])
            heaps[heap] -= count
            moves.append({"seat": seat, "take": [heap, count], "heaps": list(heaps)})
            seat = 1 - seat
        winner = 1 - seat  # the seat that took the last object
        return Outcome([1.0 if s == winner else 0.0 for s in range(2)], {"heaps": start, "moves": moves})

    def view(self, outcome: Outcome, seat: int) -> dict[str, Any]:
        return {"heaps": outcome.log["heaps"], "moves": outcome.log["moves"]}  # Nim hides nothing

    def describe(self, entrants: Sequence[str], outcome: Outcome, faults: Sequence[Fault]) -> str:
        lines = [f"  seat {s}: {e}" for s, e in enumerate(entrants)]
        lines.append(f"heaps {outcome.log['heaps']}")
        bad = {f.turn: f for f in faults}
        for turn, m in enumerate(outcome.log["moves"], start=1):
            who = f"  move {turn}: seat {m['seat']} {entrants[m['seat']]:<16}"
            f = bad.get(turn)
            if m.get("forfeit"):
                assert f is not None
                lines.append(f"{who} FORFEITS ({f.kind}: {f.detail})")
                continue
            note = f"   ILLEGAL ({f.kind}: {f.detail}); took the default" if f is not None else ""
            lines.append(f"{who} takes {m['take'][1]} from heap {m['take'][0]} -> {m['heaps']}{note}")
        return "\n".join(lines) + "\n"


GAME = Nim
