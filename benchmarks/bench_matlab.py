"""How long a correct MATLAB hw7 submission takes to grade: all seven functions, every case.

Grades the corpus's correct submissions (one file per function, and all in one file) with
the real pipeline in the bubblewrap sandbox, as `grader grade` does once its plan is made:
static ban scan, one Octave started for the submission, 194 calls, judging. Prints, per run,
the wall-clock time, the CPU time Octave spent in the student's calls (measured from
outside), the start-up share, all the CPU time grading it took (the grader, the sandbox
and Octave: about the wall-clock time on an idle machine) and the load average (a shared
machine's load stretches wall-clock time, never the CPU figures). Nothing is asserted.
Run: python benchmarks/bench_matlab.py [--repeat 3]
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

from grader.batch import grader_factory  # noqa: E402
from grader.languages.matlab_files import layout  # noqa: E402
from grader.languages import matlab_session  # noqa: E402
from grader.languages.matlab_session import OctaveSession  # noqa: E402
from grader.run.sandbox import probe  # noqa: E402
from grader.spec.loader import load_spec  # noqa: E402
from grader.submissions import from_folder  # noqa: E402

SPEC = ROOT / "specs" / "hw7_iteration.yaml"
CORPUS = ROOT / "submissions" / "hw7_iteration_matlab"
STUDENTS = ("correct_loops", "correct_single_file")


def start_up_seconds(folder: Path) -> float:
    """Starting Octave in the sandbox and parsing the submission's functions, alone."""
    files = {p.name: p.read_bytes() for p in folder.glob("*.m")}
    lay = layout(files)
    started = time.perf_counter()
    with OctaveSession(lay.files, sorted(lay.callable), ["sum", "cumsum", "mean"]):
        return time.perf_counter() - started


def count_octave_cpu(spent: list[float]) -> None:
    """Add each Octave's whole CPU time (start-up, loading, calls; read from /proc) to ``spent`` as it stops."""
    kill = OctaveSession._kill

    def counted(self: OctaveSession) -> int | None:
        if self._program is not None:
            spent.append(matlab_session.tree_cpu(self._program.pid))
        return kill(self)

    OctaveSession._kill = counted  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    spec = load_spec(SPEC)
    profile = probe()
    print(f"{profile.describe()}")
    octave_cpu: list[float] = []
    count_octave_cpu(octave_cpu)
    grader, close = grader_factory(spec, profile=profile)(0)
    try:
        for student in STUDENTS:
            submission = from_folder(CORPUS / student, spec.submission_files, languages=spec.languages)
            walls, cpus, costs, octaves = [], [], [], []
            for _ in range(args.repeat):
                started, own = time.perf_counter(), time.process_time()
                octave_cpu.clear()
                result = grader.grade(submission)
                walls.append(time.perf_counter() - started)
                cpus.append(sum(t.time_s for t in result.tests))
                costs.append(time.process_time() - own + sum(octave_cpu))
                octaves.append(sum(octave_cpu))
                assert result.score == 60, f"{student} scored {result.score}"
            cases = len(result.tests)
            boot = start_up_seconds(CORPUS / student)
            load = os.getloadavg()[0]
            print(f"{student}: {cases} cases, score {result.score}/50+10; graded in median {statistics.median(walls):.2f} s "
                  f"(best {min(walls):.2f} s) wall-clock, of which Octave start-up {boot:.2f} s; "
                  f"CPU in the student's calls {statistics.median(cpus):.2f} s; all CPU spent grading it "
                  f"{statistics.median(costs):.2f} s (Octave {statistics.median(octaves):.2f} s, the grader the rest); load average {load:.1f} on {os.cpu_count()} cores")
    finally:
        close()


if __name__ == "__main__":
    main()
