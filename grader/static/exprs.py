"""Expression evaluation for ``grader.static.interp``: names, attributes, subscripts,
operators, displays, comprehensions, f-strings; plus the helpers shared by the evaluator."""
from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from grader.run.child.monitor import INTERPRETER_INTERNALS
from grader.static.resolve import (
    ARR, UNBOUND, Bound, Const, Cont, Ext, Func, Inst, Klass, NSDict, Partial, V, _STR_METHODS,
    const_strings, fold_binop, make_cont,
)

if TYPE_CHECKING:
    from grader.static.resolve import Scope

# Attributes that reach a namespace the analysis cannot follow.
INTROSPECTION = frozenset(
    {"__globals__", "f_globals", "f_builtins", "f_locals", "__subclasses__", "__code__", "__closure__",
     "cell_contents"}
)
# Calls that hand back any live object: a walk of the garbage collector's graph reaches what no
# name holds (the original of a banned callable, behind the tripwire's stand-in).
OBJECT_FINDERS = frozenset({"gc.get_objects", "gc.get_referents", "gc.get_referrers"})
def reaches_under(module: str) -> bool:
    """Is ``module`` (dotted) one of :data:`INTERPRETER_INTERNALS` or inside one?"""
    return module.split(".")[0] in INTERPRETER_INTERNALS
# Attributes of library objects that turn a computed string into any object: a format
# string's fields (``"{0.__globals__[sum]}"``), ``pkgutil.resolve_name("builtins:sum")``.
NAME_RESOLVERS = frozenset({"resolve_name", "get_field", "vformat", "Formatter"})


def _looks_up_fields(base: set) -> bool:
    """Is ``X.format`` called on a string that is not known, or whose fields look up
    attributes or items (which reaches any object from an argument)?"""
    import string

    texts = [v.value for v in base if isinstance(v, Const) and isinstance(v.value, str)]
    if not texts or len(texts) != len(base):
        return not base or any(isinstance(v, Const) for v in base)
    try:
        fields = [f for text in texts for _, f, _, _ in string.Formatter().parse(text) if f]
    except ValueError:
        return True
    return any("." in f or "[" in f for f in fields)


# ndarray attributes that are arrays themselves (not methods).
ARRAY_ATTRS = frozenset({"T", "real", "imag", "flat", "base", "mT"})
# Functions a pair name's inner ``operator.add`` stands for.
ADD_EQUIV = frozenset({
    "operator.add", "operator.__add__", "operator.iadd", "operator.__iadd__", "numpy.add",
    "builtins.int.__add__", "builtins.float.__add__",
})
# Calls that run a module's code again, outside the import system's one copy (runpy, a spec
# made from a file, reload): what they return holds new function objects.
MODULE_RUNNERS = frozenset({
    "runpy.run_module", "runpy.run_path", "importlib.reload", "importlib.util.spec_from_file_location",
    "importlib.util.module_from_spec", "importlib.machinery.SourceFileLoader",
})
DYNAMIC_LABELS = {
    "builtins.eval": "eval", "builtins.exec": "exec", "builtins.compile": "compile",
    "builtins.__import__": "__import__", "importlib.import_module": "importlib.import_module",
    "importlib.__import__": "__import__",
}


@dataclass
class RawFinding:
    rule: str
    banned: str
    actual: str
    line: int
    col: int
    text: str
    evasion: bool
    units: set = field(default_factory=set)


def _text(node: ast.AST, limit: int = 60) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # pragma: no cover - unparse handles every parsed node
        text = type(node).__name__
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def is_add_function(node: ast.AST) -> bool:
    """``lambda a, b: a + b`` or a def whose whole body returns the sum of its two parameters."""
    args = getattr(node, "args", None)
    if args is None:
        return False
    names = [a.arg for a in [*args.posonlyargs, *args.args]]
    if len(names) != 2:
        return False
    if isinstance(node, ast.Lambda):
        expr = node.body
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            return False
        expr = body[0].value
    else:  # only defs and lambdas have ``arguments``
        return False
    return (
        isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add)
        and isinstance(expr.left, ast.Name) and isinstance(expr.right, ast.Name)
        and {expr.left.id, expr.right.id} == set(names)
    )


