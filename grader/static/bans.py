"""Banned functions: static analysis of a submission before any of it runs.

``check_bans(source, filename, policy, graded)`` resolves what every name means (not how it
is spelled) and returns one ``Finding`` per use of a banned callable or per construct that
makes the analysis impossible.  The run-time layer (``grader.run.child.monitor``) confirms
bans inside the sandbox; both layers share the name tables of that module.

Rules (a closed set):

``banned-call``
    A call whose callee resolves to a banned name: ``sum(xs)``, ``np.sum(a)``, ``avg(xs)``
    after ``from statistics import mean as avg``, ``a.sum()`` on a numpy array,
    ``getattr(builtins, 'su' + 'm')(xs)``, ``ops['s'](xs)`` where ``ops = {'s': sum}``,
    a call through a variable, default argument or container, ``functools.partial``.
``banned-reference``
    A banned callable taken without being called where it is taken (``f = sum``,
    ``map(np.mean, rows)``, ``def f(xs, total=sum)``, ``{'s': sum}``): a reference that
    escapes is a use.  Reported where the name is resolved (an import, ``builtins`` or an
    attribute of a module or array), not again at every copy.
``dynamic-code`` (evasion=True)
    Code that hides what it calls: ``eval``, ``exec``, ``compile``, ``__import__`` /
    ``importlib.import_module`` with a computed name, ``getattr`` with a computed name on a
    module, builtins or an array, ``globals()[k]``/``locals()[k]``/``vars(m)[k]`` with a
    computed key (or their ``.values()``/``.items()``), ``sys.modules[k]``, and introspection
    (``__globals__``, ``f_globals``, ``f_builtins``, ``f_locals``, ``__subclasses__``,
    ``__code__``, ``__closure__``, ``cell_contents``, and the garbage collector's walks
    ``gc.get_objects``, ``get_referents``, ``get_referrers``).  ``banned`` names the construct.  Constant source
    handed to eval/exec/compile is analysed too (``eval('su' + 'm')`` is dynamic-code *and*
    a banned call).  The spec's ``dynamic_code: flag|violation`` decides what it costs.
``unanalysable`` (evasion=True)
    The file does not parse, or is too deeply nested to analyse.

Policy names are qualified names (``builtins.sum``, ``numpy.cumsum``, ``statistics.mean``,
``numpy.add.reduce``, ``numpy.ndarray.sum``).  ``numpy.X`` also covers the array method
``numpy.ndarray.X`` and the ufunc form (``numpy.sum`` -> ``numpy.add.reduce``); see
``grader.run.child.monitor.implied_names``.  A *pair name* ``outer(inner)`` bans calls of
``outer`` that are given ``inner`` as any argument, e.g. ``functools.reduce(operator.add)``
bans ``reduce(operator.add, xs)``, ``reduce(np.add, xs)``, ``reduce(lambda a, b: a + b, xs)``
but not ``reduce(max, xs)``; ``itertools.accumulate(operator.add)`` likewise.  For
``operator.add`` the inner side also matches ``operator.__add__``, ``operator.iadd``,
``numpy.add``, ``int.__add__``, ``float.__add__`` and a two-parameter function returning
``a + b``.  Pair names are static-only (a profile hook cannot see arguments).

Scope: with ``scope: file`` every finding affects every graded function; with
``scope: reachable`` a finding affects the graded functions whose call graph reaches the
code containing it (module-level code reaches all), see ``grader.static.reach``.

Limits: no inter-procedural parameter types (a banned callable passed to a helper is caught
where it is passed, not where the helper calls it); numpy arrays are recognised only from
numpy calls, arithmetic on them and ``np.ndarray`` annotations; attribute stores
(``self.f = sum``) and ``list.append`` are not tracked (the reference is still reported);
monkeypatching ``builtins`` and pandas are out of scope.
"""
from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import gc
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from grader.run.child.monitor import INTERPRETER_INTERNALS, canonical_name, expand_names
from grader.spec.model import BanPolicy

if TYPE_CHECKING:
    from grader.static.exprs import RawFinding

RULES = ("banned-call", "banned-reference", "dynamic-code", "unanalysable")


