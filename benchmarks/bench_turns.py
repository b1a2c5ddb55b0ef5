"""How long one turn of a console program takes: its output read, its wait for input seen, the answer sent.

A sandboxed Python program prints two lines and reads an answer, N times; a player answers at once.
Per turn it prints the wall time (the program's own work is a few microseconds: the rest is the grader
noticing, from /proc, that the program reads its stdin) and the grader's CPU time. ``--first`` lists
the pauses (ms) after the last output before the first check, each measured in turn, round after
round, so that the comparison holds on a loaded machine. Figures only; nothing is asserted.
Run: python benchmarks/bench_turns.py [--turns 400] [--rounds 4] [--first 0.5,0.1]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grader.run.process as process  # noqa: E402
from grader.languages import Build, get_language  # noqa: E402
from grader.programs.session import drive  # noqa: E402
from grader.run.sandbox import Limits  # noqa: E402


class Answers:
    def answer(self, output: str) -> str:
        return "1"


def one_session(turns: int) -> tuple[float, float]:
    """Wall and grader CPU per turn, in ms."""
    program = "for i in range(%d):\n    print('line one', i)\n    print('line two')\n    input('Enter: ')\n" % turns
    spawned = get_language("python").spawn(Build({"m.py": program}, ["python3", "-u", "m.py"], "m.py"), limits=Limits())
    wall, cpu = time.monotonic(), time.process_time()
    try:
        drive(spawned, Answers(), step_s=4, session_s=120, max_inputs=turns + 5)
    finally:
        spawned.kill()
    return (time.monotonic() - wall) / turns * 1e3, (time.process_time() - cpu) / turns * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--first", default=f"{process._POLL_MIN_S * 1e3:g}", help="pauses in ms, comma-separated")
    args = parser.parse_args()
    pauses = [float(x) / 1e3 for x in args.first.split(",")]
    print(f"load average before: {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")
    figures: dict[float, list[tuple[float, float]]] = {p: [] for p in pauses}
    for _ in range(args.rounds):
        for pause in pauses:
            process._POLL_MIN_S = pause
            figures[pause].append(one_session(args.turns))
    for pause, runs in figures.items():
        walls, cpus = sorted(w for w, _ in runs), sorted(c for _, c in runs)
        print(f"first check {pause * 1e3:.2f} ms after the output: per turn {walls[0]:.2f}-{walls[-1]:.2f} ms wall "
              f"(median {walls[len(walls) // 2]:.2f}), grader CPU {cpus[len(cpus) // 2]:.3f} ms")
    print(f"load average after: {'/'.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
