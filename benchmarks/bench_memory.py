"""The grading process's memory over a class: peak RSS grading 100 and 1,000 submissions.

Each class size is graded by `grader grade` (in-process through grader.cli.main, the
default reports, --jobs as given) in a fresh child process of this script, which reports
its own peak resident set size (ru_maxrss) and its Python heap at the end (tracemalloc is
not used: it would slow the run). The sandboxes' processes are not counted: they are
separate processes, bounded per slot by the sandbox's own limits. With --jobs > 1 the
grading itself happens in worker processes (grader.pool); the largest of them is shown
apart ("largest child": the biggest process this one waited for). Flat means the peak at
1,000 is close to the peak at 100, not ten times more.
Run: python benchmarks/bench_memory.py [--sizes 100 1000] [--jobs N]
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "specs" / "hw7_iteration.yaml"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def child(subs: Path, out: Path, jobs: int) -> None:
    from grader.cli import main as grader_main

    start = time.perf_counter()
    code = grader_main(["grade", str(SPEC), str(subs), "--out", str(out), "--regrade", "--jobs", str(jobs)])
    elapsed = time.perf_counter() - start
    gc.collect()
    objects = len(gc.get_objects())
    print(json.dumps({"code": code, "elapsed": elapsed, "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                      "children_maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "gc_objects": objects}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child[0]), Path(args.child[1]), int(args.child[2]))
        return
    from gen_submissions import generate

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        for n in args.sizes:
            subs, out = Path(tmp) / f"subs{n}", Path(tmp) / f"out{n}"
            generate(subs, n, args.seed)
            proc = subprocess.run([sys.executable, __file__, "--child", str(subs), str(out), str(args.jobs)],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                raise SystemExit(f"grading {n} submissions failed:\n{proc.stderr[-3000:]}")
            figures = json.loads(proc.stdout.strip().splitlines()[-1])
            rows.append((n, figures))
    load = os.getloadavg()
    print(f"parent memory grading hw7_iteration classes, {args.jobs} jobs; load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print(f"{'submissions':>12} {'peak RSS':>10} {'objects at end':>15} {'wall':>8} {'largest child':>14}")
    for n, f in rows:
        print(f"{n:>12} {f['maxrss_kb'] / 1024:>8.1f}MB {f['gc_objects']:>15,} {f['elapsed']:>7.1f}s "
              f"{f.get('children_maxrss_kb', 0) / 1024:>12.1f}MB")
    if len(rows) >= 2:
        (n0, f0), (n1, f1) = rows[0], rows[-1]
        growth = (f1["maxrss_kb"] - f0["maxrss_kb"]) / 1024
        print(f"peak RSS grows by {growth:.1f} MB from {n0} to {n1} submissions "
              f"({growth * 1024 / (n1 - n0):.1f} KB per extra submission)")


if __name__ == "__main__":
    main()
