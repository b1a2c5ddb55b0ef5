"""Banned functions in .m files, found before anything runs (tree-sitter's MATLAB grammar).

The spec's ``bans:`` names are qualified Python names (``builtins.sum``); :data:`MATLAB_NAMES`
says which MATLAB function each stands for, and ``matlab.NAME`` names one directly.

A use of a banned function ``sum`` is found wherever MATLAB would reach it:
- called or named directly: ``sum(x)``, ``sum x``, ``y = sum;``;
- through a handle: ``@sum`` (so ``f = @sum; f(x)`` and ``cellfun(@sum, c)``), and inside
  anonymous functions ``@(v) sum(v)``;
- by name in a string: ``feval('sum', x)``, ``str2func('sum')``, ``builtin('sum', x)``,
  ``cellfun('sum', c)``, with constant strings folded (``['s' 'um']``, a variable only ever
  assigned ``'sum'``);
- in code held in a string: ``eval('s = sum(x);')``, ``evalc``, ``evalin('base', ...)``
  (the string is parsed and analysed as code).
A string that cannot be folded to a constant in ``eval``/``feval``/``str2func``/... is
``dynamic-code`` (the spec's ``dynamic_code`` policy decides). A name the student defines
(a variable, or their own function ``sum``) shadows the builtin and is not a use.
Also ``dynamic-code``: what lets code the analysis never read run, or switches the run-time
tripwire off (:data:`TAMPER`: path and folder changes, scripts, shell commands, ``mlock``; a
file opened for writing, since a ``.m`` file written at run time is code nobody analysed;
``clear all``/``clear functions``; naming the grader's own ``grader_..._`` functions).
Findings count against the graded functions that reach them (``scope: reachable``), or
every graded function whose file holds them (``scope: file``).
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from grader.languages import matlab_files as mf
from grader.static.bans import Finding

#: Python qualified names (as specs write them) -> the MATLAB functions they stand for.
MATLAB_NAMES: dict[str, tuple[str, ...]] = {
    "builtins.sum": ("sum",), "math.fsum": ("sum",), "numpy.sum": ("sum",), "numpy.ndarray.sum": ("sum",),
    "numpy.add.reduce": ("sum",), "numpy.nansum": ("sum", "nansum"),
    "numpy.cumsum": ("cumsum",), "numpy.ndarray.cumsum": ("cumsum",), "numpy.nancumsum": ("cumsum",),
    "numpy.add.accumulate": ("cumsum",), "itertools.accumulate": ("cumsum",),
    "numpy.mean": ("mean",), "numpy.ndarray.mean": ("mean",), "numpy.nanmean": ("mean", "nanmean"),
    "numpy.average": ("mean",), "statistics.mean": ("mean",), "statistics.fmean": ("mean",),
    "numpy.prod": ("prod",), "math.prod": ("prod",), "numpy.cumprod": ("cumprod",),
    "numpy.median": ("median",), "statistics.median": ("median",), "statistics.mode": ("mode",),
    "builtins.max": ("max",), "builtins.min": ("min",), "numpy.max": ("max",), "numpy.min": ("min",),
    "builtins.sorted": ("sort",), "numpy.sort": ("sort",), "numpy.unique": ("unique",),
    "numpy.flip": ("flip", "fliplr", "flipud"), "builtins.reversed": ("flip", "fliplr", "flipud"),
    "str.join": ("strjoin",), "str.split": ("strsplit",), "str.replace": ("strrep",),
}
#: Functions whose first argument (evalin: second) names the function they run, or holds code.
BY_NAME: dict[str, int] = {"feval": 0, "str2func": 0, "builtin": 0, "cellfun": 0, "arrayfun": 0, "nthargout": 1}
CODE: dict[str, int] = {"eval": 0, "evalc": 0, "evalin": 1}
#: Calls that run code the analysis never read, or could switch the run-time tripwire off (a red team
#: wrote a .m file calling builtin('sum') at run time, and rmpath'd or cleared the tripwire): dynamic code.
TAMPER: dict[str, str] = {
    **dict.fromkeys(("addpath", "rmpath", "path", "restoredefaultpath", "cd", "chdir", "rehash", "pkg"),
                    "changes where MATLAB finds functions"),
    **dict.fromkeys(("run", "source"), "runs a script file"),
    **dict.fromkeys(("system", "unix", "dos", "shell_cmd", "popen", "popen2", "fork", "exec", "dup2"),
                    "runs a shell command or writes to the grader's channel (a forged reply frame once went by popen)"),
    **dict.fromkeys(("mlock", "munlock"), "locks or unlocks functions in memory"),
    **dict.fromkeys(("copyfile", "movefile", "save", "diary"), "writes a file (a .m file written at run time is code nobody read)"),
}
#: Of these, only a call with arguments (``path`` and ``cd`` alone just answer where things are).
WITH_ARGUMENTS = {"path", "cd", "chdir"}
CLEARS = {"clear", "clearvars"}
CLEARS_CODE = {"all", "-all", "-a", "functions", "-functions", "-f", "classes", "-classes", "-c"}
#: The grader's own functions in Octave (``matlab_m/server``): a student's code has no business naming them.
RESERVED = re.compile(r"grader_\w*_")


def matlab_names(names: Iterable[str]) -> dict[str, str]:
    """MATLAB function -> the spec's name it comes from (``matlab.sum`` -> ``sum``)."""
    out: dict[str, str] = {}
    for name in names:
        if name.startswith("matlab."):
            out.setdefault(name[len("matlab."):], name)
        for m in MATLAB_NAMES.get(name, ()):
            out.setdefault(m, name)
    return out


