"""A tournament's arenas in worker processes: games in parallel without sharing one GIL.

:class:`runner.Tables` runs its arenas on threads of the grader's process, and every call's
grader-side work (encoding, reading the reply, the referee) then waits for the one GIL:
with ``--jobs 2`` the threads spent more CPU per game than one did and hardly played faster.
:class:`WorkerTables` has the same interface (``run``, ``lost``, ``close``) and runs each
arena in its own process with its own sandbox slots; the coordinating process only hands
out seatings and takes back the :class:`GameRecord` of each game, which it stores and rates
as before (``on_game`` is called on its own thread, so the store keeps one thread).

Start method: ``spawn``.  By the time games start the coordinating process runs threads
(each sandbox's zygote has one draining its stderr; ``check_entries`` has opened one), and a
``fork`` of a process running threads copies any lock another thread holds at that moment,
held forever in the child.  A spawned worker starts clean; its initialiser is cheap: it
imports the engine and the game plug-in (from the plug-in's file, as the parent did, with
the same options) and opens its sandboxes when its first game needs them (~0.3 s a worker,
once per tournament).  ``forkserver`` would pay the same imports in its server.

Failures: a worker that dies (killed, out of memory) costs only the games it held (at most
:data:`DEPTH`): each becomes a :class:`runner.LostGame`, the grader's fault, charged to no
player and not stored (a rerun plays it); a new worker with fresh slots takes its place
and the other games go on.  An exception in a worker is a grader bug and stops the
tournament, as it does on threads.  Ctrl-C: workers ignore SIGINT (the terminal sends it to
the whole process group) and the coordinating process closes them: a worker that is idle
is asked to stop, a busy one gets SIGTERM, which closes its sessions in a ``finally``;
a worker's sandboxes die with it in any case (bubblewrap's ``--die-with-parent``), and a
worker whose coordinator disappears sees its pipe close and stops.

CPUs: when there are at least as many workers as CPUs the process may use, worker ``k``
and its sandboxes (which inherit it) are pinned to CPU ``k mod n``.  A call then wakes its
seat on the worker's own CPU and the answer wakes the worker there: no wake-up crosses to
another CPU (an inter-processor interrupt, dear on a virtual machine) and the caches stay
warm; on the 2-core machine of issue #17 a game cost ~10% less CPU.  Every CPU is busy
either way, and a seat's time is charged from the CPU the kernel counted (its wall clock
only as a backstop), as without pinning.  With fewer workers than CPUs nothing is pinned,
so that a worker's seats may think on several CPUs at once.
"""
from __future__ import annotations

import inspect
import multiprocessing
import os
import signal
import sys
import time
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Callable, Sequence

from grader.errors import GraderError
from grader.spec.model import TournamentSpec
from grader.tournament import runner
from grader.tournament.game import Game
from grader.tournament.match import GameRecord

