"""Mutants of a trusted reference: one small, plausible bug each, as source text.

Each operator imitates a mistake students make: a relational or arithmetic operator
swapped, an off-by-one constant or slice bound, a negated condition, a dropped statement,
an early return, swapped arguments. A mutant records the top-level name it lives in, so
the audit knows which graded functions can reach it.
"""
from __future__ import annotations

import ast
import copy
import difflib
from dataclasses import dataclass
from typing import Any, Callable, Iterator

_SWAP_COMPARE: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_SWAP_BINOP: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.FloorDiv: ast.Mult, ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.BitXor: ast.BitOr,
    ast.LShift: ast.RShift, ast.RShift: ast.LShift, ast.Pow: ast.Mult,
}
_NON_COMMUTATIVE = (ast.Sub, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift, ast.RShift)
_DROPPABLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.If, ast.For, ast.While,
              ast.Continue, ast.Break)


@dataclass(frozen=True)
class Mutant:
    """One mutated copy of the reference module."""

    id: int
    site: str  # the top-level function (or module-level name) the change is in
    line: int
    operator: str  # relational, arithmetic, constant, slice, negate, drop, early-return, swap-args, ...
    description: str
    source: str
    diff: str  # a unified diff of the changed lines, for the report


Replace = Callable[[Any], Any]  # a node -> its replacement


def _excluded(tree: ast.Module) -> set[int]:
    """Nodes never mutated: docstrings, annotations, f-strings, imports, raise messages, __all__."""
    skip: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            mark(body[0])
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            mark(node.returns)
            for arg in [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs, node.args.vararg, node.args.kwarg]:
                if arg is not None:
                    mark(arg.annotation)
            for default in node.args.defaults:
                mark(default)
            for decorator in node.decorator_list:
                mark(decorator)
        elif isinstance(node, ast.AnnAssign):
            mark(node.annotation)
        elif isinstance(node, (ast.JoinedStr, ast.Import, ast.ImportFrom, ast.Raise, ast.Global, ast.Nonlocal)):
            mark(node)
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            mark(node)
    return skip


