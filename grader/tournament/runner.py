"""The tournament: who plays whom (reproducibly from one seed) and games run in parallel.

Seating: with at least as many entrants as the game has seats, each game seats those who
have played least so far (ties broken by the seeded generator) in a shuffled seat order;
with fewer, every entrant sits and the bots fill the empty seats (a bot may take two seats).  Game ``g`` has its own seed,
derived from the tournament seed and ``g`` alone, so any game can be replayed on its own.

Each worker of :class:`Tables` is a thread, alive for the whole tournament, that owns an
:class:`Arena`: its own sandbox slots, one live session per slot, a student's session kept
alive for as long as the slot is not needed for somebody else (least recently seated goes
first).  ``grader tournament --jobs J`` plays on these for J = 1; for J > 1 each arena runs
in a worker process of its own (:mod:`grader.tournament.workers`).  The seats of a game may
think at the same time (they are separate processes), which is where most of the speed comes from.
Results are deterministic for players whose answers depend only on their arguments, as the
handout requires; a player keeping state between calls may see games in another order with
``--jobs`` > 1.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import json
import queue
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, ContextManager, Mapping, Sequence

from grader.errors import ExitCode, GraderError
from grader.submissions import Submission
from grader.spec.model import TournamentSpec
from grader.tournament.game import Game
from grader.tournament.match import GameRecord, play_game
from grader.tournament.players import BOT_PREFIX, BotPlayer, Player, SessionPlayer, is_bot, pick_name

FIRST_SLOT = 100  # clear of the slots `grader grade` uses (0..jobs-1) and the probe's (999)


@dataclass(frozen=True)
class Entrant:
    """A leaderboard line: a submission or a built-in bot."""

    id: str
    submission: Submission | None = None
    names: Mapping[str, str] = field(default_factory=dict)  # role -> the function the submission defines

    @property
    def is_bot(self) -> bool:
        return self.submission is None


@dataclass(frozen=True)
class Seating:
    game: int  # 1-based
    seed: int
    entrants: tuple[str, ...]  # by seat


@dataclass(frozen=True)
class LostGame:
    """A game the grader failed to finish (its worker process died): no player is charged,
    nothing is stored, so a rerun plays it."""

    game: int
    seed: int
    entrants: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class Rejected:
    id: str
    reason: str


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game``, a function of the tournament seed and the game number only."""
    digest = hashlib.sha256(f"game:{seed}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def schedule(entrants: Sequence[str], games: int, seed: int, seats: int) -> list[Seating]:
    """The seatings of ``games`` games of ``seats`` seats; game ``g`` depends only on the games before it."""
    if not entrants:
        raise GraderError("no players for the tournament", exit_code=ExitCode.USAGE)
    bots = [e for e in entrants if is_bot(e)]
    if len(entrants) < seats and not bots:
        raise GraderError(f"a game needs {seats} players and only {len(entrants)} entered",
                          hint="add built-in opponents with --bots", exit_code=ExitCode.USAGE)
    rng = random.Random(f"seating:{seed}")
    played = {e: 0 for e in entrants}
    out = []
    for g in range(1, games + 1):
        if len(entrants) >= seats:
            order = sorted(entrants, key=lambda e: (played[e], rng.random()))
            table = order[:seats]
        else:
            table = list(entrants)
            fill = sorted(bots, key=lambda e: (played[e], rng.random()))
            while len(table) < seats:
                table.append(fill[(len(table) - len(entrants)) % len(fill)])
        rng.shuffle(table)
        for e in table:
            played[e] += 1
        out.append(Seating(g, game_seed(seed, g), tuple(table)))
    return out


def secret_deals(seatings: Sequence[Seating], key: bytes, digests: Mapping[str, str]) -> list[Seating]:
    """The seatings with each game's seed keyed by the tournament's secret and by the files of
    who sits at the table (``digests``: entrant -> digest).

    The tournament seed is no secret (it is in the spec students get, and the seeding and the
    deal are public code): a player that matched its first hand against the deals of games
    1..2000 knew all four hands of every game (rt-go).  An HMAC under a key the players never
    see makes the deals unpredictable; the table's files are in it too, so a student who hands
    in again is dealt new cards rather than the games its report showed."""
    out = []
    for s in seatings:
        text = json.dumps([s.seed, [digests.get(e, e) for e in s.entrants]])
        digest = hmac.new(key, text.encode(), hashlib.sha256).digest()
        out.append(dataclasses.replace(s, seed=int.from_bytes(digest[:8], "big") >> 1))
    return out


# Opens a session for an entrant's submission on a sandbox slot.
SessionFactory = Callable[[Entrant, int], ContextManager[Any]]


class SlotSessions:
    """Sessions on real sandboxes, one :class:`Sandbox` (zygote) per slot, opened when first
    needed; also what the slots' processes have cost (the bench reads it)."""

    def __init__(self, profile: Any = None, limits: Any = None):
        from grader.run.sandbox import Limits

        self.profile = profile
        self.limits = limits or Limits(cpu_s=3600)
        self.sandboxes: dict[int, Any] = {}
        self._lock = threading.Lock()

    def open_session(self, entrant: Entrant, slot: int) -> ContextManager[Any]:
        from grader.run.sandbox import Sandbox

        with self._lock:
            box = self.sandboxes.get(slot)
            if box is None:
                box = self.sandboxes[slot] = Sandbox(self.profile, self.limits, slot=slot)
        assert entrant.submission is not None and entrant.submission.main is not None
        return box.session(entrant.submission.files, entrant.submission.main)

    def players_cpu(self) -> tuple[float, str]:
        """CPU seconds the slots' processes used so far (the kernel's count per slot), and
        what counted them ("" when some slot has no meter)."""
        with self._lock:
            meters = [box.meter for box in self.sandboxes.values()]
        if any(m is None for m in meters):
            return 0.0, ""
        return sum(m.cpu_seconds() for m in meters), (meters[0].kind if meters else "")

    def close(self) -> None:
        with self._lock:
            for box in self.sandboxes.values():
                box.close()
            self.sandboxes.clear()


def sandbox_sessions(profile: Any = None, limits: Any = None) -> tuple[SessionFactory, Callable[[], None]]:
    """Open sessions on real sandboxes, one :class:`Sandbox` (zygote) per slot."""
    slots = SlotSessions(profile, limits)
    return slots.open_session, slots.close


class Arena:
    """One worker's table: slots ``first_slot .. first_slot + capacity - 1``, each holding at
    most one live session, and the players for a seating."""

    def __init__(self, entrants: dict[str, Entrant], open_session: SessionFactory, game: Game,
                 *, first_slot: int, capacity: int = 0):
        self.entrants = entrants
        self.open_session = open_session
        self.game = game
        self.bots = game.bots()
        self.free = list(range(first_slot, first_slot + max(game.seats, capacity)))
        self.live: OrderedDict[str, tuple[int, Any]] = OrderedDict()  # entrant -> (slot, session), LRU first

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
                out.append(BotPlayer(e, self.bots[e[len(BOT_PREFIX):]]()))
            else:
                out.append(SessionPlayer(e, self._session(entrant, keep), entrant.names))
        return out

    def play(self, seating: Seating, config: TournamentSpec) -> GameRecord:
        return play_game(self.game, self.players(seating), seating.seed, config, number=seating.game)

    def close(self) -> None:
        for _, session in self.live.values():
            try:
                session.close()
            except Exception:
                pass
        self.live.clear()

    def __enter__(self) -> "Arena":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def check_entries(submissions: Sequence[Submission], game: Game, open_session: SessionFactory,
                  *, slot: int = FIRST_SLOT) -> tuple[list[Entrant], list[Rejected]]:
    """Load each submission once (on sandbox slot ``slot``); keep those that import and define
    a function for every role."""
    roles = game.roles()
    ok, rejected = [], []
    for sub in submissions:
        if sub.problems:
            rejected.append(Rejected(sub.id, sub.problems[0][1]))
            continue
        if is_bot(sub.id):   # a student named like a bot would sit in the bot's place, as the bot
            rejected.append(Rejected(sub.id, f"a player's name may not start with {BOT_PREFIX!r}, which names the "
                                             "game's bots; rename the file"))
            continue
        probe = Entrant(sub.id, sub)
        with open_session(probe, slot) as session:
            load = session.load
        if not load.ok:
            where = f" (line {load.lineno})" if load.lineno else ""
            rejected.append(Rejected(sub.id, f"{sub.main} did not load: {load.kind}{where}: {load.message}"))
            continue
        defined = set(load.names)
        missing = [" or ".join(role.names) for role in roles.values() if not defined.intersection(role.names)]
        if missing:
            rejected.append(Rejected(sub.id, f"{sub.main} defines no {' and no '.join(missing)}"))
            continue
        names = {name: pick_name(role.names, [n for n in role.names if n in defined]) for name, role in roles.items()}
        ok.append(Entrant(sub.id, sub, names))
    return ok, rejected


def slots_per_worker(students: int, seats: int, most: int = 16) -> int:
    """Slots per worker: enough to keep every student's session warm in a small class (a
    session restart costs a fork and an import, ~2.5x slower at 12 students on 4 slots), at
    most ``most`` (each slot is a zygote and a child process)."""
    return max(seats, min(students, most))


def bot_entrants(names: Sequence[str]) -> list[Entrant]:
    return [Entrant(BOT_PREFIX + n) for n in names]


class _Worker:
    """An arena's own thread, alive as long as the tables are.

    bubblewrap's ``--die-with-parent`` is a parent-death signal, and Linux sends it when the
    *thread* that started the sandbox exits, not the process: a zygote opened from a thread
    that ends with its round would be killed under its live sessions, and each student's
    next call would be scored as a crash.  So every game of an arena, in every round, runs
    on the one thread that opened its sessions."""

    def __init__(self, arena: Arena, name: str):
        self.arena = arena
        self.todo: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self.thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            job = self.todo.get()
            if job is None:
                return
            job()

    def stop(self) -> None:
        """Close the arena's sessions on its own thread, then end the thread."""
        self.todo.put(self.arena.close)
        self.todo.put(None)
        self.thread.join()


class Tables:
    """The workers of a tournament (``jobs`` arenas of ``capacity`` slots each, each on its
    own thread), kept for all its rounds so that sessions stay warm between them."""

    def __init__(self, entrants: Sequence[Entrant], game: Game, config: TournamentSpec, open_session: SessionFactory,
                 *, jobs: int = 1, capacity: int = 0, first_slot: int = FIRST_SLOT):
        by_id = {e.id: e for e in entrants}
        width = max(game.seats, capacity)
        self.game, self.config = game, config
        self.arenas = [Arena(by_id, open_session, game, first_slot=first_slot + 1 + i * width, capacity=capacity)
                       for i in range(max(1, jobs))]
        self.lost: list[LostGame] = []  # threads lose no game: a failure stops the tournament
        self._workers: list[_Worker] = []
        self._closing = threading.Event()  # set by close(): workers start no new game (Ctrl-C mid-round)

    def _worker(self, i: int) -> _Worker:
        while len(self._workers) <= i:
            n = len(self._workers)
            self._workers.append(_Worker(self.arenas[n], f"tournament-{n}"))
        return self._workers[i]

    def run(self, seatings: Sequence[Seating], on_game: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
        """Play every seating; records in game order."""
        todo: queue.Queue[Seating] = queue.Queue()
        for seating in seatings:
            todo.put(seating)
        records: list[GameRecord] = []
        failures: list[BaseException] = []
        lock = threading.Lock()

        def play(arena: Arena, done: threading.Semaphore) -> None:
            try:
                while not failures and not self._closing.is_set():
                    try:
                        seating = todo.get_nowait()
                    except queue.Empty:
                        return
                    record = arena.play(seating, self.config)
                    with lock:
                        records.append(record)
                        if on_game is not None:
                            on_game(record)
            except BaseException as exc:  # reported by the caller's thread, never lost
                failures.append(exc)
            finally:
                done.release()

        busy = max(1, min(len(self.arenas), len(seatings)))
        done = threading.Semaphore(0)
        for i in range(busy):
            worker = self._worker(i)
            worker.todo.put(functools.partial(play, worker.arena, done))
        for _ in range(busy):
            done.acquire()
        if failures:
            raise failures[0]
        return sorted(records, key=lambda r: r.game)

    def close(self) -> None:
        self._closing.set()
        for worker in self._workers:
            worker.stop()
        self._workers.clear()
        for arena in self.arenas:
            arena.close()

    def __enter__(self) -> "Tables":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_games(seatings: Sequence[Seating], entrants: Sequence[Entrant], game: Game, config: TournamentSpec,
              open_session: SessionFactory, *, jobs: int = 1, capacity: int = 0,
              on_game: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play every seating on fresh tables; records in game order."""
    with Tables(entrants, game, config, open_session, jobs=max(1, min(jobs, len(seatings) or 1)), capacity=capacity) as tables:
        return tables.run(seatings, on_game)


def play_tournament(ids: Sequence[str], games: int | str, seed: int, seats: int, config: TournamentSpec,
                    play: Callable[[Sequence[Seating]], list[GameRecord]]) -> list[GameRecord]:
    """All the games of a tournament.  ``games == "auto"`` plays in rounds (the first gives each
    entrant about two games, each later one a quarter more games) until every adjacent pair
    of the standings is settled at the spec's confidence, or ``config.max_games`` are played."""
    from grader.tournament.standings import standings, unsettled_pairs

    if games != "auto":
        return play(schedule(ids, int(games), seed, seats))
    first = max(8, -(-2 * len(ids) // seats))
    records: list[GameRecord] = []
    done = 0
    while done < config.max_games:
        # Rounds grow with the games played, so the ratings are recomputed a few dozen times at most.
        target = min(config.max_games, done + max(first, done // 4))
        records += play(schedule(ids, target, seed, seats)[done:])
        done = target
        if not unsettled_pairs(standings(records, ids, config), config.rating_interval):
            break
    return sorted(records, key=lambda r: r.game)