@dataclass(frozen=True)
class Finding:
    rule: str
    banned: str
    filename: str
    line: int
    col: int
    source_line: str
    functions: tuple[str, ...]
    evasion: bool
    message: str


def parse_policy(names: Iterable[str]) -> tuple[dict, list]:
    """(covered qualified name -> policy name, [(pair name, outer, inner names)])."""
    from grader.static.exprs import ADD_EQUIV

    names = list(names)
    plain = [n for n in names if "(" not in n]
    pairs = []
    for name in names:
        if "(" not in name:
            continue
        outer, _, rest = name.partition("(")
        inner = rest.rstrip(")").strip()
        outer = canonical_name(outer.strip())
        inner_c = canonical_name(inner)
        inner_set = ADD_EQUIV if inner_c in ADD_EQUIV else frozenset({inner_c})
        pairs.append((name, outer, frozenset(inner_set)))
    return expand_names(plain), pairs


def _message(raw: RawFinding) -> str:
    if raw.rule == "banned-call":
        same = raw.actual == raw.banned
        what = raw.banned if same else f"{raw.actual} (banned as {raw.banned})"
        return f"`{raw.text}` calls {what}, which is banned in this assignment."
    if raw.rule == "banned-reference":
        what = raw.banned if raw.actual == raw.banned else f"{raw.actual} (banned as {raw.banned})"
        return (f"`{raw.text}` takes {what}, which is banned in this assignment; "
                f"storing or passing it on is still using it.")
    return (f"`{raw.text}` uses {raw.banned}, which hides from the checker what is called, "
            f"so it may be used to reach a banned function.")


#: Names through which code can reach a callable without spelling its name.
DYNAMIC_TOKENS = frozenset({
    "eval", "exec", "compile", "getattr", "__import__", "importlib", "import_module", "globals", "locals",
    "vars", "__builtins__", "builtins", "__dict__", "__getattribute__", "__getattr__", "attrgetter",
    "methodcaller", "__class__", "__subclasses__", "__globals__", "__base__", "__bases__", "__mro__",
    "__closure__", "__self__", "__reduce__", "__reduce_ex__", "gc", "inspect", "sys", "ctypes",
    "pickle", "marshal", "copyreg", "types", "modules", "__loader__", "__spec__", "runpy",
}) | INTERPRETER_INTERNALS
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# What may appear in code the full analysis can skip: builtins, standard modules and their
# members, and methods of builtin types that never turn a computed name into a callable.
# Anything else (getattr, eval, globals, vars, __dict__, str.format, string.Formatter,
# pkgutil.resolve_name, importlib, sys, gc, operator.attrgetter ...) sends the file to the
# full analysis.  A whitelist, so a name-resolving function nobody thought of is analysed.
INERT_BUILTINS = frozenset("""
    abs all any ascii bin bool bytearray bytes callable chr complex dict divmod enumerate filter float frozenset
    hash hex id input int isinstance issubclass iter len list map max min next object oct ord pow print range
    repr reversed round set slice sorted str tuple zip super property staticmethod classmethod open
    True False None NotImplemented Ellipsis __name__ __file__ __doc__ self cls
    BaseException Exception ArithmeticError AssertionError AttributeError EOFError IndexError KeyError
    LookupError MemoryError NameError NotImplementedError OSError OverflowError RecursionError RuntimeError
    StopIteration TypeError ValueError ZeroDivisionError KeyboardInterrupt SystemExit
""".split())
INERT_MODULES = frozenset("""
    collections math random itertools functools operator heapq bisect copy re typing dataclasses enum
    fractions decimal statistics time numbers array abc
""".split())
INERT_ATTRS = frozenset("""
    append extend insert pop remove clear index count sort reverse copy keys values items get setdefault update
    add discard union intersection difference symmetric_difference issubset issuperset isdisjoint
    split rsplit splitlines join strip lstrip rstrip lower upper title capitalize casefold swapcase startswith
    endswith find rfind rindex replace isdigit isalpha isalnum isspace isupper islower isnumeric isdecimal zfill
    center ljust rjust partition rpartition encode decode expandtabs translate maketrans
    popleft appendleft extendleft rotate maxlen most_common elements subtract total fromkeys default_factory
    real imag numerator denominator is_integer bit_length to_bytes from_bytes conjugate as_integer_ratio
    deque Counter defaultdict OrderedDict namedtuple ChainMap
    sqrt isqrt floor ceil trunc pi e inf nan tau log log2 log10 exp gcd lcm comb perm factorial fabs hypot
    sin cos tan atan atan2 degrees radians isclose isinf isnan copysign modf fmod dist prod
    randint randrange choice choices shuffle sample seed random uniform gauss Random getrandbits
    heappush heappop heapify heapreplace heappushpop nlargest nsmallest merge
    bisect bisect_left bisect_right insort insort_left insort_right
    permutations combinations combinations_with_replacement product chain from_iterable groupby cycle repeat
    islice zip_longest starmap takewhile dropwhile tee compress pairwise
    reduce lru_cache cache cmp_to_key wraps total_ordering cached_property
    add sub mul truediv floordiv mod neg pos eq ne lt le gt ge itemgetter not_ contains
    deepcopy compile match fullmatch search findall finditer sub subn group groups start end span escape
    IGNORECASE
    List Dict Tuple Set Optional Union Any Iterable Sequence Callable dataclass field Enum auto
    Fraction Decimal mean median mode stdev variance time perf_counter sleep
    __init__ __repr__ __str__ __eq__ __lt__ __le__ __gt__ __ge__ __hash__ __len__ __iter__ __next__
    __contains__ __getitem__ __setitem__ __name__ __main__
""".split()) - {"compile"}


