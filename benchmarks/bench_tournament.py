"""Benchmark tournament throughput: games per second with 4 sandboxed players.

The four players are reference-like students: copies of reference/comp10001go.py handed in
as four different submission files, each in its own sandbox session (no bots, so every one
of the 44 calls of a game crosses the sandbox boundary).  Prints games/s for each --jobs
value (several games in parallel, each worker with its own 4 sandbox slots) and --mode
(``processes``: each worker a process of its own, what ``grader tournament --jobs J`` does for
J > 1; ``threads``: workers as threads of this process, as --jobs 1 does) and whether the
target (>= 100 games/s, issue #17) is met.

A shared machine's wall clock says little, so it also prints the CPU one game costs: in the
grader (this process) and in the players' processes (the kernel's count for the slots'
cgroups, or the /proc tree without them), the players' own functions called bare in this
process on the same games (the part no harness can save), and the games/s that CPU allows
on this machine's cores.  With worker processes the grader's CPU is this process's plus the
workers' own (each reports its process time and its slots' meters).  The load average is
printed with every figure.
Run: python benchmarks/bench_tournament.py [--games 200] [--jobs 1,2,4] [--mode processes,threads] [--first-slot 100]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.run.sandbox import Limits, Sandbox  # noqa: E402
from grader.spec.loader import load_trusted_module  # noqa: E402
from grader.spec.model import TournamentSpec  # noqa: E402
from grader.submissions import discover  # noqa: E402
from grader.tournament import runner, workers  # noqa: E402
from grader.tournament.game import Game, Reply, game_class  # noqa: E402

TARGET = 100.0
CALLS_PER_GAME = 44


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of every live descendant of ``root`` (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        children.setdefault(int(fields[1]), []).append(int(entry))
        cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [root]
    while todo:
        for child in children.get(todo.pop(), []):
            total += cpu.get(child, 0.0)
            todo.append(child)
    return total


class Slots:
    """runner.sandbox_sessions, keeping the sandboxes so that their CPU meters can be read."""

    def __init__(self) -> None:
        self.boxes: dict[int, Sandbox] = {}
        self.lock = threading.Lock()

    def open_session(self, entrant: runner.Entrant, slot: int) -> Any:
        with self.lock:
            box = self.boxes.get(slot)
            if box is None:
                box = self.boxes[slot] = Sandbox(None, Limits(cpu_s=3600), slot=slot)
        assert entrant.submission is not None and entrant.submission.main is not None
        return box.session(entrant.submission.files, entrant.submission.main)

    def players_cpu(self) -> tuple[float, str]:
        """CPU seconds of every slot so far, and what counted them."""
        meters = [b.meter for b in self.boxes.values()]
        if meters and all(m is not None and m.kind != "proc" for m in meters):
            return sum(m.cpu_seconds() for m in meters if m is not None), meters[0].kind  # type: ignore[union-attr]
        return tree_cpu(os.getpid()), "/proc tree"

    def close(self) -> None:
        for box in self.boxes.values():
            box.close()


class BareTable:
    """A table calling the reference's functions in this process, timing each call's CPU."""

    seats = 4
    entrants = ("a", "b", "c", "d")

    def __init__(self, module: Any, names: dict[str, str]):
        self.functions = {role: getattr(module, name) for role, name in names.items()}
        self.cpu = 0.0

    def ask(self, seat: int, role: str, args: Sequence[Any]) -> Reply:
        return self.ask_all([(seat, role, args)])[0]

    def ask_all(self, calls: Sequence[tuple[int, str, Sequence[Any]]]) -> list[Reply]:
        out = []
        for _, role, args in calls:
            t = time.process_time()
            value = self.functions[role](*args)
            self.cpu += time.process_time() - t
            out.append(Reply("ok", value))
        return out

    def fault(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"the reference broke a rule: {args}")

    def rng(self, *parts: Any) -> random.Random:
        return random.Random(":".join(map(str, parts)))


def bare(game: Game, seeds: Sequence[int]) -> tuple[float, float]:
    """CPU seconds per game of the players' own functions and of the referee, no sandbox."""
    module = load_trusted_module(ROOT / "reference" / "comp10001go.py", "bench")
    names = {role: r.names[0] for role, r in game.roles().items()}
    table = BareTable(module, names)
    start = time.process_time()
    for seed in seeds:
        game.play(table, seed)  # type: ignore[arg-type]
    total = time.process_time() - start
    return table.cpu / len(seeds), (total - table.cpu) / len(seeds)


def measure(tables: Any, seatings: Sequence[runner.Seating], slots: Slots,
            jobs: int) -> tuple[list[Any], float, float, float]:
    """Play the seatings; records, wall seconds, grader CPU and players' CPU."""
    tables.run(seatings[: 2 * jobs])  # warm up: zygote start + module import, outside the timing

    def cpu() -> tuple[float, float]:
        own = time.process_time()
        if isinstance(tables, workers.WorkerTables):
            stats = tables.stats()
            return own + stats.grader_s, stats.players_s
        return own, slots.players_cpu()[0]

    (own, players), start = cpu(), time.perf_counter()
    records = tables.run(seatings)
    elapsed = time.perf_counter() - start
    own_after, players_after = cpu()
    return records, elapsed, own_after - own, players_after - players


