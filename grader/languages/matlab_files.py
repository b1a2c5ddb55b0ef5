"""What a MATLAB submission holds: its .m files, the functions they define, and how Octave sees them.

A submission is a folder of ``.m`` files, one function per file as the course asks
(``war.m`` defines ``war``), or a single file holding several functions, as some students
hand in. MATLAB only calls the first function of a file from outside, by the file's
name; the others are local to it. So a graded function that sits inside another file is
*split out*: written to its own ``name.m`` (with the file's other functions beside it, so
its helpers stay reachable), padded with blank lines so every line number in an error
still points at the student's own file. Scripts and helper functions are allowed and
never run on their own.

Parsing is tree-sitter's MATLAB grammar, shared with the ban analysis.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

SUFFIX = ".m"
#: The grader's own functions in Octave (``matlab_m/server``): a student's file of such a name would
#: shadow the call server and its ban tripwire (the student's folder comes first), so it is not loaded.
RESERVED = re.compile(r"grader_\w*_")


@functools.lru_cache(maxsize=1)
def parser() -> Any:
    """The tree-sitter parser for MATLAB (a dependency: ``tree-sitter-matlab``)."""
    import tree_sitter_matlab
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_matlab.language()))


SERVER = Path(__file__).with_name("matlab_m") / "server"
#: Called in text the server runs: the recorders grader_trip_.m writes out, the call grader_call_ evaluates.
IN_TEXT_CALLS = frozenset({"builtin", "feval"})


@functools.lru_cache(maxsize=1)
def server_calls() -> frozenset[str]:
    """Every function the grader's own Octave code (``matlab_m/server``) calls by name
    (every name in it that is not a variable of its function, ``stdin`` in ``fgetl(stdin)`` too).

    A student's file of such a name would replace it for the grader's code too (the student's
    folder comes first): a ``dbstack.m`` returning no frames hid every banned call from the tripwire.
    """
    called: set[str] = set(IN_TEXT_CALLS)
    for file in sorted(SERVER.glob("*.m")):
        for fn in definitions(file.name, file.read_bytes())[0]:
            assigned = {_assigned(n) for n in _walk(fn.node)} | {
                n.text.decode() for n in _walk(fn.node) if n.type == "identifier" and n.parent is not None
                and n.parent.type in ("function_output", "function_arguments", "multioutput_variable",
                                      "persistent_operator", "global_operator", "iterator", "catch_clause")
                or n.parent is not None and n.parent.type == "arguments" and n.parent.parent.type == "lambda"}
            called |= {n.text.decode() for n in _walk(fn.node) if n.type in ("identifier", "command_name")
                       and not _is_field_name(n)} - assigned - {fn.name}
    return frozenset(called)


def _is_field_name(node: Any) -> bool:
    """``b`` in ``a.b`` or ``a.b(k)``."""
    inner = node.parent if node.parent is not None and node.parent.type == "function_call" else node
    parent = inner.parent
    return parent is not None and parent.type == "field_expression" and parent.children[0].start_byte != inner.start_byte


def _assigned(node: Any) -> str:
    """The variable an assignment sets (``x = ...``, ``x(k) = ...``, ``x{k} = ...``), else ''."""
    if node.type != "assignment":
        return ""
    left = node.children[0]
    first = left if left.type == "identifier" else next((c for c in left.children if c.type == "identifier"), None)
    return first.text.decode() if first is not None else ""


def _walk(node: Any) -> Iterator[Any]:
    yield node
    for child in node.children:
        yield from _walk(child)


def reserved_note(name: str) -> str | None:
    """Why a file is not loaded, when its name is one the grader's own Octave code uses."""
    stem = name.rsplit("/", 1)[-1][: -len(SUFFIX)] if name.endswith(SUFFIX) else ""
    if RESERVED.fullmatch(stem):
        return f"{name} is not loaded: names such as grader_..._ belong to the grader's own code; rename the file"
    if stem in server_calls():
        return (f"{name} is not loaded: the grader's own code calls {stem}, which a file of that name would "
                f"replace; rename the file")
    return None