@dataclass(frozen=True)
class Use:
    """A use found in one function: of a banned function, of another function, or of dynamic code."""

    kind: str          # "banned" | "calls" | "dynamic"
    name: str
    line: int
    col: int
    how: str


class _Scan:
    """The uses inside one function definition (nested code and eval strings included)."""

    def __init__(self, fn: mf.Function, source: bytes, banned: set[str], defined: set[str]):
        self.fn, self.banned, self.defined = fn, banned, defined
        self.text = source           # the bytes the nodes being walked point into (an eval string's, inside one)
        # A "variable" named builtin, feval or eval (assigned in a branch that never runs) is the
        # function where it is called: no honest code names a variable so.
        self.variables = _variables(fn.node) - set(BY_NAME) - set(CODE)
        self.constants = _string_constants(fn.node, self.variables, source)
        self.uses: list[Use] = []

    def run(self) -> list[Use]:
        body = next((c for c in self.fn.node.children if c.type == "block"), None)
        if body is not None:
            self.walk(body, 0)
        broken = _first_error(self.fn.node)
        if broken is not None:     # Octave may run what the grammar cannot read (a backslash continuing a line)
            self.flag("syntax", broken, 0, how="the grader cannot read this line as MATLAB (Octave-only syntax?), "
                                               "so it is not checked for banned functions")
        return self.uses

    def name_use(self, name: str, node: Any, how: str, line_shift: int = 0) -> None:
        line, col = node.start_point[0] + 1 + line_shift, node.start_point[1] + 1
        if name in self.variables:
            return
        if name in self.defined:
            self.uses.append(Use("calls", name, line, col, how))
        elif name in self.banned:
            self.uses.append(Use("banned", name, line, col, how))

    def walk(self, node: Any, shift: int) -> None:
        kind = node.type
        if kind == "identifier" and node.parent is not None and not _is_field(node):
            handle = node.parent.type == "handle_operator"
            self.name_use(node.text.decode(), node, f"taken as a handle (@{node.text.decode()})" if handle else "called", shift)
            if handle:
                self.runs_by_name(node.text.decode(), node, shift, f"taken as a handle (@{node.text.decode()})")
        elif kind == "command_name":
            self.name_use(node.text.decode(), node, "called in command syntax", shift)
        if kind in ("identifier", "string_content") and RESERVED.fullmatch(node.text.decode("utf-8", "replace")):
            name = node.text.decode()
            self.flag(name, node, shift, how=f"`{name}` names one of the grader's own functions")
        if kind == "string" and _continued(node, self.text):
            self.flag("string", node, shift, how="a string continued on the next line by a backslash (Octave only, "
                                                  "and not read by the grader)")
        if kind == "function_call":
            self.dynamic(node, shift)
            self.tamper(node, shift)
        elif kind == "command":
            self.tamper(node, shift)
        for child in node.children:
            self.walk(child, shift)

    def dynamic(self, call: Any, shift: int) -> None:
        callee = next((c for c in call.children if c.type == "identifier"), None)
        if callee is None or callee.text.decode() in self.variables:
            return
        name = callee.text.decode()
        args_node = next((c for c in call.children if c.type == "arguments"), None)
        args = [a for a in args_node.children if a.is_named] if args_node is not None else []
        if name in BY_NAME and len(args) > BY_NAME[name]:
            value = self.fold(args[BY_NAME[name]])
            if value is None:
                if name in ("feval", "str2func", "builtin"):
                    self.flag(name, call, shift)
            elif name == "str2func" and value.lstrip().startswith("@"):     # an anonymous function's code
                self.walk_code(value, args[BY_NAME[name]], shift)
            else:
                self.name_use(value, args[BY_NAME[name]], f"named in {name}('{value}', ...)", shift)
                self.runs_by_name(value, args[BY_NAME[name]], shift, f"named in {name}('{value}', ...)")
        elif name in CODE and len(args) > CODE[name]:
            value = self.fold(args[CODE[name]])
            if value is None:
                self.flag(name, call, shift)
            else:
                self.walk_code(value, args[CODE[name]], shift)

    def walk_code(self, code: str, where: Any, shift: int) -> None:
        """Code held in a string (eval's, an anonymous function given to str2func)."""
        line = where.start_point[0] + shift
        outer, self.text = self.text, code.encode()
        try:
            for inner in mf.parse(self.text).root_node.children:
                self.walk_string(inner, line)
        finally:
            self.text = outer

    def walk_string(self, node: Any, shift: int) -> None:
        before = len(self.uses)
        self.walk(node, shift)
        for i in range(before, len(self.uses)):
            u = self.uses[i]
            self.uses[i] = Use(u.kind, u.name, u.line, u.col, f"{u.how} inside an eval string")

    def runs_by_name(self, name: str, node: Any, shift: int, how: str) -> None:
        """``builtin``, ``feval``, ``eval``... reached indirectly (``c = {@builtin}; c{1}('sum', x)``,
        ``feval('builtin', 'sum', x)``): what they run is not read, so it is dynamic code."""
        if (name in BY_NAME or name in CODE) and name not in self.variables | self.defined:
            self.flag(name, node, shift, how=f"`{name}` is {how}: what it runs cannot be read before running it")

    def tamper(self, call: Any, shift: int) -> None:
        """A call (or command) that lets unread code run or could switch the tripwire off."""
        callee = next((c for c in call.children if c.type in ("identifier", "command_name")), None)
        if callee is None or callee.text.decode() in self.variables | self.defined:
            return
        name = callee.text.decode()
        if call.type == "command":
            args: list[str | None] = [c.text.decode("utf-8", "replace") for c in call.children if c.type == "command_argument"]
        else:
            node = next((c for c in call.children if c.type == "arguments"), None)
            args = [self.fold(a) for a in node.children if a.is_named] if node is not None else []
        if name in TAMPER and (args or name not in WITH_ARGUMENTS):
            self.flag(name, call, shift, TAMPER[name])
        elif name == "fopen" and len(args) >= 2 and (args[1] is None or set(args[1]) & set("wa+")):
            self.flag(name, call, shift, "opens a file for writing (a .m file written at run time is code nobody read)")
        elif name in CLEARS and any(a is None or a in CLEARS_CODE for a in args):
            self.flag(name, call, shift, "clears functions from memory (the grader's ban tripwire among them)")

    def flag(self, name: str, node: Any, shift: int, why: str = "", how: str = "") -> None:
        how = how or (f"{name}(...) {why}" if why else f"{name}(...) with a name or code the grader cannot read before running it")
        self.uses.append(Use("dynamic", name, node.start_point[0] + 1 + shift, node.start_point[1] + 1, how))

    def fold(self, node: Any) -> str | None:
        """The constant string an expression always is, or None."""
        if node.type == "string":
            return string_value(node, self.text)
        if node.type == "identifier":
            return self.constants.get(node.text.decode())
        if node.type == "matrix":
            rows = [c for c in node.children if c.type == "row"]
            if len(rows) == 1:
                parts = [self.fold(c) for c in rows[0].children if c.is_named]
                return None if any(p is None for p in parts) else "".join(p for p in parts if p is not None)
        if node.type == "function_call" and node.children and node.children[0].text == b"strcat":
            args = next((c for c in node.children if c.type == "arguments"), None)
            parts = [self.fold(c) for c in args.children if c.is_named] if args is not None else []
            return None if any(p is None for p in parts) else "".join(p for p in parts if p is not None)
        return None