def describe_faults(records: Sequence[Any]) -> str:
    kinds = Counter(f.kind for r in records for f in r.faults)
    text = ", ".join(f"{n} {k}" for k, n in kinds.most_common()) or "no"
    first = next((f for r in records for f in r.faults), None)
    if first is not None:
        text += f"; first: {first.entrant} game {first.game} turn {first.turn}: {first.detail}"
    return text + " faults"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", default="1,2,4")
    parser.add_argument("--seed", type=int, default=2019)
    parser.add_argument("--students", type=int, default=4, help="players in the pool (4 seats per game)")
    parser.add_argument("--capacity", type=int, default=4, help="sandbox slots per worker")
    parser.add_argument("--mode", default="processes",
                        help="how --jobs > 1 runs its workers: processes, threads, or both (comma separated); --jobs 1 is one thread")
    parser.add_argument("--pin", choices=("auto", "on", "off"), default="auto",
                        help="worker processes pinned to a CPU each (auto: when there are as many workers as CPUs)")
    parser.add_argument("--first-slot", type=int, default=runner.FIRST_SLOT,
                        help="sandbox slots from here on (another bench or tournament on the machine may use the default's)")
    args = parser.parse_args()
    game = game_class(ROOT / "reference" / "comp10001go_game.py")({})
    source = (ROOT / "reference" / "comp10001go.py").read_text()
    config = TournamentSpec()
    cores = os.cpu_count() or 1
    best = best_bound = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.students):
            (Path(tmp) / f"student{n:03d}.py").write_text(source)
        submissions = discover([tmp], ["comp10001go.py"])
        slots = Slots()
        try:
            entrants, rejected = runner.check_entries(submissions, game, slots.open_session, slot=args.first_slot)
            assert not rejected and len(entrants) == args.students, rejected
            seatings = runner.schedule([e.id for e in entrants], args.games, args.seed, game.seats)
            moves, referee = bare(game, [s.seed for s in seatings])
            print(f"{args.games} games, {args.students} sandboxed reference-like players, {args.capacity} slots per worker, "
                  f"{CALLS_PER_GAME} sandboxed calls per game; {cores} cores; load average {load()}")
            print(f"  bare, in this process: the players' own functions {1000 * moves:.1f} ms CPU per game, "
                  f"the referee {1000 * referee:.2f} ms (at most {cores / (moves + referee):.0f} games/s with no sandbox)")
            baseline = None
            runs = [(j, mode) for j in map(int, args.jobs.split(",")) for mode in (args.mode.split(",") if j > 1 else ["threads"])]
            for jobs, mode in runs:
                tables: Any
                if mode == "processes":
                    profile = slots.boxes[args.first_slot].profile
                    tables = workers.WorkerTables(entrants, game, config, profile=profile, limits=Limits(cpu_s=3600),
                                                  jobs=jobs, capacity=args.capacity, first_slot=args.first_slot,
                                                  pin={"auto": None, "on": True, "off": False}[args.pin])
                else:
                    tables = runner.Tables(entrants, game, config, slots.open_session, jobs=jobs, capacity=args.capacity,
                                           first_slot=args.first_slot)
                with tables:
                    records, elapsed, own, players = measure(tables, seatings, slots, jobs)
                games = len(records)
                rate = games / elapsed
                baseline = baseline or rate
                best = max(best, rate)
                per_game = (own + players) / games
                bound = cores / per_game
                best_bound = max(best_bound, bound)
                harness = players / games - moves
                print(f"  --jobs {jobs} ({mode}): {rate:6.1f} games/s wall ({1000 * elapsed / games:.1f} ms/game, x{rate / baseline:.2f} "
                      f"vs first, {describe_faults(records)}); load average {load()}")
                print(f"             CPU per game {1000 * per_game:.1f} ms: grader {1000 * own / games:.1f} "
                      f"({1e6 * (own / games - referee) / CALLS_PER_GAME:.0f} us per call besides the referee), "
                      f"players' processes {1000 * players / games:.1f} (own functions {1000 * moves:.1f}, "
                      f"harness {1e6 * harness / CALLS_PER_GAME:.0f} us per call)")
                print(f"             the measured CPU allows {bound:.0f} games/s on {cores} cores; a sandboxed game costs "
                      f"{per_game / (moves + referee):.1f}x its bare CPU (a ratio a busy machine disturbs less)")
        finally:
            slots.close()
    print(f"target >= {TARGET:g} games/s: {'met' if best >= TARGET else 'NOT met'} on the wall clock (best {best:.1f} games/s, "
          f"load average {load()}); the measured CPU allows {best_bound:.0f} games/s on {cores} idle cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