def _owners(tree: ast.Module) -> dict[int, str]:
    """Node id -> the top-level def it is in, or the names a module-level statement assigns."""
    owner: dict[int, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = stmt.name
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            name = ",".join(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        else:
            continue
        for node in ast.walk(stmt):
            owner[id(node)] = name
    return owner


def _final_return(fn: ast.FunctionDef) -> ast.Return | None:
    returns = [n for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None]
    return returns[-1] if returns else None


def _candidates(node: Any, function: ast.FunctionDef | None) -> Iterator[tuple[str, str, Replace]]:
    """(operator, description, replacement) for every mutation this node allows.

    ``node`` is Any: each branch tests the node's class before it reads that class's fields.
    """
    old: type
    new: type
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _SWAP_COMPARE:
        old, new = type(node.ops[0]), _SWAP_COMPARE[type(node.ops[0])]
        yield "relational", f"{_op(old)} -> {_op(new)}", _setter(ops=[new()])
    if isinstance(node, ast.BinOp) and type(node.op) in _SWAP_BINOP:
        old, new = type(node.op), _SWAP_BINOP[type(node.op)]
        yield "arithmetic", f"{_op(old)} -> {_op(new)}", _setter(op=new())
        if isinstance(node.op, _NON_COMMUTATIVE):
            yield "swap-args", f"operands of {_op(old)} swapped", lambda n: _with(n, left=n.right, right=n.left)
    if isinstance(node, ast.AugAssign) and type(node.op) in _SWAP_BINOP:
        old, new = type(node.op), _SWAP_BINOP[type(node.op)]
        yield "arithmetic", f"{_op(old)}= -> {_op(new)}=", _setter(op=new())
    if isinstance(node, ast.BoolOp):
        new_op = ast.Or if isinstance(node.op, ast.And) else ast.And
        yield "logical", f"{_op(type(node.op))} -> {_op(new_op)}", _setter(op=new_op())
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        yield "negate", f"'{_op(type(node.op))}' removed", lambda n: n.operand
    constant: Any = node.value if isinstance(node, ast.Constant) else None
    if type(constant) is bool:
        yield "constant", f"{constant} -> {not constant}", _constant(not constant)
    elif type(constant) in (int, float):
        yield "constant", f"{constant} -> {constant + 1}", _constant(constant + 1)
        yield "constant", f"{constant} -> {constant - 1}", _constant(constant - 1)
    if isinstance(node, ast.Slice):
        for bound in ("lower", "upper"):
            value = getattr(node, bound)
            if value is not None and not isinstance(value, ast.Constant):
                yield "slice", f"slice {bound} bound +1", _setter(**{bound: ast.BinOp(value, ast.Add(), ast.Constant(1))})
                yield "slice", f"slice {bound} bound -1", _setter(**{bound: ast.BinOp(value, ast.Sub(), ast.Constant(1))})
    if isinstance(node, (ast.If, ast.While, ast.IfExp)):
        yield "negate", "condition negated", lambda n: _with(n, test=ast.UnaryOp(ast.Not(), n.test))
    if isinstance(node, ast.Call) and len(node.args) >= 2 and not any(isinstance(a, ast.Starred) for a in node.args[:2]) \
            and ast.dump(node.args[0]) != ast.dump(node.args[1]):
        yield "swap-args", "first two arguments swapped", lambda n: _with(n, args=[n.args[1], n.args[0], *n.args[2:]])
    if isinstance(node, ast.Break):
        yield "flow", "break -> continue", lambda n: ast.Continue()
    if isinstance(node, ast.Continue):
        yield "flow", "continue -> break", lambda n: ast.Break()
    if function is not None and isinstance(node, _DROPPABLE):
        yield "drop", f"statement dropped ({type(node).__name__.lower()})", lambda n: ast.Pass()
    if function is not None and isinstance(node, ast.If):
        final = _final_return(function)
        if final is not None and not (node.body and isinstance(node.body[0], ast.Return)):
            yield "early-return", "early return inserted", _setter(body=[copy.deepcopy(final), *node.body])


def _setter(**fields: Any) -> Replace:
    """A replacement that sets ``fields`` on a copy of the node."""
    def replace(node: Any) -> Any:
        return _with(node, **fields)
    return replace


def _constant(value: Any) -> Replace:
    def replace(node: Any) -> Any:
        return ast.Constant(value)
    return replace


def _with(node: ast.AST, **fields: object) -> ast.AST:
    clone = copy.copy(node)
    for key, value in fields.items():
        setattr(clone, key, value)
    return clone


def _op(kind: type) -> str:
    names: dict[type, str] = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.In: "in",
             ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+", ast.Sub: "-", ast.Mult: "*",
             ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
             ast.LShift: "<<", ast.RShift: ">>", ast.Pow: "**", ast.And: "and", ast.Or: "or", ast.Not: "not",
             ast.USub: "-"}
    return names.get(kind, kind.__name__)


def _points(tree: ast.Module) -> list[tuple[int, str, str, str, int, Replace]]:
    """Every mutation point: (walk index, site, operator, description, line, replacement)."""
    skip, owner = _excluded(tree), _owners(tree)
    enclosing: dict[int, ast.FunctionDef] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            for node in ast.walk(fn):
                if node is not fn:
                    enclosing[id(node)] = fn  # walk is breadth-first: an inner def overrides its outer one
    points = []
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skip or id(node) not in owner:
            continue
        for operator, description, replace in _candidates(node, enclosing.get(id(node))):
            points.append((index, owner[id(node)], operator, description, getattr(node, "lineno", 0), replace))
    return points


def _parents(tree: ast.Module) -> dict[int, tuple[ast.AST, str]]:
    """Node id -> (parent, field name) for every node of ``tree``."""
    parents: dict[int, tuple[ast.AST, str]] = {}
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    parents[id(child)] = (parent, field)
    return parents


def _unparse_with(top: ast.stmt, target: ast.AST, parent: ast.AST, field: str, replace: Replace) -> str:
    """The source of the top-level statement ``top`` with ``target`` replaced, leaving the tree as it was."""
    old = getattr(parent, field)
    new = [replace(item) if item is target else item for item in old] if isinstance(old, list) else replace(target)
    setattr(parent, field, new)
    try:
        return ast.unparse(top)
    finally:
        setattr(parent, field, old)


def mutants(source: str, filename: str = "reference.py") -> list[Mutant]:
    """Every mutant of ``source``; mutants whose text equals the original are left out.

    Only the top-level statement holding the change is unparsed again, so making hundreds
    of mutants of a module takes well under a second.
    """
    tree = ast.parse(source, filename)
    tops = {id(node): i for i, stmt in enumerate(tree.body) for node in ast.walk(stmt)}
    texts = [ast.unparse(stmt) for stmt in tree.body]
    parents = _parents(tree)
    nodes = list(ast.walk(tree))
    out: list[Mutant] = []
    seen: set[tuple[int, str]] = set()
    for index, site, operator, description, line, replace in _points(tree):
        target = nodes[index]
        top = tops[id(target)]
        parent, field = parents[id(target)]
        text = _unparse_with(tree.body[top], target, parent, field, replace)
        if text == texts[top] or (top, text) in seen:
            continue
        seen.add((top, text))
        diff = "".join(difflib.unified_diff([f"{x}\n" for x in texts[top].splitlines()], [f"{x}\n" for x in text.splitlines()],
                                            f"{filename}:{line}", "mutant", n=1))
        module = "\n\n".join([*texts[:top], text, *texts[top + 1:]]) + "\n"
        out.append(Mutant(len(out), site, line, operator, description, module, diff))
    return out


def reach(source: str) -> dict[str, set[str]]:
    """Top-level name -> every top-level name (function or module-level value) it can reach."""
    tree = ast.parse(source)
    owner_names: dict[str, set[str]] = {}
    defined: set[str] = set()
    for stmt in tree.body:
        names = set(_owners(ast.Module(body=[stmt], type_ignores=[])).values())
        for name in names:
            defined.update(name.split(","))
            used = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
            owner_names.setdefault(name, set()).update(used)
    edges = {owner: {o for o in owner_names if set(o.split(",")) & used} for owner, used in owner_names.items()}
    closure: dict[str, set[str]] = {}
    for start in edges:
        seen, todo = {start}, [start]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        closure[start] = seen
    return closure
