"""The grader against the way most courses grade today, on the same generated hw7 submissions.

Three ways to grade N submissions (benchmarks/gen_submissions.py), timed in one run:
  grader    `grader grade SPEC SUBS --regrade` with its defaults (sandboxed, one job per
            core, JSON and CSV reports), run in-process through grader.cli.main;
  pytest    a pytest file for the assignment (one parametrised test per function over the
            same cases, expected values pinned from the reference), run in a fresh
            `python -m pytest` process per submission, with a JUnit XML per submission;
  unittest  a Gradescope-style runner: a fresh python process per submission running
            unittest test cases and writing a results.json (as gradescope_utils'
            JSONTestRunner does).
The two baselines get the same concurrency as the grader (--jobs, default: the cores)
and do less work: no sandbox, no time limits, no ban checks.

Printed per method: wall time, the ratio to the grader, the cost per submission (wall x
jobs / N) and its overhead over the bare cost of the student's calls (importing the
module and calling every case in-process, no harness), peak memory of the coordinating
process (ru_maxrss; tracemalloc's peak in a separate untimed pass, since tracemalloc slows
the process it watches) and of its largest child (RUSAGE_CHILDREN),
and whether it agrees with the grader on how many cases each submission passes.
Each method runs in its own child process of this script, so memory figures do not mix.
Run: python benchmarks/bench_vs_pytest.py [--n 200 | --quick] [--jobs N]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
SPEC = ROOT / "specs" / "hw7_iteration.yaml"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

METHODS = ("grader", "pytest", "unittest")
TRACED_N = 20  # submissions in the untimed tracemalloc pass

# --------------------------------------------------------------------------- the baselines' files

CONFTEST_FREE_TEST = '''"""pytest tests for hw7_iteration: the submission to test is $SUBMISSION."""
import copy
import importlib.util
import os

import pytest

from hw7_cases import CASES


def _plain(value):
    """Tuples as lists, so a student's list of two outputs equals the reference's tuple."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@pytest.fixture(scope="module")
def student():
    spec = importlib.util.spec_from_file_location("submission", os.environ["SUBMISSION"])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _function(student, names):
    for name in names:
        if callable(getattr(student, name, None)):
            return getattr(student, name)
    pytest.fail(f"{names[0]} is not defined")

'''

PYTEST_FUNCTION = '''
@pytest.mark.parametrize("args, expected", [c[1:] for c in CASES[{name!r}]], ids=[c[0] for c in CASES[{name!r}]])
def test_{name}(student, args, expected):
    fn = _function(student, {names!r})
    assert _plain(fn(*copy.deepcopy(args))) == _plain(expected)
'''

UNITTEST_RUNNER = '''"""Gradescope-style autograder: python run_tests.py SUBMISSION RESULTS_JSON."""
import copy
import importlib.util
import json
import sys
import time
import unittest

from hw7_cases import CASES, NAMES, WEIGHTS

SUBMISSION, RESULTS = sys.argv[1], sys.argv[2]