# A name Python does not define is a NameError when it runs: it can hold a banned callable
# only through a binding that is itself checked here (a name, an import, globals(), exec ...).
# A builtin or dunder name gets no such benefit even where the file binds it: bindings are
# per scope and in order (``def f(eval): ...`` leaves the module's ``eval`` the builtin).
_BUILTIN_NAMES = frozenset(dir(builtins))
_RISKY_NAMES = frozenset(n for n in _BUILTIN_NAMES if n not in INERT_BUILTINS)


@functools.cache
def _foreign_attrs() -> frozenset[str]:
    """Every attribute name of the builtin types, the interpreter's own types (frames,
    generators, tracebacks, code, cells ...), the inert modules and their classes.

    An attribute the file defines itself (``self.rank``, a method) is the file's own only if
    no object the file can reach without naming it has an attribute of that name: otherwise
    ``class A: gi_frame = f_globals = 0`` would vouch for ``(x for x in ()).gi_frame.f_globals``.
    """
    import importlib
    import types

    found: set[str] = set()
    spaces: list[object] = [builtins, types]
    spaces += [importlib.import_module(m) for m in sorted(INERT_MODULES)]
    for space in spaces:
        found.update(dir(space))
        for value in vars(space).values():
            if isinstance(value, type):
                found.update(dir(value))
    return frozenset(found)


def _own_attribute(name: str) -> bool:
    return not name.startswith("__") and name not in _foreign_attrs()


# Fields that hold only context, operator and comparison singletons: never worth a visit.
_NO_CHILDREN = frozenset({"ctx", "op", "ops"})
# Per node type: (fields holding a list, fields holding a node or None).  A field's kind is
# fixed by the grammar, so the first node of a type seen decides it: a list is a list
# field, a node or None a node field, anything else (an identifier, a number, a constant's
# value) holds no node in any node of that type.  What a list or an optional field holds
# that is not a node (a name of ``global``, ``case True``'s value) is popped and passed over.
_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}


