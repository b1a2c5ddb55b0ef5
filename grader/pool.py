"""Grade a class in worker processes, one per sandbox slot; the grading session stays here.

Why it exists: the parent's own Python work per submission (the static ban scan, the case
round trips, judging) is tens of milliseconds, and in threads of one process it is
serialised by the GIL while the sandboxes wait (issue #17: with two threads on two idle
cores, 171 ms of wall per submission and slot against 128 ms of CPU). Here each slot's grader -- a
:class:`~grader.pipeline.FunctionGrader` and its :class:`~grader.run.sandbox.Sandbox` --
lives in a worker process of its own, and the coordinating process keeps only the session
(store, JSON files, progress, sinks), receiving each finished verdict as it arrives.

How workers start: as fresh interpreters (``python -c``, what multiprocessing's ``spawn``
does, without its resource-tracker process or re-running the caller's ``__main__``), never
by forking the coordinator. By the time a class is graded the coordinator has threads (the
progress bar's refresh, the sandbox probe, the calibration, an application's own), and a
fork copies whatever locks they hold into a child that can never release them. A fresh
interpreter costs ~0.18 s of CPU per worker (mostly importing the grader), paid in parallel by the workers, once per run and once per replacement; a
``forkserver`` would pay the imports once instead of once per worker, for no wall time on a
run's critical path, and leave two helper processes (the server and multiprocessing's
resource tracker) behind every run. The plan is not rebuilt but sent, pickled once for
every worker: hw7's (225 cases) is 107 KB, 3.5 ms to pickle here and 2.4 ms to unpickle in
a worker, where rebuilding it would run the reference on every case again (and time it:
the limits could differ between workers). Only the modules the judge may call are imported
again in the worker, by path, as the parent imported them: the spec's validators, and the
reference when a validator (which gets it in its context) is used.

Messages are pickled over a socket pair (multiprocessing's ``Connection`` framing): the
coordinator sends the :class:`WorkerJob` once, then one :class:`~grader.submissions.Submission`
at a time; the worker acknowledges each (``grading``) and sends back its
:class:`~grader.judge.verdict.SubmissionResult` (plain frozen dataclasses, no handles) as it
travels: with its JSON files already encoded (the worker encoded them anyway, to bound the
verdict's size) and its case results counted, not pickled one by one; the coordinator writes
those bytes to the store and the files as they are.

Failures: a worker that dies (killed, crashed, out of memory) costs only the submission it
had acknowledged: that one gets an internal-error verdict saying how the worker died, a
replacement starts on the same slot and the batch goes on; a submission sent but not yet
acknowledged goes back to the queue. A grader exception inside a worker is that
submission's internal error, as in one process (grader.session.grade_one). A worker that
cannot start (the set-up raised, or it dies before taking any work, three times) stops the
run with the reason, as a sandbox that cannot start stops a threaded batch. Nothing already
delivered is lost: the session saved it.

Stopping: at the end each worker's pipe is closed and it closes its sandbox and exits. On
Ctrl-C (or any error) the coordinator sends every worker SIGTERM, which the worker turns into
SystemExit so its sandbox is closed on the way out, and SIGKILLs any that has not exited
within a few seconds; workers ignore SIGINT themselves, so the coordinator alone decides.
A worker whose coordinator dies gets SIGTERM from the kernel (``PR_SET_PDEATHSIG``) or EOF
on its pipe, whichever comes first; its bubblewrap sandboxes follow it (``--die-with-parent``).
"""
from __future__ import annotations

import os
import pickle
import signal
import socket
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence, cast

from grader.errors import GraderError
from grader.judge.verdict import SubmissionResult
from grader.plan import Plan, PlannedCase
from grader.run import _bwrap
from grader.run.model import IsolationProfile, Limits
from grader.session import grade_one, internal_error
from grader.spec.model import Spec
from grader.submissions import Submission

if TYPE_CHECKING:
    from grader.pipeline import FunctionGrader

__all__ = ["WorkerDied", "WorkerJob", "WorkerPool", "available"]

