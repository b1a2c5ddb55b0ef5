"""Grade a class on a Dask cluster: ``grader grade ... --executor dask --scheduler tcp://HOST:PORT``.

The coordinating process (the one running ``grader grade``) computes the plan once, as the
local batch does, and ships each worker a :class:`RemoteJob`: the spec and the plan's
expected values and time limits. Each submission then travels as one task; a worker grades
it in the same sandbox the local batch uses (one :class:`~grader.run.sandbox.Sandbox` per
worker thread, created on first use and kept for the run) and sends the verdict back. The
coordinator hands every verdict to the same grading session as the local pool (store, JSON,
progress) as it arrives, so an interrupted distributed run loses nothing either.

Trust: workers are staff machines. They receive the spec (hidden cases included) and the
expected answers, which students never see; the reference's source code travels only when
a ``validator`` comparison needs to call it (go_group and friends), never otherwise. The
isolation from students is the sandbox inside each worker, exactly as on a laptop.

Failures: a worker that dies mid-submission makes the scheduler run the task again
elsewhere (up to ``distributed.scheduler.allowed-failures`` times; after that the
submission gets an internal-error verdict); an exception outside the student's grading
(say a worker without a sandbox) is retried ``retries`` times and then stops the run, as a
sandbox failure stops a local batch. Each submission is one task whose result is taken
once, and the store is keyed by submission, so nothing is counted twice. A student's
infinite loop is stopped by the sandbox's time limit and never holds a worker longer.
"""
from __future__ import annotations

import fcntl
import tempfile
import threading
import types
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable, Sequence, cast

from grader.errors import GraderError
from grader.judge.verdict import SubmissionResult
from grader.plan import Plan, PlannedCase
from grader.spec.model import Spec
from grader.submissions import Submission

try:
    from distributed.diagnostics.plugin import WorkerPlugin
except ImportError:  # the optional extra is missing: run_on_dask says so in the user's words
    WorkerPlugin = object  # type: ignore[assignment,misc]

if TYPE_CHECKING:
    from grader.batch import BatchOptions, BatchOutcome
    from grader.session import GradingSession
    from grader.pipeline import FunctionGrader
    from grader.run.sandbox import Limits, Sandbox

# Slots (sandbox uids) of distributed graders start above those a local batch uses, and are
# claimed with a lock file so that several worker processes on one machine never share one.
SLOT_BASE = 64
SLOT_COUNT = 512
SLOT_LOCKS = Path(tempfile.gettempdir()) / "grader-dask-slots"


def require_distributed() -> types.ModuleType:
    """The ``distributed`` package, or a GraderError that says how to install it."""
    try:
        import distributed
    except ImportError as exc:
        raise GraderError(
            "--executor dask needs Dask, which is not installed here",
            hint="pip install 'grader[dask]' on this machine and on every worker",
        ) from exc
    return distributed


# --------------------------------------------------------------------------- what a worker gets


