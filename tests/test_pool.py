"""grader.pool: a class graded in worker processes gives the one-job verdicts, survives a dead
worker, and leaves no process behind (normal end, a killed worker, Ctrl-C)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, ROOT
from grader import pool
from grader.batch import BatchOptions, run_batch
from grader.intake.gather import gather
from grader.plan import make_plan
from grader.run import _bwrap
from grader.run.sandbox import Limits, probe
from grader.session import open_session
from grader.spec.loader import load_spec

MINI = FIXTURES / "specs" / "mini.yaml"
GOOD = "def add(a, b):\n    return a + b\n\ndef divmod2(a, b):\n    return a // b, a % b\n\ndef shout(text):\n    return text.upper() + '!'\n"
CLASS = {
    "alice": GOOD,
    "bob": GOOD.replace("return a + b", "return a - b"),
    "carol": GOOD.replace("return a + b", "return sum([a, b])"),          # a banned call
    "dave": "def add(a, b)\n    return a + b\n",                           # a syntax error
    "erin": GOOD.replace("def shout", "def shou"),                         # a missing function
    "fred": GOOD.replace("return a // b, a % b", "raise ValueError('no')"),
    "gina": "import os\nos._exit(3)\n",                                     # the session dies at import
}
SLOTS = (40, 41)   # this helper's slot range, clear of other sessions' sandboxes


def _write_class(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.py").write_text(text)
    return folder


def _comparable(data: Any) -> Any:
    """A verdict's JSON without what differs between any two runs (times, tracebacks)."""
    if isinstance(data, dict):
        return {k: _comparable(v) for k, v in data.items() if k not in ("time_s", "duration_s", "traceback")}
    if isinstance(data, list):
        return [_comparable(v) for v in data]
    return data


def _class_job(tmp_path: Path, files: dict[str, str]) -> tuple[Any, list[Any], pool.WorkerJob]:
    """The mini spec, ``files`` as its class (gathered), and the job its workers would get."""
    klass = _write_class(tmp_path / "class", files)
    spec = load_spec(MINI)
    subs = gather([str(klass)], spec.submission_files, lambda message: None, languages=spec.languages)
    return spec, subs, pool.WorkerJob.from_plan(make_plan(spec), limits=Limits(), profile=probe())


def _descendants(root: int) -> set[int]:
    """Every live process below ``root`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _already_running() -> set[int]:
    """The processes below this one before a test starts any: those (a module-scoped sandbox
    of another test file, in the whole suite) are not the test's to account for."""
    return _descendants(os.getpid())


def _alive(pids: set[int], grace_s: float = 3.0) -> set[int]:
    """The pids still running (not zombies) after up to ``grace_s`` (a killed tree takes a moment)."""
    deadline = time.monotonic() + grace_s
    while True:
        left = set()
        for pid in pids:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                left.add(pid)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


pytestmark = pytest.mark.skipif(os.name != "posix" or not probe().secure, reason="needs the sandbox and POSIX")


def test_workers_give_the_same_verdicts_and_files_as_one_job(tmp_path, monkeypatch):
    klass = _write_class(tmp_path / "class", CLASS)
    spec = load_spec(MINI)
    subs = gather([str(klass)], spec.submission_files, lambda message: None, languages=spec.languages)
    one = run_batch(spec, subs, BatchOptions(out_dir=tmp_path / "one", jobs=1))

    started: list[int] = []
    start = pool.WorkerPool._start

    def counted(self: pool.WorkerPool, slot: int) -> Any:
        worker = start(self, slot)
        started.append(slot)
        return worker

    monkeypatch.setattr(pool.WorkerPool, "_start", counted)
    before = _already_running()
    seen: set[int] = set()
    two = run_batch(spec, subs, BatchOptions(out_dir=tmp_path / "two", jobs=2),
                    on_result=lambda result, reused: seen.update(_descendants(os.getpid())))
    assert started == [0, 1], "graded in worker processes, one per slot"
    assert [r.submission for r in two.results] == [r.submission for r in one.results] == sorted(CLASS)
    for a, b in zip(one.results, two.results):
        assert _comparable(a.to_json()) == _comparable(b.to_json()), a.submission
    for name in CLASS:
        assert _comparable(json.loads((tmp_path / "one" / f"{name}.json").read_text())) == \
            _comparable(json.loads((tmp_path / "two" / f"{name}.json").read_text())), name
    assert {r.submission: r.score for r in two.results} == {"alice": 25, "bob": 15, "carol": 15, "dave": 0,
                                                            "erin": 20, "fred": 15, "gina": 0}
    assert seen - before, "the workers and their sandboxes were seen running"
    assert not _alive(seen - before), "no worker, bubblewrap or session process outlives the run"
    # A rerun reuses every stored verdict and starts no worker.
    started.clear()
    again = run_batch(spec, subs, BatchOptions(out_dir=tmp_path / "two", jobs=2))
    assert (again.graded, again.skipped, started) == (0, len(CLASS), [])


