"""Which graded functions a finding affects, through the student module's call graph.

Units are the module body, every def/lambda and every class.  Edges (built by
``grader.static.interp``) run from a unit to what it may run: functions and classes it calls
(by name, through aliases ``h = helper``, containers, return values, ``functools.partial``),
functions it merely references from inside a function (``map(helper, xs)``), its nested
defs and lambdas, a class's methods and bases.  Module-level code runs on import, so it and
everything it calls count against every graded function.
"""
from __future__ import annotations

import ast
from typing import Iterable, Iterator, Mapping, Sequence

from grader.static.resolve import Func, Klass


def _top_level_defs(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """Module-level defs and classes, including those under if/try at module level."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for attr in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, attr, ()):
                    stack.extend(child.body if isinstance(child, ast.ExceptHandler) else [child])


def reach(edges: Mapping, starts: Iterable[ast.AST]) -> set:
    seen: set = set()
    stack = list(starts)
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        stack.extend(edges.get(node, ()))
    return seen


# Decorators that return the function (or a plain wrapper of it) without storing it away.
_INERT_DECORATORS = frozenset({"staticmethod", "classmethod", "property", "lru_cache", "cache", "wraps",
                               "cached_property", "total_ordering", "dataclass", "setter", "getter", "deleter"})


def _decorator_name(node: ast.expr) -> str:
    while isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _loads(unit: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(unit) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def escaped_units(tree: ast.Module) -> dict[ast.AST, set[str] | None]:
    """Defs handed to a decorator the analysis does not follow, each with the module-level
    names its decorators use (None: a decorator from elsewhere, which may put it anywhere).

    The decorator runs on import and may register the function in a list of handlers or a
    dict of commands; a graded function that uses one of those module-level names may call
    it from there."""
    top = {d.name: d for d in _top_level_defs(tree)}
    module_vars = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                   for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                   if isinstance(t, ast.Name)}
    out: dict[ast.AST, set[str] | None] = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        unknown = [d for d in node.decorator_list if _decorator_name(d) not in _INERT_DECORATORS]
        registries: set[str] | None = set()
        for dec in unknown:
            target = dec.func if isinstance(dec, ast.Call) else dec
            if registries is None:
                break
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id in module_vars:
                registries.add(target.value.id)            # @HANDLERS.append, @registry.add
            elif isinstance(target, ast.Name) and target.id in top:
                registries |= _loads(top[target.id]) & module_vars
            else:
                registries = None
        if unknown:
            out[node] = registries
    return out


def graded_units(tree: ast.Module, module_env: Mapping, edges: Mapping,
                 graded: Mapping[str, Sequence[str]]) -> dict[str, set]:
    """Graded function name -> every unit it may run: its own reach, the module's, and the
    functions decorators registered in a module-level name it uses."""
    defs = list(_top_level_defs(tree))
    base = reach(edges, [tree])
    escaped = escaped_units(tree)
    out = {}
    for name, accepted in graded.items():
        names = set(accepted) | {name}
        starts: list[ast.AST] = [d for d in defs if d.name in names]
        for alias in names:
            for v in module_env.get(alias, ()):
                if isinstance(v, (Func, Klass)):
                    starts.append(v.node)
        own = reach(edges, starts)
        reached = own | base
        used: set[str] = set()
        for unit in own:          # the names its own code uses (not the decorators run on import)
            used |= _loads(unit)
        for unit, registries in escaped.items():
            if unit not in reached and (registries is None or registries & used):
                reached |= reach(edges, [unit])
        out[name] = reached
    return out


def affected(units: Iterable[ast.AST], graded_reach: Mapping[str, set]) -> tuple[str, ...]:
    units = set(units)
    return tuple(name for name, reached in graded_reach.items() if units & reached)