def parse(source: bytes) -> Any:
    """The tree of what Octave runs (see :func:`as_octave_reads`); byte offsets are the source's own."""
    return parser().parse(as_octave_reads(source))


_NAME_END = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_)]}.'\"")


def as_octave_reads(source: bytes) -> bytes:
    """The source respelt so that MATLAB's grammar reads the strings and comments Octave reads.

    Same length, same lines, so every offset and line still points into the student's file.
    Octave's double-quoted strings take backslash escapes, so ``"x\\""`` ends one quote later
    than the grammar thinks (a red team hid ``builtin('sum', x)`` behind one) and a backslash
    at a line's end continues the string on the next line: ``\\"`` becomes ``""`` (the
    grammar's own escaped quote), a continued string is closed at its backslash and the rest
    of it blanked (the bans report such a string: a backslash ending the string's text),
    Octave's ``#`` comments become ``%`` ones, and its operators the grammar's (:func:`_operator`).
    """
    out = bytearray(source)
    i, n, prev = 0, len(source), 0
    while i < n:
        c = source[i]
        if c in b"%#":
            i = _comment(source, out, i)
        elif source.startswith(b"...", i):
            i = _line_end(source, i)
        elif c == 0x22:  # "
            i = _double_quoted(source, out, i)
        elif c == 0x27 and prev not in _NAME_END:  # ' starting a string, not a transpose
            i = _single_quoted(source, i)
        else:
            _operator(source, out, i)
            i += 1
        prev = source[i - 1] if 0 < i <= n and source[i - 1] not in b" \t" else 0
    return bytes(out)


def _operator(source: bytes, out: bytearray, i: int) -> None:
    """Octave's own operators in the grammar's terms: ``t += x`` (which it took for command syntax,
    hiding the call on its right) as ``t  = x``, and ``!=`` as ``~=``."""
    c, after = source[i], source[i + 1:i + 2]
    if c in b"+-*/^|&" and after == b"=" and source[i + 2:i + 3] != b"=":
        out[i] = 0x20
    elif c == 0x21 and after == b"=":
        out[i] = 0x7E


def _line_end(source: bytes, i: int) -> int:
    end = source.find(b"\n", i)
    return len(source) if end < 0 else end


def _comment(source: bytes, out: bytearray, i: int) -> int:
    """Past a line comment, or a block comment (``%{``/``#{`` alone on its line) and its nested blocks."""
    start = source.rfind(b"\n", 0, i) + 1
    end = _line_end(source, i)
    if source[start:end].strip() not in (b"%{", b"#{"):
        out[i] = 0x25
        return end
    depth = 0
    while start < len(source):
        line = source[start:end].strip()
        if line in (b"%{", b"#{", b"%}", b"#}"):
            out[start + source[start:end].index(line[:1])] = 0x25
            depth += 1 if line.endswith(b"{") else -1
        if depth == 0:
            return end
        start = end + 1
        end = _line_end(source, start)
    return len(source)


def _single_quoted(source: bytes, i: int) -> int:
    j = i + 1
    while j < len(source) and source[j] != 0x0A:
        if source[j] == 0x27:
            if source[j + 1:j + 2] != b"'":
                return j + 1
            j += 1
        j += 1
    return j


def _double_quoted(source: bytes, out: bytearray, i: int) -> int:
    j, continued = i + 1, False
    while j < len(source):
        c = source[j]
        if c == 0x5C and source[j + 1:j + 2] in (b"\n", b"\r"):     # a backslash continuing the string
            if not continued:
                out[j] = 0x22
            continued = True
            j += 2
            continue
        if c == 0x0A:
            return j
        if continued:
            out[j] = 0x20
        if c == 0x5C:
            if source[j + 1:j + 2] == b'"' and not continued:
                out[j] = 0x22
            j += 2
        elif c == 0x22 and source[j + 1:j + 2] == b'"':
            j += 2
        elif c == 0x22:
            return j + 1
        else:
            j += 1
    return j