def test_a_killed_worker_costs_only_its_submission_and_is_replaced(tmp_path):
    files = {"a_slow": "import time\ntime.sleep(60)\n" + GOOD, **{f"s{i}": GOOD for i in range(5)}}
    spec, subs, job = _class_job(tmp_path, files)
    before = _already_running()
    seen: set[int] = set()
    killed = None
    started = time.monotonic()
    with open_session(spec, tmp_path / "out") as session:
        with pool.WorkerPool(job, SLOTS) as workers:
            for result in workers.grade(session.pending(subs)):
                session.deliver(result)
                seen |= _descendants(os.getpid())
                grading = workers.grading()
                if killed is None and "a_slow" in grading:
                    killed = grading["a_slow"]
                    # Where the host's interpreter is not reachable by others, the worker stages it
                    # in a folder its atexit removes; a SIGKILL skips that: stand in for its folder.
                    staged = tempfile.mkdtemp(prefix=_bwrap._stage_prefix(killed))
                    os.kill(killed, signal.SIGKILL)
            replacements = workers.started - len(SLOTS)
        outcome = session.outcome(subs)
    assert killed is not None, "the slow submission was being graded when the others finished"
    assert time.monotonic() - started < 30, "nobody waited for the slow submission's sleep"
    by_id = {r.submission: r for r in outcome.results}
    assert sorted(by_id) == sorted(files)
    slow = by_id["a_slow"]
    assert slow.score == 0 and [e.kind for e in slow.errors] == ["internal-error"]
    assert "killed by SIGKILL" in slow.errors[0].message and "WorkerDied" in slow.extra["traceback"]
    assert all(by_id[f"s{i}"].score == 25 and not by_id[f"s{i}"].errors for i in range(5))
    assert replacements in (0, 1)  # a replacement only if work was left for it
    for sub in files:   # every verdict, the dead worker's included, reached the files and the store
        assert json.loads((tmp_path / "out" / f"{sub}.json").read_text())["submission"] == sub
    assert not _alive((seen | {killed}) - before)
    assert not os.path.exists(staged), "the killed worker's stage folder is removed when it is reaped"


def test_a_result_that_cannot_travel_is_that_submissions_internal_error(tmp_path, monkeypatch):
    """The worker's own guard, exercised in this process: pickling fails, the verdict says so."""
    from multiprocessing.connection import Pipe

    spec = load_spec(MINI)
    klass = _write_class(tmp_path / "class", {"alice": GOOD})
    [sub] = gather([str(klass)], spec.submission_files, lambda message: None, languages=spec.languages)
    job = pool.WorkerJob.from_plan(make_plan(spec), limits=Limits(), profile=probe())

    class Unpicklable:
        def __reduce__(self) -> Any:
            raise TypeError("cannot pickle this value")

    real = pool.WorkerJob.grader

    def grader(self: pool.WorkerJob, slot: int) -> Any:
        made = real(self, slot)
        grade = made.grade
        made.grade = lambda s: replace(grade(s), extra={"odd": Unpicklable()})  # type: ignore[method-assign]
        return made

    monkeypatch.setattr(pool.WorkerJob, "grader", grader)
    monkeypatch.setattr(pool, "_die_with", lambda coordinator: None)
    monkeypatch.setattr(pool.signal, "signal", lambda *args: None)
    ours, theirs = Pipe()
    ours.send_bytes(__import__("pickle").dumps(job))
    ours.send(sub)
    ours.send(None)
    pool.serve(os.dup(theirs.fileno()), SLOTS[0], os.getppid())
    assert ours.recv() == ("grading", "alice")
    kind, (result, _) = ours.recv()
    assert kind == "result" and [e.kind for e in result.errors] == ["internal-error"]
    assert "cannot pickle this value" in result.errors[0].message


