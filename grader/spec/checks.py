"""``grader validate`` runs everything a grade would run, so a broken spec is found before grading.

Beyond the schema and the loader's checks, these run the trusted reference on every listed
case and on a sample of every generator: a reference that raises, a generator that returns
the wrong shape, a pinned ``expected`` the reference does not give, and a banned name that
resolves to nothing are each a problem at the YAML line and column that caused it.
Every message is one plain sentence; where a likely intended value exists, it says
"did you mean".
"""
from __future__ import annotations

import copy
import difflib
import importlib
import json
import os
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable


from .. import usercache
from .loader import document, load_trusted_module, parse_yaml
from .model import MISSING, FunctionSpec, Spec
from .problems import PositionMap, Problem

if TYPE_CHECKING:
    from grader.plan import Plan

#: Generated cases per generate block the reference runs on (the loader already made them all).
SAMPLE = 20
#: Fresh-seed inputs per generator, shape-checked and run too (a generator may only sometimes go wrong).
FRESH = 5


def deep_problems(spec: Spec, plan: "Plan | None" = None) -> list[Problem]:
    """Every problem found by running the reference, the generators and the ban names of ``spec``.

    ``plan``: the grading plan of ``spec`` when one was made; it ran the reference on every
    case already, without a failure, so its answers are checked against the pins instead of
    running the reference again (fresh generator seeds are still run)."""
    if spec.kind != "functions" or spec.frozen:
        return []
    checker = _Checker(spec, plan)
    checker.bans()
    if spec.reference is not None:
        reference = plan.reference if plan is not None and plan.reference is not None else \
            load_trusted_module(Path(spec.reference), "reference")
        for index, fn in enumerate(spec.functions):
            checker.function(index, fn, reference)
    return sorted(checker.problems, key=lambda p: (p.line, p.col))


class _Checker:
    def __init__(self, spec: Spec, plan: "Plan | None" = None):
        self.spec = spec
        self.answers = {id(p.case): p.expected for cases in plan.cases.values() for p in cases} if plan else {}
        self.raw = document(spec)  # validation needs the YAML's own layout, to point at lines
        self.positions: PositionMap | None = None   # read only when there is a problem to place
        self.problems: list[Problem] = []

    def problem(self, where: list[Any], message: str, *, key: bool = False) -> None:
        if self.positions is None:
            self.positions = PositionMap(parse_yaml(Path(self.spec.path).read_text(encoding="utf-8"))[0])
        line, col = self.positions.locate(where, key=key)
        self.problems.append(Problem(str(self.spec.path), line, col, message))

    # -- bans ---------------------------------------------------------------------------
    def bans(self) -> None:
        places: list[tuple[list[Any], list[str]]] = [(["bans", "names"], self.raw.get("bans", {}).get("names", []))]
        for index, raw in enumerate(self.raw.get("functions", [])):
            places.append((["functions", index, "bans", "names"], (raw.get("bans") or {}).get("names", [])))
        # Resolving a name imports its module (numpy: most of a grade's validation time); names
        # that all resolved before, against the very same module files, are not imported again.
        every = [name for _, names in places for name in names]
        passed = usercache.Marker("bans", json.dumps([every, _modules_of(every)]))
        if passed.known:
            return
        before = len(self.problems)
        for where, names in places:
            for i, name in enumerate(names):
                why = unresolved_ban(name)
                if why:
                    self.problem([*where, i], f"banned name '{name}' bans nothing: {why}")
        if len(self.problems) == before:
            passed.remember()

    # -- reference, pins and generators -------------------------------------------------
    def function(self, index: int, fn: FunctionSpec, reference: Any) -> None:
        target = getattr(reference, fn.name, None)
        if not callable(target):
            return  # the loader reports a function missing from the reference
        where = ["functions", index]
        raw = self.raw["functions"][index]
        listed = {case.get("name", f"case{i + 1}"): i for i, case in enumerate(raw.get("cases", []))}
        sampled: dict[str, int] = {}
        broken: set[str] = set()
        for case in fn.cases:
            if case.origin == "listed":
                self.listed(where + ["cases", listed.get(case.name, 0)], fn, target, case, reference)
                continue
            generator = case.origin.split(":", 1)[1].split("#", 1)[0]
            sampled[generator] = sampled.get(generator, 0) + 1
            if generator in broken or sampled[generator] > SAMPLE:
                continue
            block = next((i for i, b in enumerate(raw.get("generate", [])) if b["generator"] == generator), 0)
            here = where + ["generate", block, "generator"]
            shape = _shape_problem(case.args, fn, target)
            if shape:
                self.problem(here, f"generator '{generator}' {shape}")
                broken.add(generator)
            elif id(case) not in self.answers and not self.run(here, fn, target, case.args, f"generated case {case.name}")[0]:
                broken.add(generator)
        self.fresh(where, raw, fn, target, broken)

    def listed(self, where: list[Any], fn: FunctionSpec, target: Any, case: Any, reference: Any) -> None:
        if id(case) in self.answers:
            ok, answer = True, self.answers[id(case)]
        else:
            ok, answer = self.run(where + ["args"], fn, target, case.args, f"case '{case.name}'")
        if not ok or case.expected is MISSING:
            return
        from grader.judge.compare import JudgeContext, judge
        from grader.judge.validators import load_validators

        # The pin must be an answer the spec's own judge accepts (for a validator: a valid answer).
        context = JudgeContext(args=case.args, reference=reference, function=fn.name, validators=load_validators(self.spec.validators))
        verdict = judge(answer, case.expected, fn.compare, context)
        if not verdict.passed:
            self.problem(where + ["expected"], f"case '{case.name}' pins expected {_short(case.expected)}, but the reference "
                         f"returns {_short(answer)}; fix the pin or the reference")

    def run(self, where: list[Any], fn: FunctionSpec, target: Any, args: Iterable[Any], label: str) -> tuple[bool, Any]:
        try:
            return True, target(*copy.deepcopy(list(args)))
        except Exception as exc:
            self.problem(where, f"the reference {fn.name}() raises {type(exc).__name__} on {label}: {exc}")
            return False, None

    def fresh(self, where: list[Any], raw: dict[str, Any], fn: FunctionSpec, target: Any, broken: set[str]) -> None:
        """Fresh seeds of every generator: the right shape, and inputs the reference accepts.

        The seeds are fixed, so the outcome is decided by the spec's digest (the spec, its
        reference and its generators): a function whose fresh inputs passed before, in the
        user's cache folder, is not run again (a tenth of a second of every ``grader grade``)."""
        if self.spec.generators is None:
            return
        passed = usercache.Marker("fresh", f"{self.spec.digest}-{fn.name}")
        if passed.known:
            return
        before = len(self.problems)
        self._fresh(where, raw, fn, target, broken, self.spec.generators)
        if len(self.problems) == before and not broken:
            passed.remember()

    def _fresh(self, where: list[Any], raw: dict[str, Any], fn: FunctionSpec, target: Any, broken: set[str],
               generators_path: Path) -> None:
        generators = load_trusted_module(generators_path, "generators")
        for index, block in enumerate(raw.get("generate", [])):
            generator = getattr(generators, block["generator"], None)
            if not callable(generator) or block["generator"] in broken:
                continue  # the loader reports an unknown generator; a broken one is reported once
            here = where + ["generate", index, "generator"]
            rng = random.Random(f"validate:{block['generator']}")
            for n in range(FRESH):
                try:
                    args = generator(rng)
                except Exception as exc:
                    self.problem(here, f"generator '{block['generator']}' raises {type(exc).__name__} on a fresh seed: {exc}")
                    break
                shape = _shape_problem(args, fn, target)
                if shape:
                    self.problem(here, f"generator '{block['generator']}' {shape}")
                    break
                ok, _ = self.run(here, fn, target, args, f"an input of generator '{block['generator']}' (fresh seed, #{n})")
                if not ok:
                    break


