"""What each name in a student's module means: scopes, abstract values, constant folding.

The analysis is an abstract interpretation over small value sets:

* ``Ext(qual)``: an object reached through an import, ``builtins`` or an attribute chain on
  one (``numpy.add.reduce``); its qualified name is what is compared with a policy;
* ``Const``: a constant (strings are folded through ``+``, ``*``, f-strings, ``join``,
  slicing, ``chr``, ``bytes.fromhex``, base64 ...), so ``getattr(builtins, 'su' + 'm')``
  resolves;
* ``ARR``: a numpy array or scalar (``np.array(...)``, any ``numpy.*`` call, arithmetic on
  arrays, parameters annotated ``np.ndarray``), whose ``.sum`` is ``numpy.ndarray.sum``;
* ``Func``/``Klass``/``Inst``: the student's own functions, classes and instances;
* ``Cont``: a list/tuple/dict/set display, keyed by constant index or key;
* ``NSDict``: a namespace dict (``vars(builtins)``, ``globals()``);
* ``Partial``, ``Bound``, ``Getter``: ``functools.partial``, methods of folded values,
  ``operator.attrgetter``/``methodcaller``.

Scoping follows Python: a name assigned anywhere in a function is local throughout it; the
module body is analysed in order (a later ``sum = ...`` does not hide an earlier builtin use,
``del`` uncovers the builtin again), functions see the module's final bindings.  Inside a
function the analysis is flow-insensitive (all bindings of a name are unioned) and the
whole module is iterated to a fixpoint before findings are reported.
"""
from __future__ import annotations

import ast
import base64
import binascii
import builtins
import codecs
import itertools
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from grader.run.child.monitor import canonical_name

MAX_VALUES = 48
MAX_CONST_LEN = 2000
MAX_DEPTH = 4
BUILTIN_NAMES = frozenset(dir(builtins))


# --------------------------------------------------------------------------------------
# Abstract values
# --------------------------------------------------------------------------------------

class V:
    __slots__ = ()


@dataclass(frozen=True)
class Ext(V):
    qual: str


@dataclass(frozen=True)
class Const(V):
    value: Any


@dataclass(frozen=True)
class _Arr(V):
    pass


ARR = _Arr()


@dataclass(frozen=True)
class _Unbound(V):
    pass


UNBOUND = _Unbound()


@dataclass(frozen=True, eq=False)
class Func(V):
    node: ast.AST

    def __eq__(self, other):
        return type(other) is Func and other.node is self.node

    def __hash__(self):
        return hash(("F", id(self.node)))


@dataclass(frozen=True, eq=False)
class Klass(V):
    node: ast.ClassDef

    def __eq__(self, other):
        return type(other) is Klass and other.node is self.node

    def __hash__(self):
        return hash(("K", id(self.node)))


@dataclass(frozen=True, eq=False)
class Inst(V):
    node: ast.ClassDef

    def __eq__(self, other):
        return type(other) is Inst and other.node is self.node

    def __hash__(self):
        return hash(("I", id(self.node)))


@dataclass(frozen=True)
class Cont(V):
    kind: str                      # list | tuple | dict | set
    items: frozenset               # (key, value); key is a constant or None (unknown)
    length: int | None = None      # for list/tuple displays without starred parts
    depth: int = 0

    def values(self, key: Any = ...) -> set:
        if key is ...:
            return {v for _, v in self.items}
        return {v for k, v in self.items if k is None or k == key}


@dataclass(frozen=True)
class NSDict(V):
    qual: str                      # a module name, or "<globals>" / "<locals>"


@dataclass(frozen=True)
class Partial(V):
    func: V
    args: tuple                    # tuple of frozensets


@dataclass(frozen=True)
class Bound(V):
    obj: V
    attr: str


@dataclass(frozen=True)
class Getter(V):
    kind: str                      # attr | method
    name: str


# --------------------------------------------------------------------------------------
# Scopes
# --------------------------------------------------------------------------------------

class Scope:
    def __init__(self, node: ast.AST, kind: str, parent: "Scope | None", unit: ast.AST):
        self.node = node
        self.kind = kind           # module | function | lambda | class | comprehension | exec
        self.parent = parent
        self.unit = unit           # the unit whose execution runs this scope's code
        self.bound: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.imported: set[str] = set()
        self.stars: list[str] = []
        self.env: dict[str, set] = {}
        self.returns: set = set()
        self.param_defaults: dict[str, set] = {}
        self.klass: ast.ClassDef | None = None  # for methods: the class defining them

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<Scope {self.kind} {getattr(self.node, 'name', '')}>"