def _fields_of(node: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    lists, nodes = [], []
    for name in getattr(node, "_fields", ()):
        if name in _NO_CHILDREN:
            continue
        value = getattr(node, name, None)
        if type(value) is list:
            lists.append(name)
        elif value is None or isinstance(value, ast.AST):
            nodes.append(name)
    found = _FIELDS[type(node)] = (tuple(lists), tuple(nodes))
    return found


def _docstring_of(node: Any) -> int | None:
    """The id of the docstring constant of a module, class or function ("sum is banned here").

    A docstring's words need no check: turning any text into a callable takes a lookup by
    name (getattr, eval, a namespace), which is never inert and sends the file to the full
    analysis whatever the text says; other strings (``print("sum")``) are still checked.
    """
    body = node.body
    if body and type(body[0]) is ast.Expr:
        value = body[0].value
        if type(value) is ast.Constant and type(value.value) is str:
            return id(value)
    return None


def _triggers(names: Sequence[str]) -> frozenset[str]:
    """The words of a policy: each banned name's last part and the words of a pair's inner side."""
    found: set[str] = set()
    for name in names:
        base = name.split("(", 1)[0]
        found.add(base.rsplit(".", 1)[-1])
        found.update(_WORD.findall(name.partition("(")[2]))
    return frozenset(found)


def _name_triggers(names: Sequence[str]) -> frozenset[str]:
    """The words a bare name must not be: a method of a class (``collections.Counter.total``,
    its class capitalised, as Python's and numpy's are) is reached only through an attribute,
    so a variable called ``total`` cannot reach it (and is common in honest code)."""
    return _triggers([n for n in names if "(" in n or n.count(".") < 2 or not n.rsplit(".", 2)[-2][:1].isupper()])


def mentions_anything_banned(tree: ast.AST, names: Sequence[str]) -> bool:
    """Could this code reach a banned callable at all?  A cheap, sound pre-check.

    False only when every name, attribute and import in the file is inert (or an attribute
    the file defines and nothing else has), and no word of a banned name appears outside a
    docstring: such code can neither spell a banned callable nor compute one (that needs
    getattr, eval, a namespace, a format string's field lookup, an import by name, a class
    pattern's attribute lookup ... none of which is inert), so the full analysis (tens of
    milliseconds on a long file) would find nothing.  Anything else is analysed fully.

    One walk over the tree, dispatched on each node's exact type: it runs on every submission.
    """
    triggers = _triggers(names)
    bad_names = _name_triggers(names) | _RISKY_NAMES
    own_attrs: set[str] = set()
    used_attrs: set[str] = set()        # not inert: allowed only if the file defines them
    docstrings: set[int] = set()
    Name, Attribute, Constant, Import, ImportFrom, keyword, MatchClass = (
        ast.Name, ast.Attribute, ast.Constant, ast.Import, ast.ImportFrom, ast.keyword, ast.MatchClass)
    FunctionDef, AsyncFunctionDef, ClassDef, Module = ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module
    fields_of, findall = _FIELDS, _WORD.findall
    stack: list[Any] = [tree]
    pop, push, extend = stack.pop, stack.append, stack.extend
    node: Any  # dispatched on its exact type below (faster than isinstance), which mypy cannot narrow
    while stack:
        node = pop()
        kind = type(node)
        if kind is Name:
            name = node.id
            if name in bad_names or (name[:2] == "__" and name not in INERT_BUILTINS):
                return True
            continue
        if kind is Attribute:
            attr = node.attr
            if attr in triggers:
                return True
            if attr not in INERT_ATTRS:
                if type(node.ctx) is ast.Store:
                    own_attrs.add(attr)
                used_attrs.add(attr)
            push(node.value)
            continue
        if kind is Constant:
            constant = node.value
            if (type(constant) is str or type(constant) is bytes) and id(node) not in docstrings:
                text = constant if isinstance(constant, str) else constant.decode("latin-1")
                if not triggers.isdisjoint(findall(text)):
                    return True
            continue
        if kind is Import:
            if any(a.name not in INERT_MODULES or a.name in triggers for a in node.names):
                return True
            continue
        if kind is ImportFrom:
            if node.module == "__future__" and not node.level:
                continue                    # a compiler directive: binds _Feature records only
            if node.level or node.module not in INERT_MODULES:
                return True
            if any(a.name in triggers or a.name not in INERT_ATTRS for a in node.names):
                return True
            continue
        if kind is keyword:
            if node.arg in triggers:
                return True
        elif kind is MatchClass:
            # ``case object(__globals__=g)`` reads an attribute by the name it spells
            if any(a in triggers or a not in INERT_ATTRS for a in node.kwd_attrs):
                return True
        elif kind is FunctionDef or kind is AsyncFunctionDef or kind is ClassDef or kind is Module:
            doc = _docstring_of(node)
            if doc is not None:
                docstrings.add(doc)
            if kind is ClassDef:
                own_attrs.update(_class_attributes(node))
        fields = fields_of.get(kind) or _fields_of(node)
        for field in fields[0]:
            extend(getattr(node, field))
        for field in fields[1]:
            child = getattr(node, field, None)
            if child is not None:
                push(child)
    return not all(a in own_attrs and _own_attribute(a) for a in used_attrs)


def _class_attributes(node: ast.ClassDef) -> Iterable[str]:
    """The names a class body defines (methods and plain assignments): attributes of its instances."""
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield item.name
        elif isinstance(item, ast.Assign):
            yield from (t.id for t in item.targets if isinstance(t, ast.Name))
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            yield item.target.id


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a file is analysed.

    A parsed file is tens of thousands of new container objects, and the analysis makes as
    many again, with no cycle among what either drops (none in the 608 Python files of this
    repository and a generated class, each analysed fully): reference counting frees it
    all.  Counted against the collector's thresholds, those objects set off collections that
    walk the whole heap of a worker holding a spec's cases, which cost as much as the parse
    itself; freed before the collector resumes, they are never counted.  The collector's
    own state (a caller may have paused it) is kept.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def check_bans(source: str, filename: str, policy: BanPolicy,
               graded: Mapping[str, Sequence[str]]) -> list[Finding]:
    """Static findings for ``source`` under ``policy``; ``graded`` maps a graded function
    name to the names (name + aliases) the student may define it under."""
    with _collector_paused():
        return _check_bans(source, filename, policy, graded)


def _check_bans(source: str, filename: str, policy: BanPolicy,
                graded: Mapping[str, Sequence[str]]) -> list[Finding]:
    lines = source.splitlines()
    everyone = tuple(graded)

    def line_of(n: int) -> str:
        return lines[n - 1].strip() if 0 < n <= len(lines) else ""

    try:
        tree = ast.parse(source, filename=filename)
    except RecursionError:
        return [Finding("unanalysable", "nesting", filename, 1, 1, line_of(1), everyone, True,
                        "The code is nested too deeply to be checked.")]
    except (SyntaxError, ValueError, MemoryError) as exc:
        line = getattr(exc, "lineno", None) or 1
        return [Finding("unanalysable", "syntax", filename, line, getattr(exc, "offset", None) or 1,
                        line_of(line), everyone, True,
                        f"The file does not parse ({getattr(exc, 'msg', exc)}), so it cannot be checked.")]
    if not mentions_anything_banned(tree, policy.names):
        return []
    # The full analysis, imported only for a file the pre-check could not clear.
    from grader.static.interp import Interp
    from grader.static.reach import affected, graded_units

    covered, pairs = parse_policy(policy.names)
    interp = Interp(tree, covered, pairs)
    try:
        interp.run()
    except RecursionError:
        return [Finding("unanalysable", "nesting", filename, 1, 1, line_of(1), everyone, True,
                        "The code is nested too deeply to be checked.")]
    if policy.scope == "file":
        def functions_of(raw):
            return everyone
    else:
        reached = graded_units(tree, interp.module_final, interp.edges, graded)

        def functions_of(raw):
            return affected(raw.units, reached)
    findings = [
        Finding(raw.rule, raw.banned, filename, raw.line, raw.col, line_of(raw.line),
                functions_of(raw), raw.evasion, _message(raw))
        for raw in interp.raw.values()
    ]
    findings.sort(key=lambda f: (f.line, f.col, f.rule, f.banned))
    return findings


_COLORS = {"banned-call": "\033[31m", "banned-reference": "\033[31m",
           "dynamic-code": "\033[33m", "unanalysable": "\033[33m"}


def format_findings(findings: Iterable[Finding], *, color: bool = False) -> str:
    """``file:line:col: rule: message``, the source line, and ``affects: f, g`` per finding;
    the student's text with its control codes shown as escapes (no terminal runs them)."""
    from grader.textsafe import terminal_safe

    out = []
    for f in findings:
        rule = f"{_COLORS.get(f.rule, '')}{f.rule}\033[0m" if color else f.rule
        kind = " (possible evasion)" if f.evasion else ""
        out.append(f"{terminal_safe(f.filename)}:{f.line}:{f.col}: {rule}{kind}: {terminal_safe(f.message)}")
        if f.source_line:
            out.append(f"    {terminal_safe(f.source_line)}")
        out.append(f"    affects: {', '.join(f.functions) if f.functions else '(no graded function)'}")
    return "\n".join(out)