def _modules_of(names: Iterable[str]) -> list[tuple[str, str, int, int]]:
    """Where each top-level module of ``names`` would be imported from, and that file's
    modification time and size, found without importing it: what decides whether a ban
    name resolves (an upgraded or removed numpy changes it)."""
    import importlib.util

    found = []
    for top in sorted({name.split("(", 1)[0].split(".", 1)[0] for name in names}):
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            spec = None
        origin = (spec.origin or "") if spec is not None else ""
        try:
            st = os.stat(origin)
            found.append((top, origin, st.st_mtime_ns, st.st_size))
        except OSError:
            found.append((top, origin, 0, 0))
    return found


def _shape_problem(args: Any, fn: FunctionSpec, target: Any) -> str:
    """What is wrong with a generator's value as the argument list of ``fn``, or ""."""
    if not isinstance(args, (list, tuple)):
        return f"must return the list of {fn.name}()'s arguments, not {type(args).__name__} {_short(args)}"
    params = list(fn.params) or _parameters(target)
    if params and len(args) != len(params):
        return (f"returns {len(args)} argument(s), but {fn.name}() takes {len(params)} ({', '.join(params)}); "
                "a generator returns the list of arguments of one call")
    return ""


def _parameters(target: Any) -> list[str]:
    """The positional parameters of the reference function (empty when it takes *args)."""
    import inspect

    try:
        parameters = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return []
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return []
    return [p.name for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def unresolved_ban(name: str) -> str:
    """Why a qualified ban name such as ``builtins.sum`` names nothing importable, or ""."""
    callee = name.split("(", 1)[0]
    parts = callee.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            obj: Any = importlib.import_module(module_name)
        except ImportError:
            continue
        for i, attr in enumerate(parts[cut:], cut):
            if not hasattr(obj, attr):
                known = [a for a in dir(obj) if not a.startswith("_")]
                close = difflib.get_close_matches(attr, known, n=1)
                hint = f" (did you mean '{'.'.join(parts[:i] + [close[0]])}'?)" if close else ""
                return f"{'.'.join(parts[:i]) } has no attribute '{attr}'{hint}"
            obj = getattr(obj, attr)
        return ""
    # Modules students reach for first, so 'nunpy' suggests numpy rather than runpy.
    common = ["numpy", "math", "statistics", "itertools", "functools", "operator", "builtins", "pandas", "scipy"]
    close = difflib.get_close_matches(parts[0], common, n=1) or difflib.get_close_matches(parts[0], sorted(sys.stdlib_module_names), n=1)
    hint = f" (did you mean '{'.'.join([close[0], *parts[1:]])}'?)" if close else ""
    return f"there is no module '{parts[0]}'{hint}"
