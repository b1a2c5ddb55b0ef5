"""Cost of the runtime ban monitor (CallWatcher) on a call-heavy loop, watched vs not.

Prints figures only; the ratio is measured within one run so machine noise cancels.
Usage: python benchmarks/bench_monitor.py [--n 200000]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "grader" / "run" / "child"))
from monitor import CallWatcher  # noqa: E402  (standalone module, as inside the sandbox)


def arithmetic(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * 2
    return total


def calls(n: int) -> int:
    def g(x):
        return x

    total = 0
    for i in range(n):
        total += g(i) + abs(i)
    return total


def best_of(fn, n: int, watched: bool, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        if watched:
            with CallWatcher(["builtins.sum", "numpy.sum", "statistics.mean"]):
                fn(n)
        else:
            fn(n)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=200_000)
    n = parser.parse_args().n
    print(f"{'loop':<28}{'plain ns/iter':>15}{'watched ns/iter':>17}{'slowdown':>10}")
    for name, fn in (("arithmetic only", arithmetic), ("1 Python + 1 C call", calls)):
        plain, watched = best_of(fn, n, False), best_of(fn, n, True)
        print(f"{name:<28}{plain * 1e9 / n:>15.0f}{watched * 1e9 / n:>17.0f}{watched / plain:>9.1f}x")
    print("The monitor is on only for calls of functions whose spec bans something.")


if __name__ == "__main__":
    main()
