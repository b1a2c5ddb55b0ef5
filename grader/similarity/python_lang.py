"""Python normalised through its own parser (``ast``).

What a disguise changes is dropped or made canonical: the student's own names become ``V``
(names of the library they call stay, they are evidence), every literal becomes ``L``,
comments and layout never reach the tree, docstrings, ``pass``, ``if False:`` blocks, code after
``return``, assignments to names read nowhere and functions called nowhere are dead code and
dropped, ``x += y`` reads as ``x = x + y``, and every loop is ``LOOP`` + its body whether it
was written ``for x in xs``, ``for i in range(len(xs)): x = xs[i]`` or as a counting ``while``.
"""
from __future__ import annotations

import ast
from collections import Counter
from typing import Iterable

from grader.similarity.model import Normalised, Token, Unit

_JUMPS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
MAX_REPAIRS = 20


def normalise(files: dict[str, str], entry_points: frozenset[str]) -> Normalised:
    """Every file of one Python submission as units of tokens (syntax errors noted, never raised)."""
    result = Normalised(language="python", units=[])
    for name, text in files.items():
        tree, note = _parse(text, name)
        if note:
            result.notes.append(note)
        if tree is not None:
            result.units.extend(_Walker(tree, name, entry_points).units())
    return result


def _parse(text: str, name: str) -> tuple[ast.Module | None, str]:
    """Parse; on a syntax error, repair the offending line and retry so the rest is still compared."""
    lines = text.splitlines()
    repaired: list[int] = []
    error = _syntax_error(lines, name)
    if isinstance(error, ast.Module):
        return error, ""
    if error is None:
        return _parse_blocks(lines, name)
    first = error
    for _ in range(MAX_REPAIRS):
        line = error.lineno or 0
        if not 1 <= line <= len(lines):
            break
        for candidate in _repairs(lines, line):
            outcome = _syntax_error(candidate, name)
            if isinstance(outcome, ast.Module):
                where = ", ".join(map(str, sorted({*repaired, line})))
                return outcome, f"{name}: syntax error at line {first.lineno} ({first.msg}); compared with line(s) {where} repaired"
            if outcome is not None and (outcome.lineno or 0) > line:
                lines, error = candidate, outcome
                repaired.append(line)
                break
        else:
            break
    return None, f"{name}: syntax error at line {first.lineno} ({first.msg}); not compared"


def _parse_blocks(lines: list[str], name: str) -> tuple[ast.Module | None, str]:
    """A file the parser cannot hold (an expression nested 10,000 deep), read a top-level block
    at a time, the blocks that still cannot be parsed left out: a copy padded with one such
    function was left out whole, and the pair it made was never scored."""
    starts = [i for i, line in enumerate(lines) if line[:1].strip() and not line.startswith(("#", ")", "]", "}"))]
    starts = [i for n, i in enumerate(starts) if n == 0 or not lines[starts[n - 1]].startswith("@")]  # with its decorators
    body: list[ast.stmt] = []
    left_out: list[int] = []
    for start, end in zip(starts, [*starts[1:], len(lines)]):
        block = _syntax_error(lines[start:end], name)
        if isinstance(block, ast.Module):
            body.extend(ast.increment_lineno(stmt, start) for stmt in block.body)
        else:
            left_out.append(start + 1)
    if not body:
        return None, f"{name}: cannot be parsed (too large or too deeply nested); not compared"
    where = ", ".join(map(str, left_out))
    return ast.Module(body=body, type_ignores=[]), (f"{name}: the code at line(s) {where} cannot be parsed (too "
                                                    "large or too deeply nested); the rest compared")


