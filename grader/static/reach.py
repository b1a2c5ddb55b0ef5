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


def graded_units(tree: ast.Module, module_env: Mapping, edges: Mapping,
                 graded: Mapping[str, Sequence[str]]) -> dict[str, set]:
    """Graded function name -> every unit it may run (its own reach plus the module's)."""
    defs = list(_top_level_defs(tree))
    base = reach(edges, [tree])
    out = {}
    for name, accepted in graded.items():
        names = set(accepted) | {name}
        starts: list[ast.AST] = [d for d in defs if d.name in names]
        for alias in names:
            for v in module_env.get(alias, ()):
                if isinstance(v, (Func, Klass)):
                    starts.append(v.node)
        out[name] = reach(edges, starts) | base
    return out


def affected(units: Iterable[ast.AST], graded_reach: Mapping[str, set]) -> tuple[str, ...]:
    units = set(units)
    return tuple(name for name, reached in graded_reach.items() if units & reached)
