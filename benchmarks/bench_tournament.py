"""Benchmark tournament throughput: games per second with 4 sandboxed players.

The four players are reference-like students: copies of reference/comp10001go.py handed in
as four different submission files, each in its own sandbox session (no bots, so every one
of the 44 calls of a game crosses the sandbox boundary).  Prints games/s for each --jobs
value (several games in parallel, each worker with its own 4 sandbox slots) and whether the
target (>= 100 games/s, issue #17) is met.  A shared machine's wall clock says little, so it
also prints the CPU one game costs, in the grader and in the players' processes (read from
/proc for the whole process tree), and the games/s those costs allow on this machine's cores.
Run: python benchmarks/bench_tournament.py [--games 200] [--jobs 1,2,4]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.submissions import discover  # noqa: E402
from grader.tournament import runner  # noqa: E402
from grader.spec.model import TournamentSpec  # noqa: E402
from grader.tournament.game import game_class  # noqa: E402

TARGET = 100.0


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", default="1,2,4")
    parser.add_argument("--seed", type=int, default=2019)
    parser.add_argument("--students", type=int, default=4, help="players in the pool (4 seats per game)")
    parser.add_argument("--capacity", type=int, default=4, help="sandbox slots per worker")
    args = parser.parse_args()
    game = game_class(ROOT / "reference" / "comp10001go_game.py")({})
    source = (ROOT / "reference" / "comp10001go.py").read_text()
    config = TournamentSpec()
    best = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.students):
            (Path(tmp) / f"student{n:03d}.py").write_text(source)
        submissions = discover([tmp], ["comp10001go.py"])
        open_session, close = runner.sandbox_sessions()
        try:
            entrants, rejected = runner.check_entries(submissions, game, open_session)
            assert not rejected and len(entrants) == args.students, rejected
            seatings = runner.schedule([e.id for e in entrants], args.games, args.seed, game.seats)
            print(f"{args.games} games, {args.students} sandboxed reference-like players, {args.capacity} slots per worker, "
                  "44 sandboxed calls per game")
            baseline = None
            for jobs in [int(j) for j in args.jobs.split(",")]:
                # Warm up the workers' slots (zygote start + module import) outside the timing.
                with runner.Tables(entrants, game, config, open_session, jobs=jobs, capacity=args.capacity) as tables:
                    tables.run(seatings[: 2 * jobs])
                    start, own, players = time.perf_counter(), time.process_time(), tree_cpu(os.getpid())
                    records = tables.run(seatings)
                    elapsed = time.perf_counter() - start
                    own, players = time.process_time() - own, tree_cpu(os.getpid()) - players
                kinds = Counter(f.kind for r in records for f in r.faults)
                faults = ", ".join(f"{n} {k}" for k, n in kinds.most_common()) or "no"
                first = next((f for r in records for f in r.faults), None)
                if first is not None:
                    faults += f"; first: {first.entrant} game {first.game} turn {first.turn}: {first.detail}"
                rate = len(records) / elapsed
                baseline = baseline or rate
                best = max(best, rate)
                per_game = (own + players) / len(records)
                bound = (os.cpu_count() or 1) / per_game
                print(f"  --jobs {jobs}: {rate:6.1f} games/s  ({1000 * elapsed / len(records):.1f} ms/game, "
                      f"x{rate / baseline:.2f} vs first, {faults} faults)")
                print(f"             CPU per game {1000 * per_game:.1f} ms (grader {1000 * own / len(records):.1f}, "
                      f"players' processes {1000 * players / len(records):.1f}): at most {bound:.0f} games/s "
                      f"on {os.cpu_count()} idle cores")
        finally:
            close()
    print(f"target >= {TARGET:g} games/s: {'met' if best >= TARGET else 'NOT met'} (best {best:.1f} games/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