def plain(value):
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def load():
    spec = importlib.util.spec_from_file_location("submission", SUBMISSION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestHW7(unittest.TestCase):
    student = None

    @classmethod
    def setUpClass(cls):
        cls.student = load()


def make_test(function, args, expected):
    def test(self):
        fn = next((getattr(self.student, n) for n in NAMES[function] if callable(getattr(self.student, n, None))), None)
        self.assertIsNotNone(fn, f"{function} is not defined")
        self.assertEqual(plain(fn(*copy.deepcopy(args))), plain(expected))
    test.__weight__ = WEIGHTS[function]
    return test


for function, cases in CASES.items():
    for name, args, expected in cases:
        setattr(TestHW7, f"test_{function}_{name}", make_test(function, args, expected))


class JSONResult(unittest.TextTestResult):
    """What gradescope_utils' JSONTestRunner does: one entry per test with its weight."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.entries = []

    def _entry(self, test, passed, output=""):
        weight = getattr(getattr(test, test._testMethodName), "__weight__", 1)
        self.entries.append({"name": test._testMethodName, "score": weight if passed else 0, "max_score": weight, "output": output})

    def addSuccess(self, test):
        super().addSuccess(test)
        self._entry(test, True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._entry(test, False, self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        if hasattr(test, "_testMethodName"):
            self._entry(test, False, self._exc_info_to_string(err, test))


start = time.time()
with open("/dev/null", "w") as sink:
    runner = unittest.TextTestRunner(stream=sink, resultclass=JSONResult, verbosity=0)
    result = runner.run(unittest.defaultTestLoader.loadTestsFromTestCase(TestHW7))
entries = result.entries
if not entries:  # setUpClass failed: every test is an error
    entries = [{"name": n, "score": 0, "max_score": 1, "output": "the submission could not be imported"} for n in dir(TestHW7) if n.startswith("test_")]
with open(RESULTS, "w") as out:
    json.dump({"score": sum(e["score"] for e in entries), "execution_time": time.time() - start, "tests": entries}, out)
'''


def write_baselines(folder: Path, plan: Any) -> None:
    """The pinned cases module, the pytest file and the unittest runner, all from the plan."""
    folder.mkdir(parents=True, exist_ok=True)
    spec = plan.spec
    cases = {fn.name: [(p.case.name, list(p.case.args), p.expected) for p in plan.for_function(fn.name)] for fn in spec.functions}
    names = {fn.name: list(fn.accepted_names) for fn in spec.functions}
    weights = {fn.name: fn.points / max(1, len(cases[fn.name])) for fn in spec.functions}
    (folder / "hw7_cases.py").write_text(f"CASES = {cases!r}\nNAMES = {names!r}\nWEIGHTS = {weights!r}\n", encoding="utf-8")
    test = CONFTEST_FREE_TEST + "".join(PYTEST_FUNCTION.format(name=fn.name, names=tuple(fn.accepted_names)) for fn in spec.functions)
    (folder / "test_hw7.py").write_text(test, encoding="utf-8")
    (folder / "run_tests.py").write_text(UNITTEST_RUNNER, encoding="utf-8")


# --------------------------------------------------------------------------- one method, in a child

def each_submission(subs: Path, jobs: int, run_one: Callable[[Path], int]) -> dict[str, int]:
    """Run ``run_one`` on every submission folder, ``jobs`` at a time; id -> cases passed."""
    folders = sorted(p for p in subs.iterdir() if p.is_dir())
    with ThreadPoolExecutor(jobs) as pool:
        return dict(zip((f.name for f in folders), pool.map(run_one, folders)))


SANDBOX_CPU = [0.0]   # the grader's sandboxes' CPU seconds, read from each slot's meter as it closes


def count_sandbox_cpu() -> None:
    """Add each sandbox's CPU time (its cgroup, or its /proc tree) to SANDBOX_CPU when it closes.

    A sandbox's processes are killed, not waited for up the chain, so getrusage's children
    figure never sees them: without this the grader's CPU would be its parent's alone.
    Sandboxes in worker processes (grader.pool) report their meters to the pool, read
    here when it closes; the workers themselves are waited for, so rusage counts them."""
    from grader.pool import WorkerPool
    from grader.run.sandbox import Sandbox

    close = Sandbox.close

    def counted(self: Sandbox) -> None:
        if self.meter is not None:
            SANDBOX_CPU[0] += self.meter.cpu_seconds()
        close(self)

    Sandbox.close = counted  # type: ignore[method-assign]
    close_pool = WorkerPool.close

    def pool_counted(self: WorkerPool, *, now: bool = False) -> None:
        close_pool(self, now=now)
        SANDBOX_CPU[0] += self.sandbox_cpu_s

    WorkerPool.close = pool_counted  # type: ignore[method-assign]


def run_grader(subs: Path, work: Path, jobs: int) -> dict[str, int]:
    from grader.cli import main as grader_main

    code = grader_main(["grade", str(SPEC), str(subs), "--out", str(work / "grader_out"), "--regrade", "--jobs", str(jobs)])
    if code != 0:
        raise SystemExit(f"grader grade exited with {code}")
    return {}   # read from the store after the clock stops (grader_passed)


def grader_passed(work: Path) -> dict[str, int]:
    """Cases passed per submission, from the grader's store (reading it back is not grading)."""
    from grader.store import Store

    with Store(work / "grader_out") as store:
        return {r.submission: sum(t.status == "passed" for t in r.tests) for r in store.all("hw7_iteration")}


def run_pytest(subs: Path, work: Path, jobs: int) -> dict[str, int]:
    harness, out = work / "baselines", work / "pytest_out"
    out.mkdir(exist_ok=True)

    def one(folder: Path) -> int:
        xml = out / f"{folder.name}.xml"
        env = {**os.environ, "SUBMISSION": str(folder / "hw7_iteration.py"), "PYTHONDONTWRITEBYTECODE": "1"}
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_hw7.py", f"--junitxml={xml}"],
                       cwd=harness, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        suite = ET.parse(xml).getroot()
        suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
        return int(suite.get("tests", 0)) - int(suite.get("failures", 0)) - int(suite.get("errors", 0)) - int(suite.get("skipped", 0))

    return each_submission(subs, jobs, one)


def run_unittest(subs: Path, work: Path, jobs: int) -> dict[str, int]:
    harness, out = work / "baselines", work / "unittest_out"
    out.mkdir(exist_ok=True)

    def one(folder: Path) -> int:
        results = out / f"{folder.name}.json"
        subprocess.run([sys.executable, "run_tests.py", str(folder / "hw7_iteration.py"), str(results)],
                       cwd=harness, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return sum(1 for t in json.loads(results.read_text())["tests"] if t["score"] > 0)

    return each_submission(subs, jobs, one)


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def child(method: str, subs: Path, work: Path, jobs: int, trace: bool, profile: bool) -> None:
    """Run one method and print its figures as JSON on the last line.

    tracemalloc slows every allocation of this process, so it runs only in a separate,
    untimed pass (``trace``) that measures the coordinating process's Python peak; the
    stage profile (``profile``) likewise wraps the grader's functions in a pass of its own.
    CPU time counts this process and every process it waited for (the sandboxes' included).
    """
    stages = None
    if profile:
        import grader.cli  # noqa: F401  (the stages' modules, imported before they are wrapped)
        import grader.intake.gather  # noqa: F401
        import grader.pipeline  # noqa: F401
        import grader.reports  # noqa: F401
        import grader.session  # noqa: F401
        import grader.spec.checks  # noqa: F401
        import grader.pool
        from stage_profile import profile_stages

        # The stages are wrapped in this process: grade in its threads, not in worker processes.
        grader.pool.available = lambda: False  # type: ignore[assignment]
        stages = profile_stages()
    if method == "grader":
        count_sandbox_cpu()
    if trace:
        tracemalloc.start()
    start = time.perf_counter()
    passed = {"grader": run_grader, "pytest": run_pytest, "unittest": run_unittest}[method](subs, work, jobs)
    elapsed = time.perf_counter() - start
    cpu = _cpu(resource.RUSAGE_SELF) + _cpu(resource.RUSAGE_CHILDREN) + SANDBOX_CPU[0]
    if method == "grader":
        passed = grader_passed(work)
    n = len(passed)
    print(json.dumps({
        "elapsed": elapsed,
        "passed": passed,
        "cpu": cpu,
        "tracemalloc_peak": tracemalloc.get_traced_memory()[1] if trace else None,
        "self_maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "children_maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        "profile": stages.table(n) if stages is not None else None,
    }))


# --------------------------------------------------------------------------- the comparison

def measure(method: str, subs: Path, work: Path, jobs: int, *, trace: bool = False, profile: bool = False) -> dict[str, Any]:
    argv = [sys.executable, __file__, "--child", method, "--subs", str(subs), "--work", str(work), "--jobs", str(jobs)]
    argv += (["--trace"] if trace else []) + (["--profile"] if profile else [])
    # A cache folder of its own, empty: the grader's run pays for generating cases and checking
    # the spec as on a machine that never saw it (a `grader validate` first would warm it).
    cache = work / f"cache-{method}-{int(trace)}{int(profile)}"
    proc = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "XDG_CACHE_HOME": str(cache)})
    if proc.returncode != 0:
        raise SystemExit(f"{method} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="submissions (default 200)")
    parser.add_argument("--quick", action="store_true", help="a smoke run on 20 submissions")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="concurrency for every method (default: cores)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--child", choices=METHODS, help=argparse.SUPPRESS)
    parser.add_argument("--subs", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-profile", action="store_true", help="skip the grader's stage profile (a fourth, untimed pass)")
    parser.add_argument("--skip", choices=("pytest",), action="append", default=[],
                        help="leave a baseline out (pytest takes ten times the others)")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.subs, args.work, args.jobs, args.trace, args.profile)
        return

    from bench_grading import bare_seconds
    from gen_submissions import generate

    from grader.plan import make_plan
    from grader.spec.loader import load_spec
    from grader.submissions import discover

    n = 20 if args.quick else args.n
    spec = load_spec(SPEC)
    with tempfile.TemporaryDirectory(prefix="bench-vs-pytest-") as tmp:
        work = Path(tmp)
        manifest = {e["id"]: e["kind"] for e in generate(work / "subs", n, args.seed)}
        traced_n = min(n, 5 if args.quick else TRACED_N)
        generate(work / "traced", traced_n, args.seed)
        plan = make_plan(spec)
        write_baselines(work / "baselines", plan)
        found = discover([work / "subs"], spec.submission_files)
        bare = bare_seconds(plan, found)
        bare_cpu = statistics.mean(bare_seconds(plan, found, clock=time.thread_time))
        load_before = os.getloadavg()
        methods = [m for m in METHODS if m not in args.skip]
        figures = {m: measure(m, work / "subs", work, args.jobs) for m in methods}
        load_after = os.getloadavg()
        for m in methods:
            figures[m]["tracemalloc_peak"] = measure(m, work / "traced", work, args.jobs, trace=True)["tracemalloc_peak"]
        profile = None if args.no_profile else measure("grader", work / "subs", work, args.jobs, profile=True)

    bare_mean = statistics.mean(bare)
    base = figures["grader"]["elapsed"]
    n_cases = sum(len(plan.for_function(fn.name)) for fn in spec.functions)
    print(f"{n} hw7_iteration submissions x {n_cases} cases, {args.jobs} at a time on {os.cpu_count()} cores; "
          f"bare cost of the student's calls {bare_mean * 1000:.1f} ms wall, {bare_cpu * 1000:.1f} ms CPU per submission "
          "(in-process, no harness)")
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after the timed runs "
          "(wall figures assume the cores are free; CPU figures are disturbed less by other work)")
    print(f"{'method':<9} {'wall':>8} {'vs grader':>10} {'per sub':>9} {'overhead':>9} {'cpu/sub':>8} {'cpu over':>9} "
          f"{'parent rss':>11} {'parent py':>10} {'child rss':>10} {'agrees':>8}")
    comparable = [s for s, kind in manifest.items() if kind != "banned"]  # the baselines do not check bans
    for method in methods:
        f = figures[method]
        per_sub = f["elapsed"] * args.jobs / n
        cpu_sub = f["cpu"] / n
        agree = sum(f["passed"].get(s) == figures["grader"]["passed"].get(s) for s in comparable)
        print(f"{method:<9} {f['elapsed']:>7.2f}s {f['elapsed'] / base:>9.1f}x {per_sub * 1000:>7.0f}ms {(per_sub - bare_mean) * 1000:>7.0f}ms "
              f"{cpu_sub * 1000:>6.0f}ms {(cpu_sub - bare_cpu) * 1000:>7.0f}ms "
              f"{f['self_maxrss_kb'] / 1024:>9.0f}MB {f['tracemalloc_peak'] / 2**20:>8.1f}MB {f['children_maxrss_kb'] / 1024:>8.0f}MB {agree:>4}/{len(comparable)}")
    print(f"(per sub = wall x jobs / submissions; overhead = per sub - bare wall; cpu/sub = CPU of the method's processes per "
          f"submission (the grader's sandboxes counted from their cgroups); cpu over = cpu/sub - bare CPU; parent py = tracemalloc peak, separate untimed pass over {traced_n} submissions)")
    overhead = (base * args.jobs / n - bare_mean) * 1000
    agree_all = all(figures[m]["passed"].get(s) == figures["grader"]["passed"].get(s) for m in methods for s in comparable)

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    for method, target in (("unittest", 3), ("pytest", 20)):
        if method in figures:
            ratio, cpu_ratio = figures[method]["elapsed"] / base, figures[method]["cpu"] / figures["grader"]["cpu"]
            print(f"grader vs {method}-per-submission: {ratio:.2f}x faster by wall, {cpu_ratio:.2f}x by CPU "
                  f"(target >= {target}x: {verdict(ratio >= target)})")
    print(f"harness overhead: {overhead:.1f} ms per submission by wall, {(figures['grader']['cpu'] / n - bare_cpu) * 1000:.1f} ms by CPU "
          f"(target <= 10 ms: {verdict(overhead <= 10)}); every verdict agrees: {verdict(agree_all)}")
    if profile is not None:
        print(f"where the grader's time goes (a separate pass, stages wrapped; ms per submission; load average {os.getloadavg()[0]:.2f}):")
        print("\n".join(profile["profile"]))

if __name__ == "__main__":
    main()