@dataclass(frozen=True)
class RemoteJob:
    """Everything a worker needs to grade any submission of one run: the spec and the plan's results."""

    token: str
    spec: Spec
    cases: dict[str, tuple[PlannedCase, ...]]
    limits: "Limits"
    require_secure: bool | None  # None: the sandbox's default profile; True: refuse an unisolated worker
    reference_source: str | None = None  # only for specs whose validators call the reference
    validators_source: str | None = None  # the spec's validators module, when it names one

    @classmethod
    def from_plan(cls, plan: Plan, options: "BatchOptions") -> "RemoteJob":
        needs_reference = any(fn.compare.mode == "validator" for fn in plan.spec.functions)
        source = Path(plan.spec.reference).read_text(encoding="utf-8") if needs_reference and plan.spec.reference else None
        validators = plan.spec.validators
        return cls(
            token=uuid.uuid4().hex[:12],
            spec=plan.spec,
            cases=dict(plan.cases),
            limits=options.limits,
            require_secure=None if options.profile is None else bool(options.profile.secure),
            reference_source=source,
            validators_source=Path(validators).read_text(encoding="utf-8") if validators else None,
        )

    def plan(self) -> Plan:
        """The plan again, worker side; the reference is a stub unless a validator needs it."""
        module = types.ModuleType(f"_grader_reference_remote_{self.token}")
        if self.reference_source is not None:
            # Trusted staff code, run on a trusted staff machine, outside the sandbox (as in the parent).
            exec(compile(self.reference_source, f"<reference of {self.spec.assignment}>", "exec"), module.__dict__)
        return Plan(spec=self.spec, reference=module, cases=self.cases, validators=self._validators())

    def _validators(self) -> dict[str, Any]:
        if self.validators_source is None:
            return {}
        from grader.judge.validators import validators_of

        module = types.ModuleType(f"_grader_validators_remote_{self.token}")
        exec(compile(self.validators_source, f"<validators of {self.spec.assignment}>", "exec"), module.__dict__)
        return validators_of(module)


class _Slot:
    """A sandbox slot number held for as long as the lock file stays open."""

    def __init__(self) -> None:
        SLOT_LOCKS.mkdir(parents=True, exist_ok=True)
        for slot in range(SLOT_BASE, SLOT_BASE + SLOT_COUNT):
            handle: IO[str] = open(SLOT_LOCKS / f"slot-{slot}.lock", "a")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                continue
            self.number, self._handle = slot, handle
            return
        raise GraderError(f"all {SLOT_COUNT} distributed sandbox slots on this machine are taken")

    def release(self) -> None:
        self._handle.close()  # closing the file drops the lock (so does the process dying)


class SandboxPool(WorkerPlugin):
    """Lives on each worker for one run: the job, and one sandboxed grader per worker thread.

    Sandboxes are made on a thread's first submission and closed when the coordinator
    unregisters the plugin at the end of the run (or the worker shuts down).
    """

    idempotent = False

    def __init__(self, job: RemoteJob):
        self.job = job

    def setup(self, worker: Any = None) -> None:
        self._lock = threading.Lock()
        self._plan: Plan | None = None
        self._graders: dict[int, tuple["FunctionGrader", "Sandbox", _Slot]] = {}

    def teardown(self, worker: Any = None) -> None:
        with self._lock:
            graders, self._graders = self._graders, {}
        for _, sandbox, slot in graders.values():
            try:
                sandbox.close()
            finally:
                slot.release()

    def _grader(self) -> "FunctionGrader":
        thread = threading.get_ident()
        with self._lock:
            if thread in self._graders:
                return self._graders[thread][0]
            if self._plan is None:
                self._plan = self.job.plan()
            plan = self._plan
        from grader.pipeline import FunctionGrader, watch_list
        from grader.run.sandbox import Sandbox, probe

        profile = None
        if self.job.require_secure is not None:
            profile = probe()
            if self.job.require_secure and not profile.secure:
                raise GraderError(f"this worker has no sandbox for untrusted code ({profile.describe()})",
                                  hint="install bubblewrap on every worker, or run `grader grade --unsafe` for trusted code")
        slot = _Slot()
        try:
            sandbox = Sandbox(profile, self.job.limits, slot=slot.number, watch=watch_list(plan.spec))
        except BaseException:
            slot.release()
            raise
        grader = FunctionGrader(plan, sandbox)
        with self._lock:
            self._graders[thread] = (grader, sandbox, slot)
        return grader

    def grade(self, submission: Submission) -> SubmissionResult:
        from grader.session import grade_one

        grader = self._grader()  # a failure here is the machine's, not the student's: it propagates
        return grade_one(self.job.spec, grader, submission)


def grade_remote(plugin_name: str, submission: Submission) -> SubmissionResult:
    """The task each submission becomes: grade it with this worker's pool for the run."""
    from distributed import get_worker

    pool = cast(SandboxPool, get_worker().plugins[plugin_name])  # registered under this name by the coordinator
    return pool.grade(submission)


