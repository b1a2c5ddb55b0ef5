"""A class with one student whose every function loops forever: how long it takes to grade.

The hw7 class of issue #16: three correct students and one whose seven functions all loop
forever, under the spec's 2 s limits (x the calibration factor), graded by `grader grade`
as an instructor would, 2 jobs. Prints, side by side in one run: the three correct
students alone, the whole class with the consecutive-timeout rule (the spec's default) and,
with --without, without it (stop_after_timeouts: 0: every case runs to its timeout, minutes).
With each: wall and CPU time (grader and sandboxes), how many of the looping student's cases
ran (counted in the staff JSON: the student's own shows hidden cases by status only), the CPU
its timeouts used and the floor the rule allows (cases run x limit), and the load average.
Figures only; the target is < 20 s wall for the class on an idle machine.
Run: python benchmarks/bench_timeouts.py [--without]
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
SPEC = ROOT / "specs" / "hw7_iteration.yaml"
FUNCTIONS = ("scrabbleScore", "war", "blackJack", "goFish", "wordSearch", "wordSearchHard", "blackJackHard")
LOOPER = "loops_everywhere"
TARGET_S = 20.0


def looping_student() -> str:
    return "".join(f"def {name}(*args):\n    while True:\n        pass\n\n" for name in FUNCTIONS)


def make_class(folder: Path, looper: bool = True) -> None:
    folder.mkdir()
    for i, name in enumerate(("correct_loops", "correct_tidy", "correct_loops")):
        shutil.copy(ROOT / "submissions" / "hw7_iteration" / f"{name}.py", folder / f"student{i + 1}.py")
    if looper:
        (folder / f"{LOOPER}.py").write_text(looping_student())


def children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def calls_cpu(out: Path) -> float:
    """The CPU time of every student call, as the kernel counted it per call (the staff JSON)."""
    return sum(t["time_s"] for f in (out / "staff").glob("*.json") for t in json.loads(f.read_text())["tests"])


def grade(spec: Path, klass: Path, out: Path) -> tuple[str, float]:
    """Run `grader grade` on the class: its wall time and CPU time (the grader's, the calls')."""
    cpu0, started = children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader", "grade", str(spec), str(klass), "--out", str(out), "--jobs", "2"],
                   check=True, capture_output=True)
    wall, cpu = time.perf_counter() - started, children_cpu() - cpu0
    return f"{wall:6.1f} s wall; CPU {cpu:.1f} s grader + {calls_cpu(out):.1f} s students' calls; {load()}", wall


def looper_figures(out: Path) -> str:
    staff = json.loads((out / "staff" / f"{LOOPER}.json").read_text())
    ran = [t for t in staff["tests"] if not t["message"].startswith("not run:")]
    limits = [float(m.group(1)) for t in ran if (m := re.search(r"within the ([\d.]+) s time limit", t["message"]))]
    return (f"looping student: {len(ran)} of {len(staff['tests'])} cases run, {sum(t['time_s'] for t in ran):.1f} s CPU "
            f"in them (floor: {len(ran)} x {max(limits, default=0):.2f} s = {sum(limits):.1f} s), "
            f"{staff['duration_s']:.1f} s wall")


def load() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_class(root / "honest", looper=False)
        make_class(root / "class")
        off = root / "hw7_no_stop.yaml"
        text = SPEC.read_text().replace("../../shared/", str(ROOT.parent / "shared") + "/")
        text = re.sub(r"^defaults:\n", "defaults:\n  stop_after_timeouts: 0\n", text, count=1, flags=re.M)
        off.write_text(text.replace("../reference/", str(ROOT / "reference") + "/"))
        print(f"{'the 3 correct students alone':34s}", end=" ", flush=True)
        print(grade(SPEC, root / "honest", root / "out-honest")[0])
        runs = [("class, with the rule (default 2)", SPEC)] + [("class, without it (0)", off)] * ("--without" in sys.argv)
        for label, spec in runs:
            print(f"{label:34s}", end=" ", flush=True)
            out = root / f"out-{spec.stem}"
            figures, wall = grade(spec, root / "class", out)
            verdict = f"target < {TARGET_S:g} s: {'met' if wall < TARGET_S else 'NOT met'}"
            print(f"{figures}; {verdict}\n{'':34s} {looper_figures(out)}")


if __name__ == "__main__":
    main()
