"""Run every mutant of the reference against a spec's cases, in parallel worker processes.

Mutants are made from the trusted reference, so they run in-process (in forked workers, with
a CPU-time alarm per call and a memory cap), not in the sandbox: an audit of a few hundred
mutants takes seconds, not minutes. A mutant is *killed* for a graded function when the
grader's own judge rejects its answer on one of the spec's cases; when it passes them all,
fresh generator inputs tell a *survivor* (some input exposes it: the spec misses a bug)
from a *presumed equivalent* mutant (it agrees with the reference on every input tried).
"""
from __future__ import annotations

import copy
import multiprocessing
import random
import resource
import signal
import time
import types
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Mapping, Sequence

from grader.judge.compare import JudgeContext, judge
from grader.judge.validators import load_validators
from grader.plan import make_plan
from grader.spec.loader import load_trusted_module
from grader.spec.model import FunctionSpec, Spec

from .mutate import Mutant, mutants, reach

Status = Literal["killed", "survived", "equivalent"]
#: A survivor stops collecting witnesses after this many (enough for --suggest) or after two timeouts.
MAX_WITNESSES = 40
MEMORY_CAP = 2 << 30


@dataclass(frozen=True)
class Probe:
    """One input of a graded function with the reference's answer and the CPU time a mutant gets."""

    name: str
    args: tuple[Any, ...]
    expected: Any
    limit_s: float


@dataclass(frozen=True)
class FunctionProbes:
    fn: FunctionSpec
    cases: tuple[Probe, ...]  # the spec's own cases: these must kill
    extra: tuple[Probe, ...]  # fresh generator inputs: these tell survivors from equivalents


@dataclass(frozen=True)
class Verdict:
    mutant: int
    function: str
    status: Status
    by: str = ""  # the spec case that killed it, and how
    witnesses: tuple[int, ...] = ()  # indices of the extra probes it gets wrong


@dataclass
class Audit:
    """Everything the report needs: the mutants, the verdicts, the probes and the time taken."""

    spec: Spec
    mutants: list[Mutant]
    probes: dict[str, FunctionProbes]
    verdicts: list[Verdict]
    unreached: int
    elapsed_s: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class _Context:
    reference: types.ModuleType
    validators: Mapping[str, Any]  # the spec's validators, by name
    reference_path: str
    probes: dict[str, FunctionProbes]
    mutants: list[Mutant]
    affected: dict[int, tuple[str, ...]]


class _Timeout(Exception):
    pass


# A worker process's context, set once by the pool's initializer (the standard pattern for
# process pools: the reference module cannot be pickled, fork hands it over for free).
_WORKER: _Context | None = None


