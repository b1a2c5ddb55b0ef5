"""Where a grading run's time goes: a measured profile per stage, for bench_vs_pytest.py.

The grader's own functions are wrapped (nothing in grader/ knows about this) and each
stage accumulates, per thread, its wall time and its CPU time (``time.thread_time``: the
grading threads share one process, so process CPU would mix them). What the sandbox's
processes spend is read from the slot's own accounting (the cgroup, or /proc), around each
session start and each call, and shown as "slot CPU". Stages nest (a call inside a
submission's grading): each line says its own total, and the "rest" lines say what the
enclosing stage spent outside the stages listed under it.
"""
from __future__ import annotations

import functools
import importlib
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

# (module, attribute path, stage label): the pipeline of one run, in order.
STAGES: tuple[tuple[str, str, str], ...] = (
    ("grader.spec.loader", "load_spec", "spec: load + schema + generated cases"),
    ("grader.cli", "_plan_or_none", "plan: reference on every case + calibration wait"),
    ("grader.spec.checks", "deep_problems", "validate: pins, generator samples, ban names"),
    ("grader.run.sandbox", "probe", "probe: bubblewrap works (one real session)"),
    ("grader.intake.gather", "gather", "gather: find the submissions"),
    ("grader.run.sandbox", "Sandbox._start", "slot start: bubblewrap + zygote"),
    ("grader.pipeline", "FunctionGrader.grade", "submission: everything for one"),
    ("grader.pipeline", "static_violations", "  static ban scan (parent)"),
    ("grader.run.session", "Session._spawn", "  session start: fork, isolate, send files, load"),
    ("grader.run.session", "Session._kill_child", "  session end: kill, reap"),
    ("grader.run.session", "Session.call_many", "  case round trips (a function's cases)"),
    ("grader.pipeline", "observe", "  read each call's result"),
    ("grader.pipeline", "judge_case", "  judge cases"),
    ("grader.pipeline", "score_function", "  score functions (ban policy)"),
    ("grader.pipeline", "total", "  verdict: total + bounds"),
    ("grader.session", "StoreSink.accept", "store: SQLite row"),
    ("grader.session", "JsonSink.accept", "per-submission JSON files"),
    ("grader.reports", "write_reports", "reports: class-wide files"),
)


@dataclass
class Stage:
    label: str
    calls: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    slot_cpu: float = 0.0


@dataclass
class Profile:
    stages: dict[str, Stage] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def wrap_all(self) -> None:
        for module, attr, label in STAGES:
            self.stages[label] = Stage(label)
            _patch(module, attr, self._timed(label))

    def _timed(self, label: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        stage = self.stages[label]

        def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(fn)
            def run(*args: Any, **kwargs: Any) -> Any:
                meter = _meter_of(args[0]) if args else None
                k0 = meter.cpu_seconds() if meter is not None else None
                w0, c0 = time.perf_counter(), time.thread_time()
                try:
                    return fn(*args, **kwargs)
                finally:
                    w, c = time.perf_counter() - w0, time.thread_time() - c0
                    k = meter.cpu_seconds() - k0 if meter is not None and k0 is not None else 0.0
                    with self.lock:
                        stage.calls += 1
                        stage.wall += w
                        stage.cpu += c
                        stage.slot_cpu += k
            return run
        return decorate

    def table(self, n: int) -> list[str]:
        """One line per stage: calls, wall and CPU per submission (ms), slot CPU where measured."""
        out = [f"  {'stage':<52} {'calls':>7} {'wall/sub':>9} {'cpu/sub':>8} {'slot cpu/sub':>13}"]
        for stage in self.stages.values():
            if not stage.calls:
                continue
            slot = f"{stage.slot_cpu * 1000 / n:>11.2f}ms" if stage.slot_cpu else f"{'':>13}"
            out.append(f"  {stage.label:<52} {stage.calls:>7} {stage.wall * 1000 / n:>7.2f}ms {stage.cpu * 1000 / n:>6.2f}ms {slot}")
        return out


def _meter_of(obj: Any) -> Any:
    """The slot's CPU meter for a session's methods (a Session holds its sandbox)."""
    sandbox = getattr(obj, "sandbox", None)
    return getattr(sandbox, "meter", None) if sandbox is not None else None


def _patch(module: str, attr: str, decorate: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """Wrap ``module.attr`` and every name other grader modules imported it under."""
    import sys

    mod = importlib.import_module(module)
    owner: Any = mod
    parts = attr.split(".")
    for part in parts[:-1]:
        owner = getattr(owner, part)
    original = getattr(owner, parts[-1])
    wrapped = decorate(original)
    setattr(owner, parts[-1], wrapped)
    if len(parts) == 1:     # a plain function: also where it was imported by name
        for other in list(sys.modules.values()):
            if getattr(other, "__name__", "").startswith("grader") and getattr(other, parts[0], None) is original:
                setattr(other, parts[0], wrapped)


def profile_stages() -> Profile:
    """Wrap the grader's stages now (import the grader first); read ``table`` after a run."""
    profile = Profile()
    profile.wrap_all()
    return profile


__all__ = ["Profile", "STAGES", "profile_stages"]