START_ATTEMPTS = 3      # workers that die before taking any work, in a row, before the run stops
STOP_WAIT_S = 10.0      # a worker closing its sandbox at the end of the run
KILL_WAIT_S = 3.0       # a worker told to stop (SIGTERM) before it is killed


def available() -> bool:
    """Whether this platform runs the pool (sockets passed as file descriptors: POSIX)."""
    return os.name == "posix" and bool(sys.executable)


class WorkerDied(RuntimeError):
    """The process grading a submission ended without a verdict."""


@dataclass(frozen=True)
class WorkerJob:
    """Everything a worker needs to grade any submission of one run, as plain picklable data."""

    spec: Spec
    cases: dict[str, tuple[PlannedCase, ...]]
    limits: Limits
    profile: IsolationProfile
    calibration: Any = None

    @classmethod
    def from_plan(cls, plan: Plan, *, limits: Limits, profile: IsolationProfile) -> "WorkerJob":
        return cls(plan.spec, dict(plan.cases), limits, profile, plan.calibration)

    def plan(self) -> Plan:
        """The plan again, worker side: the same answers and limits; the trusted modules the
        judge may call are imported again by path (the reference only when a validator,
        which gets it in its context, is used)."""
        from grader.judge.validators import load_validators
        from grader.spec.loader import load_trusted_module

        spec = self.spec
        needs_reference = spec.reference is not None and not spec.frozen and \
            any(fn.compare.mode == "validator" for fn in spec.functions)
        reference = load_trusted_module(spec.reference, "reference") if needs_reference and spec.reference else None
        return Plan(spec=spec, reference=reference, cases=self.cases, validators=load_validators(spec.validators),
                    calibration=self.calibration)

    def grader(self, slot: int) -> "FunctionGrader":
        """This slot's grader, in a sandbox of its own (closed by the caller)."""
        from grader.pipeline import FunctionGrader, watch_list
        from grader.run.sandbox import Sandbox

        return FunctionGrader(self.plan(), Sandbox(self.profile, self.limits, slot=slot, watch=watch_list(self.spec)))


class _Worker:
    """The coordinator's handle on one worker process."""

    def __init__(self, slot: int, proc: subprocess.Popen[bytes], conn: Connection):
        self.slot = slot
        self.proc = proc
        self.conn = conn
        self.current: Submission | None = None  # sent to it, no verdict yet
        self.acked = False                      # it said it is grading ``current``
        self.started = False                    # it has taken work: its set-up succeeded