def _syntax_error(lines: list[str], name: str) -> ast.Module | SyntaxError | None:
    try:
        return ast.parse("\n".join(lines), filename=name)
    except SyntaxError as exc:
        return exc
    except (ValueError, RecursionError, MemoryError):
        return None


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _repairs(lines: list[str], line: int) -> list[list[str]]:
    """Ways to mend the line a syntax error points at: a missing colon above it, or the line
    replaced by ``pass`` at its own or the previous line's indentation."""
    i = line - 1
    previous = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
    options = []
    if i > 0 and lines[i - 1].rstrip() and not lines[i - 1].rstrip().endswith(":"):
        options.append(lines[: i - 1] + [lines[i - 1].rstrip() + ":"] + lines[i:])
    if lines[i].rstrip() and not lines[i].rstrip().endswith(":"):
        options.append(lines[:i] + [lines[i].rstrip() + ":"] + lines[i + 1:])
    for indent in (_indent(lines[i]), _indent(previous)):
        options.append(lines[:i] + [indent + "pass"] + lines[i + 1:])
    return options


def _names(tree: ast.AST) -> tuple[Counter[str], set[str]]:
    """How often each name occurs, and which names the student chose: anything defined,
    assigned, imported as, or a parameter (one walk of the tree)."""
    counts: Counter[str] = Counter()
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            counts[node.id] += 1
            if not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
        elif isinstance(node, ast.Attribute):
            counts[node.attr] += 1
            if isinstance(node.ctx, ast.Store):
                bound.add(node.attr)
        elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            counts[node.name] += 1
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            counts[node.arg] += 1
            bound.add(node.arg)
        elif isinstance(node, ast.alias):
            bound.add(node.asname or node.name.split(".")[0])
    return counts, bound


def _is_constant(node: ast.expr, truth: bool) -> bool:
    return isinstance(node, ast.Constant) and bool(node.value) is truth


def _assigned_name(stmt: ast.stmt) -> str | None:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and isinstance(stmt.target, ast.Name):
        return stmt.target.id
    return None