MAX_CONSTS = 16
MAX_CONTS = 6


def _const_key(v: Const):
    return (type(v.value).__name__, len(v.value) if isinstance(v.value, (str, bytes)) else 0,
            str(v.value)[:64])


def cap(values: set) -> set:
    """Bound a value set: every object is kept, constants and containers only up to a few."""
    if len(values) <= 8:
        return values
    consts = [v for v in values if isinstance(v, Const)]
    conts = [v for v in values if isinstance(v, Cont)]
    if len(consts) <= MAX_CONSTS and len(conts) <= MAX_CONTS:
        return values
    keep = {v for v in values if not isinstance(v, (Const, Cont))}
    keep.update(sorted(consts, key=_const_key)[:MAX_CONSTS])
    keep.update(sorted(conts, key=lambda c: (c.depth, c.length or 0, len(c.items)))[:MAX_CONTS])
    return keep


# f-string conversions by code: !s, !r, !a.
_CONVERSIONS: dict[int, Callable[[Any], Any]] = {115: str, 114: repr, 97: ascii}


class ExprMixin:
    """Evaluates expressions to abstract value sets (mixed into ``Interp``)."""

    if TYPE_CHECKING:  # state and methods that ``Interp`` provides
        tree: ast.Module
        scopes: dict
        edges: dict
        module: Scope
        module_final: dict
        cur: Scope
        unit: ast.AST

        def _live(self) -> bool: ...
        def _defaults(self, node, scope: Scope) -> None: ...
        def bind(self, name: str, vals: set, scope: Scope | None = None) -> None: ...
        def edge(self, dst: ast.AST, src: ast.AST | None = None) -> None: ...
        def touch(self, vals: set) -> None: ...
        def ref(self, node: ast.AST, origin: set) -> None: ...
        def lookup(self, name: str) -> tuple[set, set]: ...
        def dyn(self, node: ast.AST, label: str) -> None: ...
        def elements(self, vals: set) -> set: ...
        def assign(self, target: ast.AST, vals: set, value_node: ast.AST | None = None) -> None: ...

    def ev(self, node: ast.AST | None, callee: bool = False) -> set:
        if node is None:
            return set()
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.ev(child)
            return set()
        return cap(method(node, callee))

    def e_Constant(self, node: ast.Constant, callee: bool) -> set:
        v = node.value
        if isinstance(v, (str, bytes)) and len(v) > 4 * 2000:
            return set()
        return {Const(v)} if isinstance(v, (str, bytes, int, float, bool, type(None))) else set()

    def e_Name(self, node: ast.Name, callee: bool) -> set:
        if not isinstance(node.ctx, ast.Load):
            return set()
        vals, origin = self.lookup(node.id)
        self.touch(vals)
        if not callee:
            self.ref(node, origin)
        return vals

    def e_Attribute(self, node: ast.Attribute, callee: bool) -> set:
        base = self.ev(node.value, callee=True)
        if node.attr in INTROSPECTION or node.attr in NAME_RESOLVERS:
            self.dyn(node, node.attr)
            return set()
        if node.attr in ("format", "format_map") and _looks_up_fields(base):
            self.dyn(node, f"str.{node.attr}")
        vals, origin = set(), set()
        for b in base:
            v, o = self.get_attr(b, node.attr)
            vals |= v
            origin |= o
        self.touch(vals)
        if not callee:
            self.ref(node, origin)
        return vals

    def get_attr(self, b: V, attr: str) -> tuple[set, set]:
        if isinstance(b, Ext):
            q = b.qual
            if attr == "__self__" and q.startswith("builtins.") and q.count(".") == 1:
                return {Ext("builtins")}, set()
            if attr in ("__call__", "__wrapped__", "__func__", "_implementation"):
                return {b}, {b}
            if attr == "__dict__":
                return {NSDict(q)}, set()
            if attr == "__module__":
                return {Const(q.rsplit(".", 1)[0] if "." in q else q)}, set()
            if attr in ("__name__", "__qualname__"):
                return {Const(q.rsplit(".", 1)[-1])}, set()
            if attr == "__builtins__":
                return {Ext("builtins")}, set()
            v = Ext(f"{q}.{attr}")
            return {v}, {v}
        if b is ARR:
            if attr in ARRAY_ATTRS:
                return {ARR}, set()
            if attr.startswith("__") and attr not in ("__call__",):
                return set(), set()
            v = Ext("numpy.ndarray." + attr)
            return {v}, {v}
        if isinstance(b, (NSDict, Cont)):
            return {Bound(b, attr)}, set()
        if isinstance(b, Const):
            if isinstance(b.value, (str, bytes)) and attr in _STR_METHODS:
                return {Bound(b, attr)}, set()
            return set(), set()
        if isinstance(b, Func):
            return ({b}, set()) if attr == "__call__" else (set(), set())
        if isinstance(b, (Klass, Inst)):
            return self.class_attr(b.node, attr, set()), set()
        if isinstance(b, Partial) and attr == "func":
            return {b.func}, set()
        return set(), set()

    def class_attr(self, node: ast.ClassDef, attr: str, seen: set) -> set:
        if id(node) in seen:
            return set()
        seen.add(id(node))
        scope = self.scopes.get(node)
        out = set(scope.env.get(attr, ())) if scope is not None else set()
        for base in self.edges.get(node, ()):
            if isinstance(base, ast.ClassDef) and any(
                    isinstance(b, ast.Name) and b.id == base.name for b in node.bases):
                out |= self.class_attr(base, attr, seen)
        return out

    def e_Subscript(self, node: ast.Subscript, callee: bool) -> set:
        base = self.ev(node.value, callee=True)
        if isinstance(node.slice, ast.Slice):
            parts = [None if p is None else self.ev(p)
                     for p in (node.slice.lower, node.slice.upper, node.slice.step)]
            keys = None
        else:
            keys = self.ev(node.slice)
            parts = None
        vals: set = set()
        origin: set = set()
        for b in base:
            if isinstance(b, Cont):
                if keys is None:
                    vals.add(b)
                else:
                    consts = [k.value for k in keys if isinstance(k, Const)]
                    if consts and len(consts) == len(keys):
                        for k in consts:
                            vals |= b.values(k)
                    else:
                        vals |= b.values()
            elif b is ARR:
                vals.add(ARR)
            elif isinstance(b, Const) and isinstance(b.value, (str, bytes)):
                vals |= self.fold_subscript(b.value, keys, parts)
            elif isinstance(b, NSDict) or (isinstance(b, Ext) and b.qual in ("builtins", "sys.modules")):
                v, o = self.namespace_get(b, keys or set(), node)
                vals |= v
                origin |= o
            elif isinstance(b, Ext) and b.qual.startswith("numpy"):
                vals.add(ARR)
        self.touch(vals)
        if not callee:
            self.ref(node, origin)
        return vals

    def fold_subscript(self, value: str | bytes, keys: set | None, parts: list | None) -> set:
        out = set()
        if parts is not None:
            options: list[list[int | None]] = []
            for p in parts:
                if p is None:
                    options.append([None])
                    continue
                consts = [k.value for k in p if isinstance(k, Const) and isinstance(k.value, (int, type(None)))]
                if not consts or len(consts) != len(p):
                    return set()
                options.append(consts)
            for lo, hi, step in itertools.islice(itertools.product(*options), 8):
                try:
                    out.add(Const(value[lo:hi:step]))
                except Exception:
                    pass
            return out
        for k in keys or ():
            if isinstance(k, Const) and isinstance(k.value, int):
                try:
                    out.add(Const(value[k.value]))
                except Exception:
                    pass
        return out

    def namespace_get(self, ns: NSDict | Ext, keys: set, node: ast.AST) -> tuple[set, set]:
        """``vars(builtins)[k]``, ``globals()[k]``, ``sys.modules[k]``, ``__builtins__[k]``."""
        names, other = const_strings(keys)
        qual = ns.qual
        vals: set = set()
        for name in names:
            if qual == "sys.modules":
                vals.add(Ext(name))
                if reaches_under(name):
                    self.dyn(node, name)
            elif qual == "<globals>":
                env = self.module.env if self._live() else self.module_final
                vals |= {v for v in env.get(name, ()) if v is not UNBOUND}
                if name == "__builtins__":
                    vals.add(Ext("builtins"))
            elif qual == "<locals>":
                vals |= self.lookup(name)[0]
            else:
                vals |= self.get_attr(Ext(qual), name)[0]
        if other:
            label = {"<globals>": "globals", "<locals>": "locals", "sys.modules": "sys.modules"}.get(
                qual, f"vars({qual})")
            self.dyn(node, label)
        origin = {v for v in vals if isinstance(v, Ext)}
        return vals, origin

    def binop(self, op: ast.operator, left: set, right: set) -> set:
        out: set = set()
        if ARR in left or ARR in right:
            out.add(ARR)
        lc = [v for v in left if isinstance(v, Const)][:8]
        rc = [v for v in right if isinstance(v, Const)][:8]
        for a in lc:
            for b in rc:
                v = fold_binop(op, a.value, b.value)
                if v is not None:
                    out.add(v)
        if isinstance(op, ast.Add):
            for a in left:
                for b in right:
                    if isinstance(a, Cont) and isinstance(b, Cont) and a.kind in ("list", "tuple"):
                        if a.length is not None and b.length is not None:
                            pairs = list(a.items) + [(k + a.length if isinstance(k, int) else k, v)
                                                     for k, v in b.items]
                            out.add(make_cont(a.kind, pairs, a.length + b.length))
                        else:
                            out.add(make_cont(a.kind, [(None, v) for v in a.values() | b.values()], None))
        return out

    def e_BinOp(self, node: ast.BinOp, callee: bool) -> set:
        return self.binop(node.op, self.ev(node.left), self.ev(node.right))

    def e_UnaryOp(self, node: ast.UnaryOp, callee: bool) -> set:
        vals = self.ev(node.operand)
        out: set = {ARR} if ARR in vals else set()
        ops = {ast.USub: lambda x: -x, ast.UAdd: lambda x: +x, ast.Invert: lambda x: ~x}
        fn = ops.get(type(node.op))
        if fn is not None:
            for v in vals:
                if isinstance(v, Const) and isinstance(v.value, int) and not isinstance(v.value, bool):
                    out.add(Const(fn(v.value)))
        return out

    def e_Compare(self, node: ast.Compare, callee: bool) -> set:
        vals = self.ev(node.left)
        for c in node.comparators:
            vals |= self.ev(c)
        return {ARR} if ARR in vals else set()

    def e_BoolOp(self, node: ast.BoolOp, callee: bool) -> set:
        out = set()
        for v in node.values:
            out |= self.ev(v, callee)
        return out

    def e_IfExp(self, node: ast.IfExp, callee: bool) -> set:
        self.ev(node.test)
        return self.ev(node.body, callee) | self.ev(node.orelse, callee)

    def e_JoinedStr(self, node: ast.JoinedStr, callee: bool) -> set:
        options: list[list[str]] = []
        foldable = True
        for part in node.values:
            if isinstance(part, ast.Constant):
                options.append([str(part.value)])
                continue
            assert isinstance(part, ast.FormattedValue)  # a JoinedStr holds only these and constants
            vals = self.ev(part.value)
            spec = self.ev(part.format_spec) if part.format_spec is not None else {Const("")}
            consts = []
            for v in vals:
                if not isinstance(v, Const):
                    continue
                for s in spec:
                    if not isinstance(s, Const):
                        continue
                    try:
                        x = v.value
                        x = _CONVERSIONS.get(part.conversion, lambda y: y)(x)
                        consts.append(format(x, s.value))
                    except Exception:
                        pass
            if not consts or len(consts) != len(vals):
                foldable = False
                for other in node.values[node.values.index(part) + 1:]:
                    if isinstance(other, ast.FormattedValue):
                        self.ev(other.value)
                break
            options.append(consts)
        if not foldable:
            return set()
        out = set()
        for combo in itertools.islice(itertools.product(*options), 16):
            text = "".join(combo)
            if len(text) <= 2000:
                out.add(Const(text))
        return out

    def e_FormattedValue(self, node: ast.FormattedValue, callee: bool) -> set:
        self.ev(node.value)
        return set()

    def e_Lambda(self, node: ast.Lambda, callee: bool) -> set:
        self._defaults(node, self.scopes[node])
        if self.unit is not self.tree:
            self.edge(node)
        return {Func(node)}

    def e_NamedExpr(self, node: ast.NamedExpr, callee: bool) -> set:
        vals = self.ev(node.value)
        scope = self.cur
        while scope.kind == "comprehension":
            assert scope.parent is not None  # a comprehension always sits inside another scope
            scope = scope.parent
        self.bind(node.target.id, vals, scope)
        return vals

    def _display(self, kind, elts) -> set:
        pairs: list = []
        length: int | None = len(elts)
        for i, e in enumerate(elts):
            if isinstance(e, ast.Starred):
                length = None
                pairs += [(None, v) for v in self.elements(self.ev(e.value))]
            else:
                pairs += [(i if length is not None else None, v) for v in self.ev(e)]
        cont = make_cont(kind, pairs, length)
        return {cont} if cont is not None else set()

    def e_List(self, node: ast.List, callee: bool) -> set:
        return self._display("list", node.elts) if isinstance(node.ctx, ast.Load) else set()

    def e_Tuple(self, node: ast.Tuple, callee: bool) -> set:
        return self._display("tuple", node.elts) if isinstance(node.ctx, ast.Load) else set()

    def e_Set(self, node: ast.Set, callee: bool) -> set:
        return self._display("set", node.elts)

    def e_Dict(self, node: ast.Dict, callee: bool) -> set:
        pairs = []
        for k, v in zip(node.keys, node.values):
            vals = self.ev(v)
            if k is None:
                for c in vals:
                    if isinstance(c, Cont):
                        pairs += list(c.items)
                continue
            keys = [x.value for x in self.ev(k) if isinstance(x, Const)] or [None]
            pairs += [(key, x) for key in keys for x in vals]
        cont = make_cont("dict", pairs, None)
        return {cont} if cont is not None else set()

    def _comprehension(self, node, kind) -> set:
        gens = node.generators
        first = self.ev(gens[0].iter)
        saved = self.cur
        self.cur = self.scopes[node]
        try:
            for i, gen in enumerate(gens):
                self.assign(gen.target, self.elements(first if i == 0 else self.ev(gen.iter)))
                for cond in gen.ifs:
                    self.ev(cond)
            if kind == "dict":
                self.ev(node.key)
                vals = self.ev(node.value)
            else:
                vals = self.ev(node.elt)
        finally:
            self.cur = saved
        cont = make_cont("dict" if kind == "dict" else "list", [(None, v) for v in vals], None)
        return {cont} if cont is not None else set()

    def e_ListComp(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp, callee: bool) -> set:
        return self._comprehension(node, "list")

    e_SetComp = e_GeneratorExp = e_ListComp

    def e_DictComp(self, node: ast.DictComp, callee: bool) -> set:
        return self._comprehension(node, "dict")

    def e_Starred(self, node: ast.Starred, callee: bool) -> set:
        return self.ev(node.value)

    def e_Await(self, node: ast.Await | ast.Yield | ast.YieldFrom, callee: bool) -> set:
        self.ev(node.value)
        return set()

    e_Yield = e_YieldFrom = e_Await