class WorkerPool:
    """Worker processes on the given sandbox slots; :meth:`grade` yields verdicts as they finish.

    Use as a context manager: leaving it stops every worker (and, on an exception such as
    KeyboardInterrupt, at once)."""

    def __init__(self, job: WorkerJob, slots: Iterable[int], *, pin: bool | None = None):
        self.spec = job.spec
        self.slots = tuple(slots)
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        # Pinned by default when every CPU gets a worker anyway (see serve).
        self._cpus = cpus if (len(cpus) <= len(self.slots) if pin is None else pin) else []
        self._payload = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)   # once, for every worker
        self._workers: list[_Worker] = []
        self._stopping: list[_Worker] = []
        self._failed_starts = 0
        self._sandbox_cpu: dict[int, float] = {}
        self.started = 0   # worker processes started, replacements included

    # -- the coordinator's loop ---------------------------------------------------------------
    def grade(self, todo: Sequence[Submission]) -> Iterator[SubmissionResult]:
        """Grade ``todo``; every submission's verdict is yielded once, in the order they finish."""
        waiting = deque(todo)
        # Every process first, then the job: a job larger than the socket's buffer waits for
        # its worker's imports, which the other workers are doing meanwhile.
        for worker in [self._start(slot) for slot in self.slots[:len(waiting)]]:
            self._dispatch(self._send_job(worker), waiting)
        while True:
            busy = {w.conn.fileno(): w for w in self._workers if w.current is not None}
            if not busy:
                return
            for fd in wait(list(busy)):
                result = self._receive(busy[cast(int, fd)], waiting)
                if result is not None:
                    yield result

    def grading(self) -> dict[str, int]:
        """Submission id -> pid of the worker grading it now (acknowledged work only)."""
        return {w.current.id: w.proc.pid for w in list(self._workers) if w.current is not None and w.acked}

    @property
    def sandbox_cpu_s(self) -> float:
        """CPU seconds the workers' sandboxes have spent so far, as their meters counted
        (kernel accounting the coordinator's rusage never sees: those processes are not its children)."""
        return sum(self._sandbox_cpu.values())

    def _receive(self, worker: _Worker, waiting: deque[Submission]) -> SubmissionResult | None:
        try:
            kind, value = worker.conn.recv()
        except (EOFError, OSError):
            return self._lost(worker, waiting)
        if kind == "grading":
            worker.acked = worker.started = True
            self._failed_starts = 0
            return None
        if kind == "result":
            result, sandbox_cpu = value
            worker.current, worker.acked = None, False
            if sandbox_cpu is not None:
                self._sandbox_cpu[worker.proc.pid] = sandbox_cpu
            self._dispatch(worker, waiting)     # its next submission first: it works while we write files
            return result
        if kind == "failed":
            raise GraderError(f"a grading worker could not start: {value}")
        raise GraderError(f"a grading worker sent an unknown message {kind!r}")

    def _lost(self, worker: _Worker, waiting: deque[Submission]) -> SubmissionResult | None:
        """A worker's pipe closed: reap it, charge its submission (if it had begun it), replace it."""
        how = _reap(worker)
        self._workers.remove(worker)
        lost, acked = worker.current, worker.acked
        worker.current = None
        if lost is not None and not acked:
            waiting.appendleft(lost)            # never began it: not the submission's fault
            lost = None
        if not worker.started:
            self._failed_starts += 1
            if self._failed_starts >= START_ATTEMPTS:
                raise GraderError(f"grading workers keep dying before they take any work (the last {how})",
                                  hint="run with --jobs 1 to see the error in this process")
        if waiting:
            self._dispatch(self._send_job(self._start(worker.slot)), waiting)
        if lost is None:
            return None
        return internal_error(self.spec, lost, WorkerDied(f"the worker process grading it {how}"))

    def _dispatch(self, worker: _Worker, waiting: deque[Submission]) -> None:
        if not waiting:
            self._retire(worker)
            return
        worker.current, worker.acked = waiting.popleft(), False
        try:
            worker.conn.send(worker.current)
        except OSError:
            pass    # it died: its pipe reads as closed next, and the submission goes back to the queue

    # -- starting and stopping ------------------------------------------------------------------
    def _start(self, slot: int) -> _Worker:
        ours, theirs = socket.socketpair()
        # SIGINT ignored until serve() installs its handler: a Ctrl-C during the imports is the coordinator's too.
        code = (f"import signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); sys.path[:] = {sys.path!r}; "
                f"from grader.pool import serve; "
                f"serve({theirs.fileno()}, {slot}, {os.getpid()}, {self._cpu_of(slot)!r})")
        try:
            proc = subprocess.Popen([sys.executable, "-c", code], pass_fds=(theirs.fileno(),),
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, close_fds=True)
        finally:
            theirs.close()
        worker = _Worker(slot, proc, Connection(ours.detach()))
        self.started += 1
        self._workers.append(worker)
        return worker

    def _cpu_of(self, slot: int) -> int | None:
        """The CPU a slot's worker is pinned to (its replacement gets the same one), or None."""
        return self._cpus[self.slots.index(slot) % len(self._cpus)] if self._cpus else None

    def _send_job(self, worker: _Worker) -> _Worker:
        try:
            worker.conn.send_bytes(self._payload)
        except OSError:
            pass    # died already: noticed by the loop
        return worker

    def _retire(self, worker: _Worker) -> None:
        """No work left for it: closing its pipe tells it to close its sandbox and exit."""
        self._workers.remove(worker)
        worker.conn.close()
        self._stopping.append(worker)

    def close(self, *, now: bool = False) -> None:
        """Stop every worker: let idle ones close their sandboxes and exit, SIGTERM the others
        (all of them when ``now``); any still running after the wait is killed."""
        workers, self._workers = self._workers, []
        workers += self._stopping
        self._stopping = []
        for worker in workers:
            if not worker.conn.closed:
                worker.conn.close()
            # Work in hand at the end (the caller stopped reading, or failed) would be thrown away.
            if (now or worker.current is not None) and worker.proc.poll() is None:
                try:
                    worker.proc.terminate()
                except OSError:
                    pass
        deadline = time.monotonic() + (KILL_WAIT_S if now else STOP_WAIT_S)
        for worker in workers:
            try:
                worker.proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.proc.kill()
                worker.proc.wait()
            if worker.proc.returncode < 0:
                _bwrap.remove_stage_of(worker.proc.pid)

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.close(now=exc_type is not None)