def _mentions(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


class _Walker:
    """One file's tree to units of tokens."""

    def __init__(self, tree: ast.Module, file: str, entry_points: frozenset[str]):
        self.tree, self.file, self.entry_points = tree, file, entry_points
        # A file with none of the names the grader calls may have misnamed them: then no
        # function counts as dead for being called nowhere.
        self.prune_functions = any(isinstance(n, _FUNCTIONS) and n.name in entry_points for n in ast.walk(tree))
        self.counts, self.bound = _names(tree)
        self.found: list[Unit] = []
        self.line = 1

    def units(self) -> list[Unit]:
        top = Unit(self.file, "<module>")
        self.block(self.tree.body, top.tokens)
        self.found.append(top)
        return [u for u in self.found if u.tokens]

    # ------------------------------------------------------------------ dead code

    def live(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            if isinstance(stmt, ast.If) and _is_constant(stmt.test, False):
                out.extend(self.live(stmt.orelse))
                continue
            if isinstance(stmt, ast.If) and _is_constant(stmt.test, True):
                out.extend(self.live(stmt.body))
                continue
            if not self.dead(stmt):
                out.append(stmt)
            if isinstance(stmt, _JUMPS):
                break
        return out

    def dead(self, stmt: ast.stmt) -> bool:
        if isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            return True
        if isinstance(stmt, ast.While) and _is_constant(stmt.test, False):
            return True
        if isinstance(stmt, _FUNCTIONS):
            return (self.prune_functions and self.counts[stmt.name] <= 1 and stmt.name not in self.entry_points
                    and not stmt.name.startswith("__"))
        name = _assigned_name(stmt)
        return name is not None and self.counts[name] <= 1

    # ------------------------------------------------------------------ emission

    def emit(self, out: list[Token], label: str) -> None:
        out.append(Token(label, self.line))

    def label(self, name: str) -> str:
        return "V" if name in self.bound else name

    def block(self, stmts: list[ast.stmt], out: list[Token]) -> None:
        stmts = self.live(stmts)
        i = 0
        while i < len(stmts):
            stmt, following = stmts[i], stmts[i + 1] if i + 1 < len(stmts) else None
            counter = _assigned_name(stmt)
            if counter and isinstance(following, ast.While) and self.counting(following, counter):
                # `i = 0; while i < n: ...; i += 1` is the same loop as `for i in range(n)`.
                self.line = following.lineno
                self.loop(following.body[:-1], counter, out)
                self.block(following.orelse, out)
                i += 2
                continue
            self.statement(stmt, out)
            i += 1

    @staticmethod
    def counting(loop: ast.While, counter: str) -> bool:
        return bool(loop.body) and _mentions(loop.test, counter) and _assigned_name(loop.body[-1]) == counter

    def loop(self, body: list[ast.stmt], index: str | None, out: list[Token]) -> None:
        self.emit(out, "LOOP")
        first = body[0] if body else None
        if index and isinstance(first, ast.Assign) and isinstance(first.value, ast.Subscript) and _mentions(first.value.slice, index):
            body = body[1:]  # `x = xs[i]` at the top of a counting loop is `for x in xs`
        self.block(body, out)

    def statement(self, stmt: ast.stmt, out: list[Token]) -> None:
        self.line = stmt.lineno
        if isinstance(stmt, _FUNCTIONS):
            self.function(stmt)
        elif isinstance(stmt, ast.ClassDef):
            unit = Unit(self.file, stmt.name)
            self.emit(unit.tokens, "class")
            self.children([*stmt.bases, *stmt.keywords, *stmt.decorator_list], unit.tokens)
            self.block(stmt.body, unit.tokens)
            self.found.append(unit)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            index = stmt.target.id if isinstance(stmt.target, ast.Name) else None
            self.loop(stmt.body, index, out)
            self.block(stmt.orelse, out)
        elif isinstance(stmt, ast.While):
            self.emit(out, "LOOP")
            if not _is_constant(stmt.test, True):
                self.node(stmt.test, out)
            self.block(stmt.body, out)
            self.block(stmt.orelse, out)
        elif isinstance(stmt, ast.AugAssign):
            self.emit(out, "Assign")
            self.node(stmt.target, out)
            self.emit(out, "BinOp")
            self.node(stmt.target, out)
            self.emit(out, type(stmt.op).__name__)
            self.node(stmt.value, out)
        else:
            self.node(stmt, out)

    def function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        unit = Unit(self.file, fn.name)
        self.emit(unit.tokens, "def")
        self.children([*fn.decorator_list, fn.args], unit.tokens)
        self.block(fn.body, unit.tokens)
        self.found.append(unit)

    def children(self, nodes: Iterable[ast.AST], out: list[Token]) -> None:
        for child in nodes:
            self.node(child, out)

    def node(self, node: ast.AST, out: list[Token]) -> None:
        if isinstance(node, ast.expr_context):
            return
        self.line = getattr(node, "lineno", self.line)
        if isinstance(node, ast.Name):
            self.emit(out, self.label(node.id))
        elif isinstance(node, ast.Constant):
            self.emit(out, "L")
        elif isinstance(node, ast.Attribute):
            self.node(node.value, out)
            self.emit(out, "." + self.label(node.attr))
        elif isinstance(node, ast.arg):
            self.emit(out, "V")
        elif isinstance(node, ast.keyword):
            self.emit(out, f"{self.label(node.arg)}=" if node.arg else "**")
            self.node(node.value, out)
        elif isinstance(node, ast.alias):
            self.emit(out, f"import {node.name}")
        elif isinstance(node, ast.stmt) and not isinstance(node, ast.Expr):
            self.emit(out, type(node).__name__)
            self.fields(node, out)
        elif isinstance(node, ast.Expr):
            self.node(node.value, out)
        else:
            self.emit(out, type(node).__name__)
            self.fields(node, out)

    def fields(self, node: ast.AST, out: list[Token]) -> None:
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                if value and isinstance(value[0], ast.stmt):
                    self.block(value, out)
                else:
                    self.children((v for v in value if isinstance(v, ast.AST)), out)
            elif isinstance(value, ast.AST):
                self.node(value, out)
