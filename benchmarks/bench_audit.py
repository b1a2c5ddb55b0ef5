"""How long `grader audit` takes on the shipped function specs: wall time and worker CPU.

Prints figures; asserts nothing (speed targets are never timed tests).
Usage: python benchmarks/bench_audit.py [--jobs 2] [--samples 200]
"""
from __future__ import annotations

import argparse
from pathlib import Path

from grader.audit.report import scores
from grader.audit.run import run_audit
from grader.spec.loader import load_spec

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    for name in ("hw7_iteration", "comp10001go"):
        audit = run_audit(load_spec(ROOT / "specs" / f"{name}.yaml"), jobs=args.jobs, samples=args.samples)
        worst = min(s.value for s in scores(audit))
        timing = ", ".join(f"{k} {v:.1f} s" for k, v in audit.timings.items())
        print(f"{name}: {len(audit.mutants)} mutants, lowest function score {worst:.1%}, "
              f"{audit.elapsed_s:.1f} s wall ({timing})")


if __name__ == "__main__":
    main()