class Binder(ast.NodeVisitor):
    """Create a Scope for every function, lambda, class and comprehension; record bindings."""

    def __init__(self, scopes: dict, order: list):
        self.scopes = scopes
        self.order = order
        self.cur: Scope | None = None

    def run(self, scope: Scope, body: Iterable[ast.AST]) -> None:
        prev, self.cur = self.cur, scope
        for node in body:
            self.visit(node)
        self.cur = prev

    def _new(self, node, kind, unit) -> Scope:
        scope = Scope(node, kind, self.cur, unit)
        self.scopes[node] = scope
        self.order.append(scope)
        return scope

    def _here(self) -> Scope:
        """The scope being visited: run() sets it before visiting anything."""
        assert self.cur is not None
        return self.cur

    def _bind(self, name: str, scope: Scope | None = None) -> None:
        (scope or self._here()).bound.add(name)

    def _args(self, scope: Scope, args: ast.arguments) -> None:
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            scope.bound.add(arg.arg)
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                scope.bound.add(extra.arg)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._bind(node.name)
        for d in node.decorator_list:
            self.visit(d)
        for d in [*node.args.defaults, *[k for k in node.args.kw_defaults if k is not None]]:
            self.visit(d)
        scope = self._new(node, "function", node)
        here = self._here()
        if here.kind == "class" and isinstance(here.node, ast.ClassDef):  # a class scope's node is its ClassDef
            scope.klass = here.node
        self._args(scope, node.args)
        self.run(scope, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for d in [*node.args.defaults, *[k for k in node.args.kw_defaults if k is not None]]:
            self.visit(d)
        scope = self._new(node, "lambda", node)
        self._args(scope, node.args)
        self.run(scope, [node.body])

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._bind(node.name)
        for d in [*node.decorator_list, *node.bases, *[k.value for k in node.keywords]]:
            self.visit(d)
        scope = self._new(node, "class", self._here().unit)
        self.run(scope, node.body)

    def _comprehension(self, node, elts):
        gens = node.generators
        self.visit(gens[0].iter)
        scope = self._new(node, "comprehension", self.cur.unit)
        prev, self.cur = self.cur, scope
        for i, gen in enumerate(gens):
            if i:
                self.visit(gen.iter)
            self.visit(gen.target)
            for cond in gen.ifs:
                self.visit(cond)
        for elt in elts:
            self.visit(elt)
        self.cur = prev

    def visit_ListComp(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp) -> None:
        self._comprehension(node, [node.elt])

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node: ast.DictComp) -> None:
        self._comprehension(node, [node.key, node.value])

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        scope = self._here()
        while scope.kind == "comprehension":
            assert scope.parent is not None  # a comprehension always sits inside another scope
            scope = scope.parent
        self._bind(node.target.id, scope)
        self.visit(node.value)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._bind(node.id)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            name = alias.asname or alias.name.split(".")[0]
            self._bind(name)
            self._here().imported.add(name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name == "*":
                continue
            name = alias.asname or alias.name
            self._bind(name)
            self._here().imported.add(name)

    def visit_Global(self, node: ast.Global) -> None:
        self._here().globals.update(node.names)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self._here().nonlocals.update(node.names)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self._bind(node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.name:
            self._bind(node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self._bind(node.name)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        if node.rest:
            self._bind(node.rest)
        self.generic_visit(node)


# --------------------------------------------------------------------------------------
# Constant folding helpers
# --------------------------------------------------------------------------------------

_STR_METHODS = frozenset(
    "join lower upper strip lstrip rstrip replace format capitalize title casefold swapcase "
    "decode encode removeprefix removesuffix split rsplit partition rpartition zfill ljust "
    "rjust center translate maketrans expandtabs".split()
)


_PURE_CALLS: dict[str, Callable] = {
    "builtins.chr": chr,
    "builtins.str": str,
    "builtins.format": format,
    "builtins.repr": repr,
    "builtins.ord": ord,
    "builtins.int": int,
    "builtins.bytes": bytes,
    "builtins.bytes.fromhex": bytes.fromhex,
    "builtins.str.lower": str.lower,
    "builtins.str.upper": str.upper,
    "base64.b64decode": base64.b64decode,
    "base64.b32decode": base64.b32decode,
    "base64.b16decode": base64.b16decode,
    "base64.b85decode": base64.b85decode,
    "base64.a85decode": base64.a85decode,
    "base64.urlsafe_b64decode": base64.urlsafe_b64decode,
    "binascii.unhexlify": binascii.unhexlify,
    "binascii.a2b_hex": binascii.a2b_hex,
    "binascii.a2b_base64": binascii.a2b_base64,
    "codecs.decode": codecs.decode,
    "codecs.encode": codecs.encode,
}


def _small(value: Any) -> bool:
    if isinstance(value, (str, bytes)):
        return len(value) <= MAX_CONST_LEN
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) < 10**12
    return isinstance(value, (float, bool, type(None)))


def const_strings(values: Iterable[V]) -> tuple[list[str], bool]:
    """The constant strings among ``values`` and whether anything else was there too."""
    out, other = [], False
    for v in values:
        if isinstance(v, Const) and isinstance(v.value, str):
            out.append(v.value)
        elif v is not UNBOUND:
            other = True
    return out, other or not out


def ordered_consts(cont: V) -> list | None:
    """The constants of a list/tuple display in order, if each position has exactly one."""
    if isinstance(cont, Const) and isinstance(cont.value, (str, bytes)):
        return list(cont.value) if isinstance(cont.value, str) else list(cont.value)
    if not isinstance(cont, Cont) or cont.length is None:
        return None
    by_key: dict[int, list] = {}
    for key, value in cont.items:
        if not isinstance(key, int) or not isinstance(value, Const):
            return None
        by_key.setdefault(key, []).append(value.value)
    if sorted(by_key) != list(range(cont.length)) or any(len(v) != 1 for v in by_key.values()):
        return None
    return [by_key[i][0] for i in range(cont.length)]


def make_cont(kind: str, pairs: Iterable[tuple], length: int | None, depth: int = 0) -> V | None:
    if depth > MAX_DEPTH:
        return None
    pairs = frozenset(pairs)
    if len(pairs) > 4 * MAX_VALUES:
        pairs = frozenset(itertools.islice(pairs, 4 * MAX_VALUES))
    return Cont(kind, pairs, length, depth)


def from_python(value: Any, depth: int = 0) -> V | None:
    """An abstract value for a folded Python value."""
    if isinstance(value, (list, tuple)) and depth <= MAX_DEPTH and len(value) <= 64:
        pairs = []
        for i, item in enumerate(value):
            v = from_python(item, depth + 1)
            if v is not None:
                pairs.append((i, v))
        return make_cont("list" if isinstance(value, list) else "tuple", pairs, len(value), depth)
    if _small(value):
        return Const(value)
    return None


def fold(func: Callable, arg_sets: list, kw_sets: dict | None = None) -> set:
    """Apply a pure function to every combination of constant arguments (bounded)."""
    options = []
    for values in arg_sets:
        consts = []
        for v in values:
            if isinstance(v, Const):
                consts.append(v.value)
            else:
                seq = ordered_consts(v)
                if seq is None:
                    return set()
                consts.append(seq if not isinstance(v, Cont) or v.kind != "tuple" else tuple(seq))
        if not consts:
            return set()
        options.append(consts)
    kw_names, kw_options = [], []
    for name, values in (kw_sets or {}).items():
        consts = [v.value for v in values if isinstance(v, Const)]
        if not consts or name is None:
            return set()
        kw_names.append(name)
        kw_options.append(consts)
    out = set()
    for combo in itertools.islice(itertools.product(*options, *kw_options), 32):
        args, kws = combo[: len(options)], dict(zip(kw_names, combo[len(options):]))
        if any(isinstance(a, (str, bytes)) and len(a) > MAX_CONST_LEN for a in args):
            continue
        try:
            result = func(*args, **kws)
        except Exception:
            continue
        value = from_python(result)
        if value is not None:
            out.add(value)
    return out


def fold_binop(op: ast.operator, left: Any, right: Any) -> V | None:
    try:
        if isinstance(op, ast.Add):
            if isinstance(left, (str, bytes)) and len(left) + len(right) > MAX_CONST_LEN:
                return None
            result = left + right
        elif isinstance(op, ast.Mult):
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, bytes)) and isinstance(n, int) and len(seq) * n > MAX_CONST_LEN:
                    return None
            result = left * right
        elif isinstance(op, ast.Mod) and isinstance(left, (str, bytes)):
            result = left % right
        elif isinstance(op, ast.Sub):
            result = left - right
        elif isinstance(op, (ast.FloorDiv, ast.Div)) and isinstance(left, (int, float)):
            result = left // right if isinstance(op, ast.FloorDiv) else left / right
        elif isinstance(op, ast.BitXor) and isinstance(left, int):
            result = left ^ right
        else:
            return None
    except Exception:
        return None
    return Const(result) if _small(result) else None


def annotation_is_ndarray(node: ast.AST | None) -> bool:
    """A syntactic test: ``np.ndarray``, ``numpy.ndarray``, ``NDArray[...]``, ``"np.ndarray"``."""
    if node is None:
        return False
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return False
    if isinstance(node, ast.Subscript):
        return annotation_is_ndarray(node.value)
    if isinstance(node, ast.BinOp):  # np.ndarray | None
        return annotation_is_ndarray(node.left) or annotation_is_ndarray(node.right)
    if isinstance(node, ast.Attribute):
        return node.attr in ("ndarray", "NDArray", "ArrayLike")
    if isinstance(node, ast.Name):
        return node.id in ("ndarray", "NDArray")
    return False


def canonical(qual: str) -> str:
    return canonical_name(qual)