# --------------------------------------------------------------------------- the coordinator


def _connect(distributed: types.ModuleType, scheduler: str, timeout: float) -> Any:
    try:
        return distributed.Client(scheduler, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise GraderError(f"cannot reach the Dask scheduler at {scheduler} ({type(exc).__name__}: {exc})",
                          hint="check the address and that `dask scheduler` is running there") from exc


def _task_error(distributed: types.ModuleType, spec: Spec, sub: Submission, exc: BaseException) -> SubmissionResult:
    """A task that failed for good: the submission's fault only if it kept killing workers."""
    from grader.session import internal_error

    if isinstance(exc, distributed.KilledWorker):
        return internal_error(spec, sub, RuntimeError(f"every worker that graded it died ({exc})"))
    if isinstance(exc, ModuleNotFoundError) and (exc.name or "").startswith("grader"):
        raise GraderError("a Dask worker cannot import the grader", hint="pip install 'grader[dask]' on every worker") from exc
    if isinstance(exc, GraderError):
        raise exc
    raise GraderError(f"grading {sub.id} failed on the cluster: {type(exc).__name__}: {exc}") from exc


def run_on_dask(
    spec: Spec,
    submissions: Sequence[Submission],
    options: "BatchOptions",
    scheduler: Any,
    *,
    on_result: Callable[[SubmissionResult, bool], None] = lambda result, skipped: None,
    retries: int = 2,
    connect_timeout: float = 10.0,
) -> "BatchOutcome":
    """run_batch's contract, graded by the workers of the Dask scheduler at ``scheduler``.

    ``scheduler`` is an address (``tcp://HOST:8786``) or, for tests and notebooks, a
    running ``distributed.Client`` or ``LocalCluster``.
    """
    from grader.plan import make_plan
    from grader.session import open_session

    distributed = require_distributed()
    if spec.kind != "functions":
        raise GraderError("--executor dask grades function assignments only for now",
                          hint="grade program assignments with the default local executor")
    with open_session(spec, options.out_dir, regrade=options.regrade, sinks=options.sinks, on_result=on_result) as session:
        todo = session.pending(submissions)
        if todo:
            _grade_on_cluster(distributed, session, make_plan(spec), options, todo, scheduler, retries, connect_timeout)
        return session.outcome(submissions)


def _grade_on_cluster(distributed: types.ModuleType, session: "GradingSession", plan: Plan, options: "BatchOptions",
                      todo: Sequence[Submission], scheduler: Any, retries: int, connect_timeout: float) -> None:
    """One task per submission; each verdict is delivered to the session as it arrives."""
    spec = plan.spec
    job = RemoteJob.from_plan(plan, options)
    if isinstance(scheduler, distributed.Client):
        client, owned = scheduler, False
    else:
        client, owned = _connect(distributed, getattr(scheduler, "scheduler_address", scheduler), connect_timeout), True
    name = f"grader-{spec.assignment}-{job.token}"
    futures: dict[Any, Submission] = {}
    try:
        client.register_plugin(SandboxPool(job), name=name)
        for sub in todo:
            future = client.submit(grade_remote, name, sub, key=f"grade-{sub.id}-{job.token}", pure=False, retries=retries)
            futures[future] = sub
        for future in distributed.as_completed(list(futures), loop=client.loop):
            sub = futures[future]
            if sub.id in session.results:  # only a submission's first verdict counts
                continue
            if future.status == "error":
                result = _task_error(distributed, spec, sub, future.exception())
            else:
                result = future.result()
            session.deliver(result)
    finally:
        client.cancel([f for f in futures if not f.done()])
        try:
            client.unregister_worker_plugin(name)  # closes the workers' sandboxes
        except Exception:  # noqa: BLE001 - the cluster may be gone; the results are saved
            pass
        if owned:
            client.close()
