"""How long grading a console-program submission takes, and whether five gradings agree.

For each Blackjack (or Guess the Number) corpus submission it prints the wall time of one
grading (compile cached, the reference's own CPU times measured once beforehand), the grader's
own CPU time (the parent process: driving, parsing, replaying, judging) and the CPU time of
the student's program as the kernel accounts it; with --repeat N it grades each N
times and reports any score that differs.
The sessions feed input only when the kernel says the program reads, so the time is what the
programs take plus the grader's own work; there is no fixed wait anywhere.
Figures only; nothing is asserted about time.
Run: python benchmarks/bench_programs.py [--spec specs/blackjack.yaml] [--only java_correct,py_correct] [--repeat 5]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.programs import grade as grade_module  # noqa: E402
from grader.programs.grade import grade_program  # noqa: E402
from grader.spec.loader import load_spec  # noqa: E402


def files_of(path: Path) -> dict[str, bytes]:
    if path.is_dir():
        return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.suffix in (".py", ".java")}
    return {path.name: path.read_bytes()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default=str(ROOT / "specs" / "blackjack.yaml"))
    parser.add_argument("--only", default="", help="comma-separated submission stems")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    spec = load_spec(args.spec)
    corpus = ROOT / "submissions" / Path(args.spec).stem
    paths = sorted(p for p in corpus.iterdir() if p.suffix in (".py", ".java") or p.is_dir())
    if args.only:
        wanted = set(args.only.split(","))
        paths = [p for p in paths if p.stem in wanted]
    grade_module._reference_times(str(spec.path), spec.digest, False)      # once per run, as in a batch
    for path in paths:                                                      # javac once per file, as in a batch
        grade_program(spec, path.stem, files_of(path))
    times: list[float] = []
    unstable: list[str] = []
    print(f"{'submission':36} {'score':>7} {'wall s':>7} {'grader cpu s':>13} {'program cpu s':>14}")
    grader_cpu: list[float] = []
    for path in paths:
        scores = []
        for _ in range(args.repeat):
            started, cpu_started = time.perf_counter(), time.process_time()
            result = grade_program(spec, path.stem, files_of(path))
            times.append(time.perf_counter() - started)
            grader_cpu.append(time.process_time() - cpu_started)
            scores.append(result.score)
        cpu = result.extra.get("speed", {}).get("cpu_s", 0.0)
        print(f"{path.stem:36} {result.score:7.2f} {times[-1]:7.2f} {grader_cpu[-1]:13.2f} {cpu:14.2f}")
        if len(set(scores)) > 1:
            unstable.append(f"{path.stem}: {scores}")
    print(f"\n{len(paths)} submissions x {args.repeat}: median {statistics.median(times):.2f} s, "
          f"mean {statistics.mean(times):.2f} s, max {max(times):.2f} s per grading; the grader's own CPU "
          f"median {statistics.median(grader_cpu):.2f} s; load average {os.getloadavg()[0]:.1f}")
    print("every submission got the same score every time" if not unstable else "DIFFERENT SCORES:\n" + "\n".join(unstable))


if __name__ == "__main__":
    main()
