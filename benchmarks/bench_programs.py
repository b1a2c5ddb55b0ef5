"""How long grading a console-program submission takes, and whether repeated gradings agree.

For each Blackjack (or Guess the Number) corpus submission, one at a time, it prints the wall time
of one grading (compile cached, the reference's own CPU times measured once beforehand, as in a
batch), the grader's own CPU time (the parent process: driving, parsing, replaying, judging) and
the CPU time of the student's program over all its cases as the kernel accounts it, read from
/proc while it runs (a short tail at exit is missed). The cases of a submission are played
CASE_JOBS at a time; ``--case-jobs 1,2`` grades each submission both ways, side by side, so the
ratio holds on a loaded machine. With ``--repeat N`` it grades each N times and reports any
score that differs. The load average is printed before and after: on a shared machine wall time
follows the load, CPU time much less.
The sessions feed input only when the kernel says the program reads: there is no fixed wait.
Figures only; nothing is asserted about time.
Run: python benchmarks/bench_programs.py [--spec specs/blackjack.yaml] [--only java_correct,py_correct]
         [--repeat 5] [--case-jobs 1,2]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.programs import grade as grade_module  # noqa: E402
from grader.programs.grade import grade_program  # noqa: E402
from grader.spec.loader import load_spec  # noqa: E402


def files_of(path: Path) -> dict[str, bytes]:
    if path.is_dir():
        return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.suffix in (".py", ".java")}
    return {path.name: path.read_bytes()}


class ProgramCpu:
    """Adds up the kernel's CPU time of every case the program plays (all cases, timed or not)."""

    def __init__(self) -> None:
        self.total = 0.0
        self._lock = threading.Lock()     # cases run on two threads
        original = grade_module._Runner.run

        def counting(runner: Any, *args: Any, **kwargs: Any) -> Any:
            run = original(runner, *args, **kwargs)
            with self._lock:
                self.total += run.transcript.cpu_s
            return run

        grade_module._Runner.run = counting  # type: ignore[method-assign]


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default=str(ROOT / "specs" / "blackjack.yaml"))
    parser.add_argument("--only", default="", help="comma-separated submission stems")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--case-jobs", default=str(grade_module.CASE_JOBS),
                        help="cases of one submission played at once; a list (1,2) compares them side by side")
    args = parser.parse_args()
    spec = load_spec(args.spec)
    corpus = ROOT / "submissions" / Path(args.spec).stem
    paths = sorted(p for p in corpus.iterdir() if p.suffix in (".py", ".java") or p.is_dir())
    if args.only:
        wanted = set(args.only.split(","))
        paths = [p for p in paths if p.stem in wanted]
    case_jobs = [int(n) for n in args.case_jobs.split(",")]
    print(f"load average before: {load()}  ({os.cpu_count()} CPUs)")
    grade_module._reference_times(str(spec.path), spec.digest, False)      # once per run, as in a batch
    for path in paths:                                                      # javac once per file, as in a batch
        grade_program(spec, path.stem, files_of(path))
    program_cpu = ProgramCpu()
    walls: dict[int, list[float]] = {jobs: [] for jobs in case_jobs}
    cpus: dict[int, list[float]] = {jobs: [] for jobs in case_jobs}
    unstable: list[str] = []
    print(f"{'submission':34} {'jobs':>4} {'score':>7} {'wall s':>7} {'grader cpu s':>13} {'program cpu s':>14}")
    for path in paths:
        scores = []
        for _ in range(args.repeat):
            for jobs in case_jobs:
                grade_module.CASE_JOBS = jobs
                program_cpu.total = 0.0
                started, cpu_started = time.perf_counter(), time.process_time()
                result = grade_program(spec, path.stem, files_of(path))
                wall, grader_cpu = time.perf_counter() - started, time.process_time() - cpu_started
                walls[jobs].append(wall)
                cpus[jobs].append(grader_cpu + program_cpu.total)
                scores.append(result.score)
                print(f"{path.stem:34} {jobs:4} {result.score:7.2f} {wall:7.2f} {grader_cpu:13.2f} {program_cpu.total:14.2f}")
        if len(set(scores)) > 1:
            unstable.append(f"{path.stem}: {scores}")
    print()
    for jobs in case_jobs:
        print(f"cases {jobs} at a time: {len(walls[jobs])} gradings, wall median {statistics.median(walls[jobs]):.2f} s "
              f"(max {max(walls[jobs]):.2f}), grader + program CPU median {statistics.median(cpus[jobs]):.2f} s")
    if len(case_jobs) > 1:
        base = statistics.median(walls[case_jobs[0]])
        print("wall ratio, side by side: " + ", ".join(
            f"{jobs}: {statistics.median(walls[jobs]) / base:.2f}x" for jobs in case_jobs))
    print(f"load average after: {load()}")
    print("every submission got the same score every time" if not unstable else "DIFFERENT SCORES:\n" + "\n".join(unstable))


if __name__ == "__main__":
    main()
