"""A class with one student whose every function loops forever: how long it takes to grade.

The hw7 class of the issue: three correct students and one whose seven functions all loop
forever, under the spec's 2 s limits, graded by `grader grade` as an instructor would.
Prints the wall time with the consecutive-timeout rule (the spec's default) and, with
--without, also without it (stop_after_timeouts: 0: every case runs to its timeout, minutes),
and how many of the looping student's cases ran. Figures only.
Run: python benchmarks/bench_timeouts.py [--without]
"""
from __future__ import annotations

import json
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


def looping_student() -> str:
    return "".join(f"def {name}(*args):\n    while True:\n        pass\n\n" for name in FUNCTIONS)


def make_class(folder: Path) -> None:
    folder.mkdir()
    for i, name in enumerate(("correct_loops", "correct_tidy", "correct_loops")):
        shutil.copy(ROOT / "submissions" / "hw7_iteration" / f"{name}.py", folder / f"student{i + 1}.py")
    (folder / "loops_everywhere.py").write_text(looping_student())


def grade(spec: Path, klass: Path, out: Path) -> tuple[float, int, int]:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "grader", "grade", str(spec), str(klass), "--out", str(out)],
                   check=True, capture_output=True)
    wall = time.perf_counter() - started
    tests = json.loads((out / "loops_everywhere.json").read_text())["tests"]
    skipped = sum(t["message"].startswith("not run:") for t in tests)
    return wall, len(tests) - skipped, skipped


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_class(root / "class")
        off = root / "hw7_no_stop.yaml"
        text = SPEC.read_text().replace("../../shared/", str(ROOT.parent / "shared") + "/")
        text = re.sub(r"^defaults:\n", "defaults:\n  stop_after_timeouts: 0\n", text, count=1, flags=re.M)
        off.write_text(text.replace("../reference/", str(ROOT / "reference") + "/"))
        runs = [("with the rule (default 2)", SPEC)] + [("without it (0)", off)] * ("--without" in sys.argv)
        for label, spec in runs:
            wall, ran, skipped = grade(spec, root / "class", root / f"out-{spec.stem}")
            print(f"{label:28s} {wall:6.1f} s wall; looping student: {ran} cases run, {skipped} skipped")


if __name__ == "__main__":
    main()