@dataclass(frozen=True)
class Function:
    """One ``function ... end`` of a file, as written."""

    name: str
    file: str
    first_line: int          # 1-based
    start: int               # byte offsets of the whole definition
    end: int
    is_main: bool            # the first function of a function file: callable by the file's name
    node: Any = field(compare=False, repr=False)


@dataclass(frozen=True)
class Layout:
    """The files Octave gets, and where each callable name comes from."""

    files: dict[str, bytes]                       # name -> content, written to the sandbox
    callable: dict[str, tuple[str, int]]          # name Octave calls -> (student's file, line)
    functions: tuple[Function, ...]               # every definition in every file
    origin: dict[str, str]                        # a split-out file -> the student's file it came from
    notes: tuple[str, ...] = ()
    shifts: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)  # split file -> (from line, shift)

    def where(self, file: str, line: int | None) -> tuple[str, int | None]:
        """A place in a file Octave ran, as a place in the file the student wrote."""
        if file not in self.origin or line is None:
            return file, line
        shift = next((s for start, s in reversed(self.shifts.get(file, ())) if line >= start), 0)
        return self.origin[file], line + shift


def definitions(name: str, source: bytes) -> tuple[list[Function], bool]:
    """The functions defined at the top of a file, and whether the file is a function file."""
    root = parse(source).root_node
    found: list[Function] = []
    script = False
    for node in root.children:
        if node.type == "function_definition":
            ident = next((c for c in node.children if c.type == "identifier"), None)
            if ident is not None:
                found.append(Function(ident.text.decode("utf-8", "replace"), name, node.start_point[0] + 1,
                                      node.start_byte, node.end_byte, is_main=not found and not script, node=node))
        elif node.type not in ("comment", "line_continuation", "\n") and node.is_named and not found:
            script = True
    return found, bool(found) and not script


def layout(files: Mapping[str, bytes]) -> Layout:
    """Lay the files out for Octave so that every function the student wrote is callable by its name.

    A function file's first function is callable by the file's name, as in MATLAB; any
    other function without a file of its own name (a single-file submission, a graded
    function after another in its file, functions in a script) is split out to one. Inside
    its own file, a local function still wins over a split-out one of the same name.
    """
    sources = {n: d for n, d in sorted(files.items()) if n.endswith(SUFFIX)}
    notes: list[str] = []
    out = {n: d for n, d in sources.items() if reserved_note(n) is None}
    callable_: dict[str, tuple[str, int]] = {}
    functions: list[Function] = []
    per_file: dict[str, list[Function]] = {}
    for name, data in out.items():
        defs, is_function_file = definitions(name, data)
        per_file[name] = defs
        functions += defs
        stem = name[: -len(SUFFIX)]
        if is_function_file:
            callable_[stem] = (name, defs[0].first_line)
    origin: dict[str, str] = {}
    shifts: dict[str, tuple[tuple[int, int], ...]] = {}
    for name, defs in per_file.items():
        split = [f for f in defs if f.name not in callable_ and f"{f.name}{SUFFIX}" not in out
                 and reserved_note(f.name + SUFFIX) is None]
        for f in split:
            target = f"{f.name}{SUFFIX}"
            out[target], shifts[target] = _split(sources[name], f, defs)
            origin[target] = name
            callable_[f.name] = (name, f.first_line)
        if split and (not defs[0].is_main or defs[0].name != name[: -len(SUFFIX)]):
            notes.append(f"{name} holds several functions; each is graded as if it were in a file of its own name")
    return Layout(out, callable_, tuple(functions), origin, tuple(notes), shifts)


def _split(source: bytes, main: Function, siblings: Sequence[Function]) -> tuple[bytes, tuple[tuple[int, int], ...]]:
    """``main`` first, at its own line numbers, then the file's other functions as its local ones.

    Also says, from which line of the new file on, how far its lines are from the student's.
    """
    head = source[: main.start].count(b"\n")
    body = b"\n" * head + source[main.start: main.end] + b"\n"
    shifts = [(1, 0)]
    for f in siblings:
        if f is not main:
            here = body.count(b"\n") + 1
            shifts.append((here, f.first_line - here))
            body += source[f.start: f.end] + b"\n"
    return body, tuple(shifts)