_ESCAPE = re.compile(rb'\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)|""', re.S)
_SIMPLE = {b"a": 7, b"b": 8, b"f": 12, b"n": 10, b"r": 13, b"t": 9, b"v": 11}


def _continued(node: Any, text: bytes) -> bool:
    """A double-quoted string that Octave continues on the next line (see ``mf.as_octave_reads``)."""
    return node.end_byte > node.start_byte and text[node.end_byte - 1:node.end_byte] == b"\\"


def string_value(node: Any, text: bytes) -> str | None:
    """A string literal's value as Octave reads it: ``''`` in single quotes; in double quotes ``""``
    and backslash escapes (``"\\x73um"`` is ``sum``, which the grammar's raw text hid); None for a
    string it cannot read (unterminated, or continued on the next line)."""
    raw = node.text
    if len(raw) < 2 or raw[:1] not in b"'\"" or raw[-1:] != raw[:1] or _continued(node, text):
        return None
    if raw[:1] == b"'":
        return raw[1:-1].replace(b"''", b"'").decode("utf-8", "replace")
    return _ESCAPE.sub(_unescape, raw[1:-1]).decode("utf-8", "replace")


def _unescape(match: re.Match[bytes]) -> bytes:
    code = match.group(1)
    if code is None:
        return b'"'
    if code[:1] == b"x":
        return bytes([int(code[1:], 16)])
    if code[:1] in b"01234567":
        return bytes([int(code, 8) & 0xFF])
    return bytes([_SIMPLE[code]]) if code in _SIMPLE else code


