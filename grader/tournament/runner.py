"""The tournament: who plays whom (reproducibly from one seed) and games run in parallel.

Seating: with 4 or more entrants each game seats the 4 who have played least so far (ties
broken by the seeded generator) in a shuffled seat order; with fewer, every entrant sits and
the bots fill the empty seats (a bot may take two seats).  Game ``g`` has its own seed,
derived from the tournament seed and ``g`` alone, so any game can be replayed on its own.

Each worker (``--jobs``) is a thread that owns an :class:`Arena`: its own sandbox slots, one
live session per slot, a student's session kept alive for as long as the slot is not needed
for somebody else (least recently seated goes first).  The four seats of a game think at the
same time (they are separate processes), which is where most of the speed comes from.
Results are deterministic for players whose answers depend only on their arguments, as the
handout requires; a player keeping state between calls may see games in another order with
``--jobs`` > 1.
"""
from __future__ import annotations

import hashlib
import queue
import random
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable, ContextManager, Sequence

from grader.errors import ExitCode, GraderError
from grader.submissions import Submission
from grader.tournament.bots import PREFIX, is_bot, make_bot
from grader.tournament.config import TournamentConfig
from grader.tournament.players import Player, SessionPlayer, pick_name
from grader.tournament.referee import SEATS, GameRecord, play_game

FIRST_SLOT = 100  # clear of the slots `grader grade` uses (0..jobs-1) and the probe's (999)


@dataclass(frozen=True)
class Entrant:
    """A leaderboard line: a submission or a built-in bot."""

    id: str
    submission: Submission | None = None
    play_name: str = "comp10001go_play"
    group_name: str = "comp10001go_group"

    @property
    def is_bot(self) -> bool:
        return self.submission is None


@dataclass(frozen=True)
class Seating:
    game: int  # 1-based
    seed: int
    entrants: tuple[str, ...]  # by seat


