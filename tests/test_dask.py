"""Distributed grading on Dask (issue 9): the same verdicts as local grading, worker deaths survived."""
from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

from grader.batch import BatchOptions, run_batch
from grader.errors import GraderError
from grader.executors import run as run_executor
from grader.spec.loader import load_spec
from grader.store import Store
from grader.submissions import discover

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "specs"
REFERENCE = (FIXTURES / "mini_ref.py").read_text(encoding="utf-8")
SLOW = "import time\ntime.sleep(0.4)\n"  # at import: keeps the workers busy while one is killed

VARIANTS = {
    "correct": REFERENCE,
    "alias": REFERENCE.replace("def add(", "def plus("),
    "wrong": REFERENCE.replace("return a + b", "return a - b"),
    "raises": REFERENCE.replace("return a // b, a % b", "return a / 0, a"),
    "banned": REFERENCE.replace("return a + b", "return sum([a, b])"),
    "loops": REFERENCE.replace("return a + b", "while a > 100000:\n        pass\n    return a + b"),
    "syntax": "def add(a, b)\n    return a + b\n",
    "missing": "def add(a, b):\n    return a + b\n",
}


def write_class(folder: Path, variants: dict[str, str], prefix: str = "") -> Path:
    for name, source in variants.items():
        (folder / name).mkdir(parents=True)
        (folder / name / "mini.py").write_text(prefix + source, encoding="utf-8")
    return folder


def verdicts(results) -> dict[str, tuple]:
    return {r.submission: (r.score, r.max_score, tuple((t.name, t.status, t.score) for t in r.tests)) for r in results}


@pytest.fixture(scope="module")
def profile():
    from grader.run.sandbox import probe

    return probe()


@pytest.fixture(scope="module")
def cluster():
    import distributed  # the test extra installs it: ./install.sh --test

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=40) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def spec():
    return load_spec(FIXTURES / "mini.yaml")


def test_dask_grades_like_local(tmp_path, cluster, spec, profile):
    subs = discover([write_class(tmp_path / "class", VARIANTS)], spec.submission_files)
    local = run_batch(spec, subs, BatchOptions(out_dir=tmp_path / "local", jobs=2, profile=profile))
    seen: list[str] = []
    remote = run_executor("dask", spec, subs, BatchOptions(out_dir=tmp_path / "dask", jobs=2, profile=profile),
                          scheduler=cluster.scheduler_address, on_result=lambda r, skipped: seen.append(r.submission))
    assert verdicts(remote.results) == verdicts(local.results)
    assert sorted(seen) == sorted(VARIANTS) and remote.graded == len(VARIANTS)
    by_id = {r.submission: r for r in remote.results}
    assert by_id["correct"].score >= by_id["correct"].max_score > 0  # extra credit on top
    assert {t.status for t in by_id["loops"].tests} >= {"timeout"}  # the sandbox stopped the loop
    assert (tmp_path / "dask" / Store.FILENAME).exists()
    with Store(tmp_path / "dask") as store:
        assert len(list(store.all(spec.assignment))) == len(VARIANTS)
    # A rerun reuses every stored verdict, as the local batch does.
    again = run_executor("dask", spec, subs, BatchOptions(out_dir=tmp_path / "dask", profile=profile), scheduler=cluster.scheduler_address)
    assert (again.graded, again.skipped) == (0, len(VARIANTS))


def test_a_killed_worker_loses_nothing_and_counts_nothing_twice(tmp_path, cluster, spec, profile):
    variants = {f"{name}_{i}": source for i in range(3) for name, source in VARIANTS.items() if name != "loops"}
    subs = discover([write_class(tmp_path / "class", variants, prefix=SLOW)], spec.submission_files)
    local = run_batch(spec, subs, BatchOptions(out_dir=tmp_path / "local", jobs=2, profile=profile))
    from distributed import Client

    with Client(cluster) as client:
        pids = list(client.run(os.getpid).values())
        killed = threading.Event()
        seen: list[str] = []

        def on_result(result, skipped):
            seen.append(result.submission)
            if len(seen) == 2 and not killed.is_set():  # both workers are busy with the next ones
                os.kill(pids[0], signal.SIGKILL)
                killed.set()

        remote = run_executor("dask", spec, subs, BatchOptions(out_dir=tmp_path / "dask", profile=profile),
                              scheduler=client, on_result=on_result)
    assert killed.is_set()
    assert sorted(seen) == sorted(variants)  # every submission reported, exactly once
    assert verdicts(remote.results) == verdicts(local.results)
    with Store(tmp_path / "dask") as store:
        assert len(list(store.all(spec.assignment))) == len(variants)


def test_without_dask_the_error_says_how_to_install(monkeypatch, tmp_path, spec):
    from grader.executors import dask_executor

    monkeypatch.setitem(sys.modules, "distributed", None)  # makes `import distributed` fail
    with pytest.raises(GraderError, match="needs Dask") as info:
        dask_executor.run_on_dask(spec, [], BatchOptions(out_dir=tmp_path), "tcp://127.0.0.1:1")
    assert "pip install" in info.value.hint


def test_the_executor_flags_are_checked(tmp_path, spec):
    with pytest.raises(GraderError, match="needs the address"):
        run_executor("dask", spec, [], BatchOptions(out_dir=tmp_path), scheduler=None)
    with pytest.raises(GraderError, match="only used with"):
        run_executor("local", spec, [], BatchOptions(out_dir=tmp_path), scheduler="tcp://x:1")


def test_an_unreachable_scheduler_is_a_user_error(tmp_path, spec):
    import distributed  # noqa: F401  (the test extra installs it)

    subs = discover([write_class(tmp_path / "class", {"correct": REFERENCE})], spec.submission_files)
    with pytest.raises(GraderError, match="cannot reach the Dask scheduler"):
        from grader.executors.dask_executor import run_on_dask

        run_on_dask(spec, subs, BatchOptions(out_dir=tmp_path / "out"), "tcp://127.0.0.1:9", connect_timeout=2)


def test_the_job_carries_results_not_the_reference(spec):
    import dataclasses
    import pickle

    from grader.executors.dask_executor import RemoteJob
    from grader.plan import make_plan
    from grader.spec.model import Compare

    plan = make_plan(spec)
    job = RemoteJob.from_plan(plan, BatchOptions(out_dir=Path(".")))
    shipped = pickle.dumps(job)
    assert job.reference_source is None and b"return a // b, a % b" not in shipped
    assert job.cases["add"][0].expected == 3 and job.plan().cases == plan.cases
    # A validator may call the reference, so only then does its source travel (to trusted workers).
    validating = dataclasses.replace(spec, functions=(dataclasses.replace(spec.functions[0], compare=Compare("validator", {"name": "x"})), *spec.functions[1:]))
    job = RemoteJob.from_plan(dataclasses.replace(plan, spec=validating), BatchOptions(out_dir=Path(".")))
    assert job.reference_source is not None and job.plan().reference.add(2, 3) == 5