def _first_error(node: Any) -> Any:
    """The first place in a definition the grammar could not parse, or None."""
    if not node.has_error:
        return None
    for child in node.children:
        if child.type == "ERROR" or child.is_missing:
            return child
        found = _first_error(child)
        if found is not None:
            return found
    return node


def _is_field(node: Any) -> bool:
    parent = node.parent
    return parent.type == "field_expression" and parent.children[0] is not node


def _variables(fn: Any) -> set[str]:
    """Names MATLAB treats as variables in a function: parameters, outputs, anything assigned or looped over."""
    names: set[str] = set()
    for child in fn.children:
        if child.type in ("function_output", "function_arguments"):
            names |= {n.text.decode() for n in _descendants(child) if n.type == "identifier"}
    for node in _descendants(fn):
        if node.type == "assignment":
            left = node.children[0]
            if left.type == "identifier":
                names.add(left.text.decode())
            elif left.type == "function_call":                     # x(3) = ...
                names.add(left.children[0].text.decode())
            elif left.type == "multioutput_variable":
                names |= {n.text.decode() for n in left.children if n.type == "identifier"}
        elif node.type in ("for_statement", "iterator"):
            first = next((c for c in node.children if c.type == "identifier"), None)
            if first is not None:
                names.add(first.text.decode())
        elif node.type in ("global_operator", "persistent_operator"):
            names |= {n.text.decode() for n in node.children if n.type == "identifier"}
    return names