def _reap(worker: _Worker) -> str:
    """Wait for a worker whose pipe closed; how it ended, in words."""
    worker.conn.close()
    try:
        code = worker.proc.wait(KILL_WAIT_S)
    except subprocess.TimeoutExpired:       # it closed the pipe yet lives on: it is of no more use
        worker.proc.kill()
        code = worker.proc.wait()
    if code < 0:
        _bwrap.remove_stage_of(worker.proc.pid)     # a killed worker's atexit never removed it
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


# --------------------------------------------------------------------------- the worker's side


def serve(fd: int, slot: int, coordinator: int, cpu: int | None = None) -> None:
    """A worker process's life: the job, then submissions one at a time until the pipe closes.

    ``cpu``: pinned there with its sandbox (started later, it inherits the mask). Each case
    is a round trip between the worker and its sandbox; on one CPU the reply wakes the worker
    where the child ran, with no wake-up sent across to another CPU (an inter-processor
    interrupt, dear on a virtual machine) and with warm caches. The pool pins only when every
    CPU gets a worker anyway, so no CPU is left idle by it."""
    signal.signal(signal.SIGINT, _ignore)       # Ctrl-C reaches the whole process group: the coordinator decides
    signal.signal(signal.SIGTERM, _exit_now)
    _die_with(coordinator)
    if cpu is not None:
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:
            pass                                # a CPU taken away meanwhile: unpinned is still right
    conn = Connection(fd)
    try:
        job: WorkerJob = pickle.loads(conn.recv_bytes())
        try:
            grader = job.grader(slot)
        except Exception as exc:  # the machine's or the spec's problem: the coordinator stops the run
            conn.send(("failed", f"{type(exc).__name__}: {exc}"))
            return
        sandbox = grader.sandbox
        try:
            while (submission := conn.recv()) is not None:
                conn.send(("grading", submission.id))
                result = grade_one(job.spec, grader, submission)
                conn.send_bytes(_verdict_message(job.spec, submission, result, _cpu_of(sandbox)))
        finally:
            sandbox.close()
    except (EOFError, ConnectionError):
        pass    # the coordinator closed the pipe (the run is over) or is gone


def _verdict_message(spec: Spec, submission: Submission, result: SubmissionResult, cpu: float | None) -> bytes:
    """The verdict as it travels: its JSON encoded here, once, for the coordinator to write as
    it is, and its case results counted (SubmissionResult.for_transport)."""
    try:
        return pickle.dumps(("result", (result.for_transport(), cpu)), protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError) as exc:  # a value that cannot travel
        return pickle.dumps(("result", (internal_error(spec, submission, exc).for_transport(), cpu)),
                            protocol=pickle.HIGHEST_PROTOCOL)


def _cpu_of(sandbox: Any) -> float | None:
    """The sandbox's CPU seconds so far, as its meter counts them (None without a meter)."""
    try:
        return sandbox.meter.cpu_seconds() if sandbox.meter is not None else None
    except OSError:
        return None


def _ignore(signum: int, frame: Any) -> None:
    """SIGINT's handler in a worker (a handler, not SIG_IGN, so the sandbox's children do not inherit it)."""


def _exit_now(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)   # once: the sandbox is being closed
    raise SystemExit(128 + signum)


def _die_with(coordinator: int) -> None:
    """SIGTERM when the coordinator dies (Linux), and exit now if it is gone already."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)   # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != coordinator:
        raise SystemExit(0)
