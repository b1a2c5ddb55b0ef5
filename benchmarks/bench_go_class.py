"""A COMP10001-Go class with one student who loops forever and one who is exponentially slow.

Issue #17's target: the class's total time within 1.5x of the time the honest students
alone take plus the limits the slow ones consume. Measured side by side in one run, both
with `grader grade --jobs 2` as an instructor would:

- the honest students alone: the Go corpus (submissions/comp10001go) without its two slow ones;
- the class: the same students, plus `loops_everywhere` (every function `while True: pass`)
  and `slow_brute_force` from the corpus (best_partitions tries every set partition of the
  hand, Bell(n) of them, re-scoring each: fast on small hands, seconds on 10 cards).

The limits the slow ones consume are the time limits of their cases that ran and timed out,
read from the staff JSON (each timeout's message names its limit, calibrated to this machine).
Note the spec's `play` and `best_partitions` opt out of the consecutive-timeout rule
(`stop_after_timeouts: 0`): the looping student times out on every one of their cases.
Prints wall and CPU (the grader's and the students' calls', kernel-measured) with the load
average; the ratio = class wall / (honest wall + limits consumed), target <= 1.5, and the
same ratio in CPU seconds, which a loaded machine does not stretch.
Run: python benchmarks/bench_go_class.py
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "specs" / "comp10001go.yaml"
CORPUS = ROOT / "submissions" / "comp10001go"
FUNCTIONS = ("comp10001huxxy_valid_table", "comp10001go_valid_groups", "comp10001go_play",
             "comp10001go_group", "comp10001go_best_partitions")
LOOPER, EXPONENTIAL = "loops_everywhere", "slow_brute_force"
SLOW_IN_CORPUS = (EXPONENTIAL, "loops_forever_first_turn")   # left out of the honest students
TARGET = 1.5


def looping_student() -> str:
    return "".join(f"def {name}(*args):\n    while True:\n        pass\n\n" for name in FUNCTIONS)


def make_classes(root: Path) -> tuple[Path, Path]:
    honest, klass = root / "honest", root / "class"
    honest.mkdir()
    for path in sorted(CORPUS.glob("*.py")):
        if path.stem not in SLOW_IN_CORPUS:
            shutil.copy(path, honest / path.name)
    shutil.copytree(honest, klass)
    shutil.copy(CORPUS / f"{EXPONENTIAL}.py", klass / f"{EXPONENTIAL}.py")
    (klass / f"{LOOPER}.py").write_text(looping_student())
    return honest, klass


def children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def staff(out: Path) -> dict[str, dict]:
    return {f.stem: json.loads(f.read_text()) for f in (out / "staff").glob("*.json")}


def grade(klass: Path, out: Path) -> tuple[float, float, dict[str, dict]]:
    """Wall seconds, the grader's CPU seconds and the staff verdicts of `grader grade`."""
    cpu0, started = children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader", "grade", str(SPEC), str(klass), "--out", str(out), "--jobs", "2"],
                   check=True, capture_output=True)
    return time.perf_counter() - started, children_cpu() - cpu0, staff(out)


def timeouts(verdict: dict) -> tuple[int, float]:
    """How many cases ran and timed out, and the sum of their limits."""
    limits = [float(m.group(1)) for t in verdict["tests"] if t["status"] == "timeout"
              and not t["message"].startswith("not run:")
              and (m := re.search(r"within the ([\d.]+) s time limit", t["message"]))]
    return len(limits), sum(limits)


def calls_cpu(verdicts: dict[str, dict]) -> float:
    return sum(t["time_s"] for v in verdicts.values() for t in v["tests"])


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        honest, klass = make_classes(Path(tmp))
        n = len(list(honest.glob("*.py")))
        h_wall, h_cpu, h_staff = grade(honest, Path(tmp) / "out-honest")
        print(f"{n} honest students alone:  {h_wall:6.1f} s wall; CPU {h_cpu:.1f} s grader + "
              f"{calls_cpu(h_staff):.1f} s students' calls; {load()}")
        c_wall, c_cpu, c_staff = grade(klass, Path(tmp) / "out-class")
        print(f"the class ({n} + 2 slow):   {c_wall:6.1f} s wall; CPU {c_cpu:.1f} s grader + "
              f"{calls_cpu(c_staff):.1f} s students' calls; {load()}")
        consumed = 0.0
        for name in (LOOPER, EXPONENTIAL):
            count, limits = timeouts(c_staff[name])
            consumed += limits
            ran = sum(not t["message"].startswith("not run:") for t in c_staff[name]["tests"])
            print(f"  {name:18s} {count} timeouts of {ran} cases run: {limits:.1f} s of limits; "
                  f"{calls_cpu({name: c_staff[name]}):.1f} s CPU in its calls; graded in {c_staff[name]['duration_s']:.1f} s wall")
        honest_done = max(v["duration_s"] for k, v in c_staff.items() if k not in (LOOPER, EXPONENTIAL))
        print(f"  slowest honest student in the class: {honest_done:.1f} s wall (alone: "
              f"{max(v['duration_s'] for v in h_staff.values()):.1f} s)")
        ratio = c_wall / (h_wall + consumed)
        print(f"ratio (wall): {c_wall:.1f} / ({h_wall:.1f} + {consumed:.1f}) = {ratio:.2f}; target <= {TARGET}: "
              f"{'met' if ratio <= TARGET else 'NOT met'}")
        # CPU seconds do not stretch with the machine's load as wall seconds do: what the class
        # cost beyond the honest students and the slow ones' limits, whatever the load
        c_all, h_all = c_cpu + calls_cpu(c_staff), h_cpu + calls_cpu(h_staff)
        print(f"ratio (CPU):  {c_all:.1f} / ({h_all:.1f} + {consumed:.1f}) = {c_all / (h_all + consumed):.2f} "
              f"(the grader's CPU and the students' calls')")


if __name__ == "__main__":
    main()