def _string_constants(fn: Any, variables: set[str], text: bytes) -> dict[str, str]:
    """Variables only ever assigned one constant string (``f = 'sum'; feval(f, x)``)."""
    seen: dict[str, set[str | None]] = defaultdict(set)
    for node in _descendants(fn):
        if node.type == "assignment" and node.children[0].type == "identifier":
            right = node.children[-1]
            value = string_value(right, text) if right.type == "string" else None
            seen[node.children[0].text.decode()].add(value)
    return {k: next(iter(v)) for k, v in seen.items() if len(v) == 1 and None not in v}  # type: ignore[misc]


def _descendants(node: Any) -> Iterable[Any]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


# ------------------------------------------------------------------ per graded function
def findings(files: Mapping[str, bytes], layout: mf.Layout, spec_names: Iterable[str],
             graded: Mapping[str, str], scope: str) -> list[Finding]:
    """Every use of a banned function (or dynamic code), with the graded functions it costs.

    ``graded``: graded function name -> the name Octave calls it by in this submission.
    """
    banned = matlab_names(spec_names)
    if not banned:
        return []
    defined = set(layout.callable) | {f.name for f in layout.functions}
    uses: dict[tuple[str, str], list[Use]] = {}
    for fn in layout.functions:
        uses[(fn.file, fn.name)] = _Scan(fn, files[fn.file], set(banned) - defined, defined).run()
    reach = _reach(layout, uses, graded, scope)
    out = []
    for (file, name), found in uses.items():
        costs = tuple(g for g, units in reach.items() if (file, name) in units)
        lines = files[file].decode("utf-8", "replace").splitlines()
        for use in found:
            if use.kind == "calls":
                continue
            text = lines[use.line - 1].strip() if 0 < use.line <= len(lines) else ""
            if use.kind == "banned":
                message = f"`{use.name}` is {use.how} in {file}; {use.name} is banned in this assignment ({banned[use.name]})."
                out.append(Finding("banned-call", banned[use.name], file, use.line, use.col, text, costs, False, message))
            else:
                out.append(Finding("dynamic-code", use.name, file, use.line, use.col, text, costs, True, f"{use.how} ({file})"))
    return out


def _reach(layout: mf.Layout, uses: Mapping[tuple[str, str], list[Use]], graded: Mapping[str, str],
           scope: str) -> dict[str, set[tuple[str, str]]]:
    """Graded function -> the function definitions (file, name) whose findings it pays for."""
    by_file: dict[str, list[mf.Function]] = defaultdict(list)
    for fn in layout.functions:
        by_file[fn.file].append(fn)

    def resolve(name: str, from_file: str) -> tuple[str, str] | None:
        local = next((f for f in by_file[from_file] if f.name == name), None)   # a local function wins
        if local is not None:
            return (local.file, local.name)
        home = layout.callable.get(name)
        if home is None:
            return None
        first = next((f for f in by_file[home[0]] if f.first_line == home[1]), None)
        return (first.file, first.name) if first is not None else None

    out: dict[str, set[tuple[str, str]]] = {}
    for graded_name, called_as in graded.items():
        start = resolve(called_as, layout.callable.get(called_as, ("", 0))[0])
        if start is None:
            continue
        if scope == "file":
            out[graded_name] = {(f.file, f.name) for f in by_file[start[0]]}
            continue
        seen, todo = set(), [start]
        while todo:
            unit = todo.pop()
            if unit in seen:
                continue
            seen.add(unit)
            for use in uses.get(unit, []):
                if use.kind == "calls":
                    target = resolve(use.name, unit[0])
                    if target is not None:
                        todo.append(target)
        out[graded_name] = seen
    return out