#: Games sent to a worker before its first answer: the next game is there when one ends.
DEPTH = 2


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker needs to build its arena (plain, picklable data)."""

    entrants: tuple[runner.Entrant, ...]
    game_file: str  # the plug-in's module, loaded again in the worker
    options: dict[str, Any]
    config: TournamentSpec
    profile: Any  # the sandbox's IsolationProfile (None: probe in the worker)
    limits: Any
    first_slot: int
    capacity: int
    cpu: int | None = None  # the one CPU the worker and its sandboxes run on (None: any)


@dataclass(frozen=True)
class WorkerStats:
    """CPU seconds the workers used so far: their own (engine, referee, bots) and their slots'
    processes (the students' players), with what counted the latter."""

    grader_s: float
    players_s: float
    meter: str


def plugin_file(game: Game) -> str:
    """The file of ``game``'s plug-in, from which a worker loads the same game."""
    module = sys.modules.get(type(game).__module__)
    if module is None or getattr(module, "GAME", None) is not type(game):
        raise ValueError(f"{type(game).__name__} is not the GAME of a plug-in file; worker processes cannot load it")
    return inspect.getfile(module)


def _stop_on_sigterm(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise SystemExit(128 + signum)  # unwinds through the finally that closes the sessions


def _serve(conn: Connection) -> None:
    """A worker's life: read its setup, build the arena, then play each seating sent until told to stop."""
    from grader.tournament.game import game_class

    try:
        setup: WorkerSetup = conn.recv()
    except (EOFError, OSError):  # the coordinator is gone
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    if setup.cpu is not None:
        try:
            os.sched_setaffinity(0, {setup.cpu})  # its sandboxes, started later, inherit it
        except OSError:
            pass
    slots = runner.SlotSessions(setup.profile, setup.limits)
    arena: runner.Arena | None = None
    try:
        try:
            game = game_class(Path(setup.game_file))(setup.options)
            arena = runner.Arena({e.id: e for e in setup.entrants}, slots.open_session, game,
                                 first_slot=setup.first_slot, capacity=setup.capacity)
        except BaseException:
            conn.send(("error", (0, traceback.format_exc())))
            return
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):  # the coordinator is gone
                return
            if message is None:
                return
            op, seating = message  # ("play", a Seating) or ("stats", None)
            if op == "play":
                try:
                    reply: tuple[str, Any] = ("record", arena.play(seating, setup.config))
                except Exception:
                    reply = ("error", (seating.game, traceback.format_exc()))
            else:  # "stats"
                players, meter = slots.players_cpu()
                reply = ("stats", WorkerStats(time.process_time(), players, meter))
            try:
                conn.send(reply)
            except OSError:
                return
    finally:
        if arena is not None:
            arena.close()
        slots.close()


def _from_a_script() -> bool:
    """Is this process a user's Python script (whose top level each spawned worker runs again),
    not the ``grader`` command or ``python -m``?"""
    main = sys.modules.get("__main__")
    file = getattr(main, "__file__", None)
    return isinstance(file, str) and getattr(main, "__spec__", None) is None and Path(file).name != "grader"


class _Worker:
    """The coordinator's handle on one worker process and the seatings it holds."""

    def __init__(self, ctx: Any, setup: WorkerSetup, number: int):
        self.number = number
        self.conn, theirs = ctx.Pipe()
        # The setup (every entrant's files) goes over the pipe, not in the start's arguments: a
        # spawned process that dies before reading those hangs its parent once they outgrow a pipe's
        # buffer (multiprocessing keeps the read end open while it writes); a dead peer fails a send.
        self.process = ctx.Process(target=_serve, args=(theirs,), name=f"tournament-{number}", daemon=True)
        self.process.start()
        theirs.close()
        self.send(setup)
        self.held: deque[runner.Seating] = deque()
        self.alive = True
        self.answered = False              # has it sent anything back: then it started

    def send(self, message: Any) -> bool:
        try:
            self.conn.send(message)
            return True
        except OSError:
            return False

    def death(self) -> str:
        """Why the worker is gone, once it is."""
        self.alive = False
        self.conn.close()
        self.process.join(5)
        code = self.process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        why = f"the grader's worker process {self.number} (pid {self.process.pid}) died ({how})"
        if not self.answered and _from_a_script():
            why += (" while starting; a Python script that runs the grader must do so under "
                    "`if __name__ == \"__main__\":`, since each worker process runs the script again")
        return why

    def ask_to_stop(self) -> None:
        """An idle worker is asked to stop; a busy one (Ctrl-C mid-game) is terminated."""
        if not (self.alive and not self.held and self.send(None)):
            self.process.terminate()

    def stop(self) -> None:
        """Wait for the worker to end (killed if it will not)."""
        self.process.join(10)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.alive = False
        self.conn.close()


class WorkerTables:
    """``jobs`` arenas of ``capacity`` slots each, each in its own worker process, kept for
    all the rounds of a tournament so that sessions stay warm between them."""

    def __init__(self, entrants: Sequence[runner.Entrant], game: Game, config: TournamentSpec, *,
                 profile: Any = None, limits: Any = None, jobs: int = 2, capacity: int = 0,
                 first_slot: int = runner.FIRST_SLOT, respawns: int | None = None, pin: bool | None = None):
        self.jobs = max(1, jobs)
        self.width = max(game.seats, capacity)
        self._setup = dict(entrants=tuple(entrants), game_file=plugin_file(game), options=dict(game.options),
                           config=config, profile=profile, limits=limits, capacity=capacity)
        self._first_slot = first_slot
        self._ctx = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._started = 0
        self._respawns = 2 * self.jobs if respawns is None else respawns  # then a worker that keeps dying stops us
        self.lost: list[runner.LostGame] = []
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        # Pinned by default when every CPU gets a worker anyway: see the module docstring.
        self._cpus = cpus if (len(cpus) <= self.jobs if pin is None else pin) else []

    def _start(self) -> _Worker:
        # Each worker (a replacement too) has slots of its own: a dead one's may not be clean yet.
        number = self._started
        self._started += 1
        cpu = self._cpus[number % len(self._cpus)] if self._cpus else None
        setup = WorkerSetup(first_slot=self._first_slot + 1 + number * self.width, cpu=cpu, **self._setup)
        worker = _Worker(self._ctx, setup, number)
        self._workers.append(worker)
        return worker

    @property
    def pids(self) -> list[int]:
        """The live workers' process ids."""
        return [w.process.pid for w in self._workers if w.alive and w.process.pid is not None]

    def _lose(self, worker: _Worker, todo: deque[runner.Seating]) -> None:
        why = worker.death()
        self._workers.remove(worker)
        for seating in worker.held:
            self.lost.append(runner.LostGame(seating.game, seating.seed, seating.entrants, why))
        worker.held.clear()
        if todo or any(w.held for w in self._workers):
            if self._respawns > 0:
                self._respawns -= 1
                self._start()
            elif not self._workers:
                raise GraderError(f"the tournament's worker processes keep dying; the last: {why}",
                                  hint="the games played so far are saved; run the command again to play the rest")

    def run(self, seatings: Sequence[runner.Seating],
            on_game: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
        """Play every seating; records in game order (without the games lost with a worker)."""
        todo = deque(seatings)
        while len(self._workers) < min(self.jobs, len(todo)):
            self._start()
        records: list[GameRecord] = []
        while todo or any(w.held for w in self._workers):
            for worker in list(self._workers):
                while todo and len(worker.held) < DEPTH:
                    if not worker.send(("play", todo[0])):
                        if not worker.held:  # else its pipe's end is read below, after the records in it
                            self._lose(worker, todo)
                        break
                    worker.held.append(todo.popleft())
            busy = {w.conn: w for w in self._workers if w.held}
            for conn in wait(list(busy)):
                worker = busy[conn]
                try:
                    kind, value = worker.conn.recv()
                except (EOFError, OSError):
                    self._lose(worker, todo)
                    continue
                worker.answered = True
                if kind == "error":
                    game, text = value
                    last = text.strip().splitlines()[-1] if text.strip() else "?"
                    error = GraderError(f"a tournament worker failed{f' on game {game}' if game else ''}: {last}")
                    error.staff_detail = text  # type: ignore[attr-defined]
                    raise error
                seating = worker.held.popleft()
                assert kind == "record" and value.game == seating.game, (kind, seating.game)
                records.append(value)
                if on_game is not None:
                    on_game(value)
        return sorted(records, key=lambda r: r.game)

    def stats(self) -> WorkerStats:
        """CPU used so far by the live workers and their slots (call it between runs)."""
        grader = players = 0.0
        meters = set()
        for worker in self._workers:
            if worker.alive and not worker.held and worker.send(("stats", None)):
                kind, value = worker.conn.recv()
                assert kind == "stats"
                grader += value.grader_s
                players += value.players_s
                meters.add(value.meter)
        return WorkerStats(grader, players, meters.pop() if len(meters) == 1 else "")

    def close(self) -> None:
        for worker in self._workers:  # all at once: each closes its sessions while the others do
            worker.ask_to_stop()
        for worker in self._workers:
            worker.stop()
        self._workers.clear()

    def __enter__(self) -> "WorkerTables":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def parallel_tables(entrants: Sequence[runner.Entrant], game: Game, config: TournamentSpec,
                    open_session: runner.SessionFactory, *, profile: Any, jobs: int, capacity: int) -> Any:
    """The tables a tournament plays on: worker processes when several games run at once and
    students sit (bots alone gain nothing from a sandbox slot), else threads of this process."""
    if jobs > 1 and any(not e.is_bot for e in entrants):
        return WorkerTables(entrants, game, config, profile=profile, jobs=jobs, capacity=capacity)
    return runner.Tables(entrants, game, config, open_session, jobs=jobs, capacity=capacity)


