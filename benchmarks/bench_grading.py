"""How fast the grader grades: throughput, harness overhead, and the runtime ban monitor's cost.

On N generated hw7_iteration submissions (benchmarks/gen_submissions.py) it prints:
  * submissions graded per second by run_batch with the default jobs (the CLI's default,
    one per core), sandboxed as `grader grade` would;
  * the bare cost of a submission: importing it and calling every case in-process, in one
    loop, with no sandbox, no judge and no store (the floor any grader pays);
  * the harness overhead per submission: serial (jobs=1) grading time minus that bare cost,
    and the static ban scan's share of it;
  * the runtime ban monitor's overhead: serial grading with the monitor on minus off.
Figures only; nothing is asserted about time.
Run: python benchmarks/bench_grading.py [--n 200] [--serial-n 50] [--jobs N]
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import io
import os
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "specs" / "hw7_iteration.yaml"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_submissions import generate  # noqa: E402

from grader.batch import BatchOptions, run_batch  # noqa: E402
from grader.plan import Plan, make_plan  # noqa: E402
from grader.spec.loader import load_spec  # noqa: E402
from grader.spec.model import Spec  # noqa: E402
from grader.submissions import Submission, discover  # noqa: E402


def bare_seconds(plan: Plan, submissions: Sequence[Submission], *, clock: Any = time.perf_counter) -> list[float]:
    """Per submission: import it and call every case in this process, nothing else
    (``clock``: wall time by default; ``time.thread_time`` gives the CPU time)."""
    times = []
    for sub in submissions:
        if sub.problems or sub.main is None:
            times.append(0.0)
            continue
        calls = [(fn.accepted_names, [copy.deepcopy(p.case.args) for p in plan.for_function(fn.name)]) for fn in plan.spec.functions]
        source = sub.files[sub.main]
        sink = io.StringIO()
        start = clock()
        with contextlib.redirect_stdout(sink):
            module = types.ModuleType("student")
            try:
                exec(compile(source, sub.main, "exec"), module.__dict__)
            except BaseException:
                pass
            for names, arg_lists in calls:
                fn = next((getattr(module, n) for n in names if callable(getattr(module, n, None))), None)
                if fn is None:
                    continue
                for args in arg_lists:
                    try:
                        fn(*args)
                    except Exception:
                        pass
        times.append(clock() - start)
    return times


def static_seconds(spec: Spec, submissions: Sequence[Submission]) -> float:
    """Total time of the static ban scan over the submissions (part of the harness overhead)."""
    from grader.static.banscan import static_violations

    start = time.perf_counter()
    for sub in submissions:
        if not sub.problems:
            try:
                static_violations(spec, sub.lang, sub.source(), sub.main or "")
            except Exception:
                pass
    return time.perf_counter() - start


def without_runtime_watch(spec: Spec) -> Spec:
    """The same spec with the runtime ban monitor off (static bans unchanged)."""
    functions = tuple(dataclasses.replace(fn, bans=dataclasses.replace(fn.bans, runtime=False)) for fn in spec.functions)
    return dataclasses.replace(spec, functions=functions, bans=dataclasses.replace(spec.bans, runtime=False))


def grade(spec: Spec, submissions: Sequence[Submission], out: Path, jobs: int, profile: Any) -> tuple[float, Any]:
    outcome = run_batch(spec, submissions, BatchOptions(out_dir=out, jobs=jobs, regrade=True, profile=profile))
    return outcome.elapsed_s, outcome


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="submissions to generate and grade (default 200)")
    parser.add_argument("--serial-n", type=int, default=50, help="submissions graded with jobs=1 for the overheads (default 50)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="jobs for the throughput run (default: cores, as the CLI)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    from grader.run.sandbox import probe

    profile = probe()
    spec = load_spec(SPEC)
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        work = Path(tmp)
        generate(work / "subs", args.n, args.seed)
        submissions = discover([work / "subs"], spec.submission_files)
        serial = submissions[: args.serial_n]
        t0 = time.perf_counter()
        plan = make_plan(spec)
        plan_s = time.perf_counter() - t0
        n_cases = sum(len(plan.for_function(fn.name)) for fn in spec.functions)

        bare = bare_seconds(plan, submissions)
        bare_serial = sum(bare[: len(serial)]) / len(serial)
        static_serial = static_seconds(spec, serial) / len(serial)

        elapsed, outcome = grade(spec, submissions, work / "out", args.jobs, profile)
        serial_on, _ = grade(spec, serial, work / "out_serial_on", 1, profile)
        serial_off, _ = grade(without_runtime_watch(spec), serial, work / "out_serial_off", 1, profile)

    statuses: dict[str, int] = {}
    for r in outcome.results:
        for t in r.tests:
            statuses[t.status] = statuses.get(t.status, 0) + 1
    per_on, per_off = serial_on / len(serial), serial_off / len(serial)
    print(f"hw7_iteration: {len(submissions)} submissions x {n_cases} cases; isolation {profile.name}; {os.cpu_count()} cores")
    print(f"  plan (reference run once, in the parent):   {plan_s:.2f} s")
    print(f"  throughput, jobs={args.jobs}:                     {len(submissions) / elapsed:.1f} submissions/s ({elapsed:.1f} s for {len(submissions)})")
    print(f"  bare cost (import + every call, in-process): mean {ms(statistics.mean(bare))}, median {ms(statistics.median(bare))} per submission")
    print(f"  serial grading (jobs=1, first {len(serial)}):      {ms(per_on)} per submission")
    print(f"  harness overhead over bare:                  {ms(per_on - bare_serial)} per submission (static ban scan {ms(static_serial)} of it)")
    print(f"  runtime ban monitor: on {ms(per_on)}, off {ms(per_off)}: overhead {ms(per_on - per_off)} per submission ({(per_on / per_off - 1) * 100:+.0f}%)")
    print("  case verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))


if __name__ == "__main__":
    main()