def test_ctrl_c_stops_the_workers_and_their_sandboxes(tmp_path, terminal_sigint):
    slow = "import time\ntime.sleep(0.4)\n" + GOOD
    klass = _write_class(tmp_path / "class", {f"s{i:02d}": slow for i in range(16)})
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "grader", "grade", str(MINI), str(klass), "--out", str(out), "--jobs", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True, env=env, text=True,
                            preexec_fn=terminal_sigint)
    seen: set[int] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(out.glob("s*.json"))) < 2:
        seen |= _descendants(proc.pid)
        time.sleep(0.05)
    seen |= _descendants(proc.pid)
    assert len(seen) >= 2, "workers and sandboxes were running"
    os.killpg(proc.pid, signal.SIGINT)      # what a terminal's Ctrl-C does: the whole foreground group
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr, stderr
    assert not _alive(seen), "no worker or sandbox outlives Ctrl-C"
    finished = list(out.glob("s*.json"))
    assert 2 <= len(finished) < 16
    for path in finished:
        assert json.loads(path.read_text())["score"] == 25   # whole files, as the store has them


def test_workers_that_cannot_start_stop_the_run_with_the_reason(tmp_path):
    klass = _write_class(tmp_path / "class", {"alice": GOOD, "bob": GOOD})
    spec = load_spec(MINI)
    subs = gather([str(klass)], spec.submission_files, lambda message: None, languages=spec.languages)
    job = pool.WorkerJob.from_plan(make_plan(spec), limits=Limits(), profile=probe())
    workers = pool.WorkerPool(job, SLOTS)
    workers._payload = b"not a pickled job"     # every worker fails before it takes any work
    with pytest.raises(pool.GraderError, match="keep dying before they take any work .*exited with status 1"):
        with workers:
            list(workers.grade(subs))
    assert workers.started == pool.START_ATTEMPTS + 1   # two first workers, then replacements until the limit


def test_leaving_the_pool_early_stops_the_workers_at_once(tmp_path):
    klass = _write_class(tmp_path / "class", {"a_slow": "import time\ntime.sleep(60)\n" + GOOD, "b": GOOD, "c": GOOD})
    spec = load_spec(MINI)
    subs = gather([str(klass)], spec.submission_files, lambda message: None, languages=spec.languages)
    job = pool.WorkerJob.from_plan(make_plan(spec), limits=Limits(), profile=probe())
    before = _already_running()
    seen: set[int] = set()
    with pool.WorkerPool(job, SLOTS) as workers:
        first = next(workers.grade(subs))    # then the caller stops reading: a_slow's worker is still at work
        seen |= _descendants(os.getpid())
        started = time.monotonic()
    assert time.monotonic() - started < pool.KILL_WAIT_S, "work in hand is stopped, not waited for"
    assert first.submission in ("b", "c") and seen - before
    assert not _alive(seen - before)


def test_removing_a_stage_folder_takes_only_that_process_s():
    mine, other = (tempfile.mkdtemp(prefix=_bwrap._stage_prefix(pid)) for pid in (999_999_991, 999_999_9911))
    try:
        _bwrap.remove_stage_of(999_999_991)
        assert not os.path.exists(mine) and os.path.isdir(other), "a pid that merely starts the same is not taken"
    finally:
        shutil.rmtree(other, ignore_errors=True)


def test_pinned_workers_and_their_sandboxes_each_hold_one_cpu(tmp_path):
    files = {"a_slow": "import time\ntime.sleep(3)\n" + GOOD, **{f"s{i}": GOOD for i in range(3)}}
    spec, subs, job = _class_job(tmp_path, files)
    cpus = sorted(os.sched_getaffinity(0))
    masks: dict[int, set[int]] = {}
    worker = None
    with open_session(spec, tmp_path / "out") as session:
        with pool.WorkerPool(job, SLOTS, pin=True) as workers:
            for result in workers.grade(session.pending(subs)):
                session.deliver(result)
                if worker is None and "a_slow" in workers.grading():
                    worker = workers.grading()["a_slow"]
                    time.sleep(0.5)     # its sandbox is loading the file (the sleep on import)
                    for pid in {worker} | _descendants(worker):
                        try:
                            masks[pid] = os.sched_getaffinity(pid)
                        except OSError:
                            pass        # a process that ended meanwhile
    assert worker is not None and len(masks) >= 2, "the worker and its sandbox's processes were seen"
    assert all(mask == masks[worker] for mask in masks.values()), masks
    assert len(masks[worker]) == 1 and masks[worker] <= set(cpus)
