"""The grading plan: every expected value and time limit, computed once per spec and run.

The reference runs here, in the trusted parent, never in a sandbox: its answers and its
timings are the secrets the children are graded against.
"""
from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, Iterable, Mapping, Sequence

from grader.calibration import Calibration, calibrate
from grader.errors import GraderError
from grader.judge.validators import Validator, load_validators
from grader.run.child import codec
from grader.spec.loader import load_trusted_module
from grader.spec.model import Case, FunctionSpec, Spec


@dataclass(frozen=True)
class PlannedCase:
    case: Case
    expected: Any
    reference_s: float      # its CPU time: the best of a few runs where that decides the limit, else one run's
    time_limit: float
    answers: tuple[Any, ...] | None = None  # every accepted answer (``compare: one_of``), listed once per run
    encoded: codec.Encoded | None = None     # the case's arguments as the protocol sends them, encoded once per run

    @property
    def call_args(self) -> Sequence[Any] | codec.Encoded:
        """What a session's call takes: the arguments encoded once, else the values."""
        return self.encoded if self.encoded is not None else list(self.case.args)


@dataclass(frozen=True)
class Plan:
    spec: Spec
    reference: ModuleType | None  # None for a frozen student bundle
    cases: dict[str, tuple[PlannedCase, ...]]  # function name -> its cases, in spec order
    validators: Mapping[str, Validator] = field(default_factory=dict)  # the spec's, by name
    calibration: Calibration | None = None  # how absolute limits were scaled to this machine

    def for_function(self, name: str) -> tuple[PlannedCase, ...]:
        return self.cases[name]


def _time_reference(fn: Any, args: tuple[Any, ...], runs: int = 5) -> tuple[Any, float]:
    """The reference's answer and its best CPU time over a few runs (noise only ever adds time)."""
    best = float("inf")
    result: Any = None
    deadline = time.perf_counter() + 0.2
    for attempt in range(runs):
        call_args = copy.deepcopy(args)
        start = time.thread_time()
        result = fn(*call_args)
        best = min(best, time.thread_time() - start)
        if attempt >= 1 and time.perf_counter() > deadline:
            break
    return _plain(result), best


def _plain(value: Any) -> Any:
    """The reference's answer as the plain value a child would send (numpy values included),
    so both sides are compared alike; anything else a validator may need stays as it is."""
    try:
        return codec.decode(codec.encode(value))
    except (codec.CodecError, RecursionError):
        return value


def plan_function(fn_spec: FunctionSpec, reference: ModuleType, cases: Iterable[Case], scale: float = 1.0) -> tuple[PlannedCase, ...]:
    return _limited(fn_spec, _run_reference(fn_spec, reference, cases), scale, reference)


def _run_reference(fn_spec: FunctionSpec, reference: ModuleType, cases: Iterable[Case]) -> list[PlannedCase]:
    """The reference's answers and the time of one run each; the limits (which need the
    calibration) come after, and time again only the cases whose limit that time decides."""
    fn = getattr(reference, fn_spec.name)
    planned = []
    for case in cases:
        try:
            expected, seconds = _time_reference(fn, case.args, runs=1)
        except Exception as exc:
            raise GraderError(
                f"the reference {fn_spec.name}() fails on case '{case.name}': {type(exc).__name__}: {exc}",
                hint="fix the case's args in the spec, or the reference",
            ) from exc
        planned.append(PlannedCase(case, expected, seconds, 0.0, _accepted_answers(fn_spec, reference, case, expected)))
    return planned


def _limited(fn_spec: FunctionSpec, planned: Iterable[PlannedCase], scale: float, reference: ModuleType | None
             ) -> tuple[PlannedCase, ...]:
    """Each case's limit. Where one run's time already gives the same limit as no time at all
    (the floor or the absolute limit is larger: most cases), a best of several runs could
    only lower the time, never the limit, so only the others are timed again."""
    fn = getattr(reference, fn_spec.name, None)
    limited = []
    for p in planned:
        rule = p.case.time_limit or fn_spec.time_limit
        seconds = p.reference_s
        if fn is not None and rule.resolve(seconds, scale) != rule.resolve(0.0, scale):
            seconds = min(seconds, _time_reference(fn, p.case.args)[1])
        limited.append(replace(p, reference_s=seconds, time_limit=rule.resolve(seconds, scale), encoded=_encoded(p.case.args)))
    return tuple(limited)


def _encoded(args: Any) -> codec.Encoded | None:
    """The arguments in the protocol's encoding, or None when they are not plain values
    (the session then refuses them with the codec's message, as it always did)."""
    try:
        return codec.Encoded(args)
    except (codec.CodecError, RecursionError):
        return None


def _accepted_answers(fn_spec: FunctionSpec, reference: ModuleType, case: Case, expected: Any) -> tuple[Any, ...] | None:
    """The answers a ``one_of`` comparison accepts for ``case``, from the reference, once per run:
    listing them is search work (every placement of a word) that no submission should repeat."""
    if fn_spec.compare.mode != "one_of":
        return None
    from grader.judge.compare import accepted_answers

    return tuple(accepted_answers(expected, fn_spec.compare.options, reference, case.args))


def plan_frozen(fn_spec: FunctionSpec, cases: Iterable[Case], scale: float = 1.0) -> tuple[PlannedCase, ...]:
    """A student bundle has no reference: the pins are the answers, absolute limits apply."""
    return tuple(PlannedCase(c, c.expected, 0.0, (c.time_limit or fn_spec.time_limit).resolve(None, scale),
                             encoded=_encoded(c.args)) for c in cases)


def make_plan(spec: Spec, *, visibility: str | None = None) -> Plan:
    """Compute expected values (from the reference) and limits; ``visibility`` restricts the cases."""
    def chosen(fn: FunctionSpec) -> list[Case]:
        return [c for c in fn.cases if visibility is None or c.visibility == visibility]

    validators = load_validators(spec.validators)
    if spec.frozen:
        calibration = calibrate(spec.calibration_s)
        scale = calibration.factor if calibration else 1.0
        return Plan(spec=spec, reference=None, cases={fn.name: plan_frozen(fn, chosen(fn), scale) for fn in spec.functions},
                    validators=validators, calibration=calibration)
    if spec.reference is None:
        raise GraderError(f"spec {spec.path} names no reference module")
    reference = load_trusted_module(spec.reference, "reference")
    answered = {fn.name: _run_reference(fn, reference, chosen(fn)) for fn in spec.functions}
    # Calibrated after the reference ran: a measurement started in the background
    # (calibration.measure_in_background) has had that time to finish.
    calibration = calibrate(spec.calibration_s)
    scale = calibration.factor if calibration else 1.0
    cases = {fn.name: _limited(fn, answered[fn.name], scale, reference) for fn in spec.functions}
    return Plan(spec=spec, reference=reference, cases=cases, validators=validators, calibration=calibration)