@dataclass(frozen=True)
class Rejected:
    id: str
    reason: str


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game``, a function of the tournament seed and the game number only."""
    digest = hashlib.sha256(f"comp10001go:{seed}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def schedule(entrants: Sequence[str], games: int, seed: int) -> list[Seating]:
    """The seatings of ``games`` games; game ``g`` depends only on the games before it."""
    if not entrants:
        raise GraderError("no players for the tournament", exit_code=ExitCode.USAGE)
    bots = [e for e in entrants if is_bot(e)]
    if len(entrants) < SEATS and not bots:
        raise GraderError(f"a game needs {SEATS} players and only {len(entrants)} entered",
                          hint="add built-in opponents with --bots random,greedy,reference", exit_code=ExitCode.USAGE)
    rng = random.Random(f"seating:{seed}")
    played = {e: 0 for e in entrants}
    out = []
    for g in range(1, games + 1):
        if len(entrants) >= SEATS:
            order = sorted(entrants, key=lambda e: (played[e], rng.random()))
            table = order[:SEATS]
        else:
            table = list(entrants)
            fill = sorted(bots, key=lambda e: (played[e], rng.random()))
            while len(table) < SEATS:
                table.append(fill[(len(table) - len(entrants)) % len(fill)])
        rng.shuffle(table)
        for e in table:
            played[e] += 1
        out.append(Seating(g, game_seed(seed, g), tuple(table)))
    return out


# Opens a session for an entrant's submission on a sandbox slot.
SessionFactory = Callable[[Entrant, int], ContextManager[Any]]


def sandbox_sessions(profile: Any = None, limits: Any = None) -> tuple[SessionFactory, Callable[[], None]]:
    """Open sessions on real sandboxes, one :class:`Sandbox` (zygote) per slot."""
    from grader.run.sandbox import Limits, Sandbox

    limits = limits or Limits(cpu_s=3600)
    sandboxes: dict[int, Any] = {}
    lock = threading.Lock()

    def open_session(entrant: Entrant, slot: int) -> ContextManager[Any]:
        with lock:
            box = sandboxes.get(slot)
            if box is None:
                box = sandboxes[slot] = Sandbox(profile, limits, slot=slot)
        assert entrant.submission is not None and entrant.submission.main is not None
        return box.session(entrant.submission.files, entrant.submission.main)

    def close() -> None:
        with lock:
            for box in sandboxes.values():
                box.close()
            sandboxes.clear()

    return open_session, close


class Arena:
    """One worker's table: slots ``first_slot .. first_slot + capacity - 1``, each holding at
    most one live session, and the players for a seating."""

    def __init__(self, entrants: dict[str, Entrant], open_session: SessionFactory, reference: ModuleType,
                 *, first_slot: int, capacity: int = SEATS):
        self.entrants = entrants
        self.open_session = open_session
        self.reference = reference
        self.free = list(range(first_slot, first_slot + max(SEATS, capacity)))
        self.live: OrderedDict[str, tuple[int, Any]] = OrderedDict()  # entrant -> (slot, session), LRU first
        self.executor = ThreadPoolExecutor(SEATS, thread_name_prefix="seat")

    def _session(self, entrant: Entrant, keep: set[str]) -> Any:
        if entrant.id in self.live:
            self.live.move_to_end(entrant.id)
            return self.live[entrant.id][1]
        session: Any = None
        if not self.free:
            victim = next(e for e in self.live if e not in keep)
            slot, evicted = self.live.pop(victim)
            evicted.close()
            self.free.append(slot)
        slot = self.free.pop(0)
        for attempt in (1, 2):
            opened = self.open_session(entrant, slot)
            session = opened.__enter__() or opened
            # This module loaded when it entered, so a failed load here is the machine's
            # trouble (a killed child under load), not the student's: try once more.
            if getattr(session, "load", None) is None or session.load.ok or attempt == 2:
                break
            session.close()
        self.live[entrant.id] = (slot, session)
        return session

    def players(self, seating: Seating) -> list[Player]:
        keep = set(seating.entrants)
        out: list[Player] = []
        for e in seating.entrants:
            entrant = self.entrants[e]
            if entrant.is_bot:
                out.append(make_bot(e, self.reference))
            else:
                out.append(SessionPlayer(e, self._session(entrant, keep), entrant.play_name, entrant.group_name))
        return out

    def play(self, seating: Seating, config: TournamentConfig) -> GameRecord:
        return play_game(self.players(seating), seating.seed, config, self.reference, game=seating.game, executor=self.executor)

    def close(self) -> None:
        try:
            for _, session in self.live.values():
                try:
                    session.close()
                except Exception:
                    pass
            self.live.clear()
        finally:
            self.executor.shutdown(wait=True)

    def __enter__(self) -> "Arena":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_entries(submissions: Sequence[Submission], config: TournamentConfig, open_session: SessionFactory) -> tuple[list[Entrant], list[Rejected]]:
    """Load each submission once; keep those that import and define a play and a group function."""
    ok, rejected = [], []
    for sub in submissions:
        if sub.problems:
            rejected.append(Rejected(sub.id, sub.problems[0][1]))
            continue
        probe = Entrant(sub.id, sub)
        with open_session(probe, FIRST_SLOT) as session:
            load = session.load
        if not load.ok:
            where = f" (line {load.lineno})" if load.lineno else ""
            rejected.append(Rejected(sub.id, f"{sub.main} did not load: {load.kind}{where}: {load.message}"))
            continue
        names = set(load.names)
        play = [n for n in config.play_function if n in names]
        group = [n for n in config.group_function if n in names]
        if not play or not group:
            missing = [" or ".join(c) for c, found in ((config.play_function, play), (config.group_function, group)) if not found]
            rejected.append(Rejected(sub.id, f"{sub.main} defines no {' and no '.join(missing)}"))
            continue
        ok.append(Entrant(sub.id, sub, pick_name(config.play_function, play), pick_name(config.group_function, group)))
    return ok, rejected


def slots_per_worker(students: int, most: int = 16) -> int:
    """Slots per worker: enough to keep every student's session warm in a small class (a
    session restart costs a fork and an import, ~2.5x slower at 12 students on 4 slots), at
    most ``most`` (each slot is a zygote and a child process)."""
    return max(SEATS, min(students, most))


def bot_entrants(names: Sequence[str]) -> list[Entrant]:
    return [Entrant(PREFIX + n) for n in names]


def run_games(seatings: Sequence[Seating], entrants: Sequence[Entrant], config: TournamentConfig, reference: ModuleType,
              open_session: SessionFactory, *, jobs: int = 1, capacity: int = SEATS,
              on_game: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play every seating; ``jobs`` workers each with ``capacity`` slots.  Records in game order."""
    by_id = {e.id: e for e in entrants}
    todo: queue.Queue[Seating | None] = queue.Queue()
    for seating in seatings:
        todo.put(seating)
    jobs = max(1, min(jobs, len(seatings) or 1))
    records: list[GameRecord] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    def worker(index: int) -> None:
        try:
            with Arena(by_id, open_session, reference, first_slot=FIRST_SLOT + 1 + index * max(SEATS, capacity), capacity=capacity) as arena:
                while not failures:
                    try:
                        seating = todo.get_nowait()
                    except queue.Empty:
                        return
                    assert seating is not None
                    record = arena.play(seating, config)
                    with lock:
                        records.append(record)
                        if on_game is not None:
                            on_game(record)
        except BaseException as exc:  # reported by the caller's thread, never lost
            failures.append(exc)

    if jobs == 1:
        worker(0)
    else:
        threads = [threading.Thread(target=worker, args=(i,), name=f"tournament-{i}", daemon=True) for i in range(jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    if failures:
        raise failures[0]
    return sorted(records, key=lambda r: r.game)