def _init_worker(context: _Context) -> None:
    global _WORKER
    _WORKER = context
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = MEMORY_CAP if hard == resource.RLIM_INFINITY else min(MEMORY_CAP, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _call(fn: Callable[..., Any], args: tuple[Any, ...], limit_s: float) -> tuple[Any, str]:
    """(value, "") or (None, what went wrong), with a CPU-time alarm at ``limit_s``."""
    def expire(signum: int, frame: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, limit_s)
    try:
        return fn(*copy.deepcopy(args)), ""
    except _Timeout:
        return None, f"ran over {limit_s:.2g} s of CPU"
    except (Exception, RecursionError) as exc:  # a mutant's crash is a kill, like a student's
        return None, f"raised {type(exc).__name__}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _wrong(context: _Context, fn_spec: FunctionSpec, fn: Callable[..., Any], probe: Probe) -> str:
    """Why the mutant's answer on ``probe`` is rejected by the spec's judge, or ""."""
    value, problem = _call(fn, probe.args, probe.limit_s)
    if problem:
        return problem
    verdict = judge(probe.expected, value, fn_spec.compare,
                    JudgeContext(args=probe.args, reference=context.reference, function=fn_spec.name,
                                 validators=context.validators))
    return "" if verdict.passed else "wrong answer"


def _load(context: _Context, mutant: Mutant) -> types.ModuleType:
    module = types.ModuleType(f"_grader_audit_mutant_{mutant.id}")
    module.__file__ = context.reference_path
    exec(compile(mutant.source, context.reference_path, "exec"), module.__dict__)
    return module


def _evaluate(index: int) -> list[Verdict]:
    context = _WORKER
    assert context is not None, "the pool initializer sets the worker context"
    mutant = context.mutants[index]
    functions = context.affected[index]
    try:
        module = _load(context, mutant)
    except Exception as exc:
        return [Verdict(index, name, "killed", by=f"the module fails to import ({type(exc).__name__})") for name in functions]
    verdicts = []
    for name in functions:
        probes = context.probes[name]
        fn = getattr(module, name)
        killed = next(((p.name, why) for p in probes.cases if (why := _wrong(context, probes.fn, fn, p))), None)
        if killed:
            verdicts.append(Verdict(index, name, "killed", by=f"{killed[0]}: {killed[1]}"))
            continue
        witnesses, timeouts = [], 0
        for i, probe in enumerate(probes.extra):
            why = _wrong(context, probes.fn, fn, probe)
            if why:
                witnesses.append(i)
                timeouts += why.startswith("ran over")
                if len(witnesses) >= MAX_WITNESSES or timeouts >= 2:
                    break
        verdicts.append(Verdict(index, name, "survived" if witnesses else "equivalent", witnesses=tuple(witnesses)))
    return verdicts


def _limit(reference_s: float, spec_limit: float | None = None) -> float:
    """CPU time a mutant gets: 100x the reference (at least 0.1 s), never more than the spec's limit.

    A mutant that slow has nearly always lost its loop's exit (an endless loop), and
    waiting out the spec's full limit for each of those would dominate the audit's time.
    """
    generous = max(0.1, 100 * reference_s)
    return min(spec_limit, generous) if spec_limit else generous


def _blocks(fn: FunctionSpec) -> list[tuple[str, int]]:
    """The function's generate blocks as (generator, seed), read from its generated cases."""
    blocks: list[tuple[str, int]] = []
    for case in fn.cases:
        if case.origin.startswith("generator:"):
            name, seed = case.origin.removeprefix("generator:").rsplit("#", 1)
            if (name, int(seed)) not in blocks:
                blocks.append((name, int(seed)))
    return blocks


def _extra_probes(spec: Spec, fn: FunctionSpec, reference: types.ModuleType, samples: int) -> tuple[Probe, ...]:
    """Fresh inputs from the function's own generators (new seeds), with the reference's answers."""
    blocks = _blocks(fn)
    if not blocks or spec.generators is None:
        return ()
    generators = load_trusted_module(spec.generators, "generators")
    target = getattr(reference, fn.name)
    per_block = max(1, samples // len(blocks))
    probes = []
    for name, seed in blocks:
        rng = random.Random(f"audit:{name}:{seed}")
        for k in range(per_block):
            args = tuple(getattr(generators, name)(rng))
            started = time.process_time()
            expected = target(*copy.deepcopy(args))
            probes.append(Probe(f"{name}~{k}", args, expected, _limit(time.process_time() - started)))
    return tuple(probes)


def probes_for(spec: Spec, samples: int, functions: Sequence[str] = ()) -> dict[str, FunctionProbes]:
    """The spec's cases (with the reference's answers and limits) and fresh inputs per graded function."""
    plan = make_plan(spec)
    assert plan.reference is not None, "an audit needs the spec's reference"
    out = {}
    for fn in spec.functions:
        if functions and fn.name not in functions:
            continue
        cases = tuple(Probe(p.case.name, p.case.args, p.expected, _limit(p.reference_s, p.time_limit)) for p in plan.for_function(fn.name))
        out[fn.name] = FunctionProbes(fn, cases, _extra_probes(spec, fn, plan.reference, samples))
    return out


def run_audit(spec: Spec, *, jobs: int = 2, samples: int = 200, functions: Sequence[str] = ()) -> Audit:
    """Make the mutants of the spec's reference and judge every one against the spec's cases."""
    started = time.perf_counter()
    if spec.reference is None:
        raise ValueError("the spec has no reference to mutate")
    source = Path(spec.reference).read_text(encoding="utf-8")
    shown = str(Path(spec.reference).name)
    all_mutants = mutants(source, shown)
    reachable = reach(source)
    probes = probes_for(spec, samples, functions)
    made = time.perf_counter()
    affected = {m.id: tuple(f for f in probes if m.site in reachable.get(f, ())) for m in all_mutants}
    todo = [m.id for m in all_mutants if affected[m.id]]
    context = _Context(load_trusted_module(Path(spec.reference), "reference"), load_validators(spec.validators),
                       str(spec.reference), probes, all_mutants, affected)
    verdicts: list[Verdict] = []
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=multiprocessing.get_context("fork"),
                             initializer=_init_worker, initargs=(context,)) as pool:
        for batch in pool.map(_evaluate, todo, chunksize=4):
            verdicts.extend(batch)
    done = time.perf_counter()
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Audit(spec, all_mutants, probes, verdicts, unreached=len(all_mutants) - len(todo), elapsed_s=done - started,
                 timings={"making mutants and inputs": made - started, "running mutants": done - made,
                          "CPU of the workers": workers.ru_utime + workers.ru_stime})
