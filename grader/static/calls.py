"""Call evaluation for ``grader.static.interp``: what calling each abstract value means,
including the dynamic constructs (eval/exec/getattr/__import__ ...) and pair names."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Iterable, Literal

from grader.static.resolve import (
    ARR, MAX_VALUES, Binder, Bound, Const, Cont, Ext, Func, Getter, Inst, Klass, NSDict,
    Partial, Scope, V, _PURE_CALLS, _STR_METHODS, canonical, const_strings, fold, make_cont,
    ordered_consts,
)
from grader.static.exprs import (DYNAMIC_LABELS, INTROSPECTION, MODULE_RUNNERS, OBJECT_FINDERS, _text, is_add_function,
                                 reaches_under)


class CallMixin:
    """Evaluates calls (mixed into ``Interp``)."""

    if TYPE_CHECKING:  # state and methods that ``Interp`` and ``ExprMixin`` provide
        tree: ast.Module
        covered: dict
        pairs: list
        scopes: dict
        order: list
        dyn_cache: dict
        depth: int
        cur: Scope
        unit: ast.AST
        pos: ast.AST | None

        def touch(self, vals: set) -> None: ...
        def ref(self, node: ast.AST, origin: set) -> None: ...
        def report(self, rule: str, banned: str, actual: str, node: ast.AST, evasion: bool = False,
                   text: str | None = None) -> None: ...
        def dyn(self, node: ast.AST, label: str) -> None: ...
        def edge(self, dst: ast.AST, src: ast.AST | None = None) -> None: ...
        def elements(self, vals: set) -> set: ...
        def exec_body(self, body: Iterable[ast.stmt]) -> None: ...
        def ev(self, node: ast.AST | None, callee: bool = False) -> set: ...
        def get_attr(self, b: V, attr: str) -> tuple[set, set]: ...
        def namespace_get(self, ns: NSDict | Ext, keys: set, node: ast.AST) -> tuple[set, set]: ...

    def e_Call(self, node: ast.Call, callee: bool) -> set:
        fvals = self.ev(node.func, callee=True)
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.append(self.elements(self.ev(a.value)))
            else:
                args.append(self.ev(a))
        kws: dict = {}
        for k in node.keywords:
            vals = self.ev(k.value)
            kws.setdefault(k.arg, set()).update(vals)
        if self.unit is self.tree:  # a module-level call may run the functions it is given
            for vals in [*args, *kws.values()]:
                for v in vals:
                    if isinstance(v, (Func, Klass)):
                        self.edge(v.node)
        result, origin = set(), set()
        for f in list(fvals)[:MAX_VALUES]:
            r, o = self.apply(f, node, args, kws)
            result |= r
            origin |= o
        self.touch(result)
        if not callee:
            self.ref(node, origin)
        return result

    def apply(self, f: V, node: ast.AST, args: list, kws: dict) -> tuple[set, set]:
        if isinstance(f, Ext):
            q = canonical(f.qual)
            policy = self.covered.get(q)
            if policy:
                self.report("banned-call", policy, q, node, text=_text(node.func) + "(...)"
                            if isinstance(node, ast.Call) else None)
            if self.pairs:
                self.check_pairs(q, node, args, kws)
            return self.apply_ext(q, node, args, kws)
        if isinstance(f, Func):
            self.edge(f.node)
            scope = self.scopes.get(f.node)
            return (set(scope.returns) if scope else set()), set()
        if isinstance(f, Klass):
            self.edge(f.node)
            return {Inst(f.node)}, set()
        if isinstance(f, Inst):
            self.edge(f.node)
            return set(), set()
        if isinstance(f, Partial):
            return self.apply(f.func, node, [set(a) for a in f.args] + args, kws)
        if isinstance(f, Bound):
            return self.apply_bound(f, node, args, kws)
        if isinstance(f, Getter) and args:
            vals, origin = set(), set()
            for obj in args[0]:
                v, o = self.get_attr(obj, f.name)
                if f.kind == "attr":
                    vals |= v
                    origin |= o
                else:
                    for m in v:
                        r, ro = self.apply(m, node, args[1:], kws)
                        vals |= r
                        origin |= ro
            return vals, origin
        return set(), set()

    def check_pairs(self, q: str, node: ast.AST, args: list, kws: dict) -> None:
        for policy, outer, inner in self.pairs:
            if q != outer:
                continue
            for vals in [*args, *kws.values()]:
                for v in vals:
                    if isinstance(v, Ext) and canonical(v.qual) in inner:
                        self.report("banned-call", policy, policy, node, text=_text(node))
                    elif isinstance(v, Func) and "operator.add" in inner and is_add_function(v.node):
                        self.report("banned-call", policy, policy, node, text=_text(node))

    def apply_ext(self, q: str, node: ast.AST, args: list, kws: dict) -> tuple[set, set]:
        a0 = args[0] if args else set()
        if q == "builtins.getattr":
            if len(args) < 2:
                return set(), set()
            names, other = const_strings(args[1])
            vals = set()
            for obj in a0:
                for name in names:
                    if name in INTROSPECTION:
                        self.dyn(node, name)
                        continue
                    vals |= self.get_attr(obj, name)[0]
            if other and any(isinstance(o, (Ext, NSDict)) or o is ARR for o in a0):
                self.dyn(node, "getattr")
            if len(args) > 2:
                vals |= args[2]
            return vals, {v for v in vals if isinstance(v, Ext)}
        if q in DYNAMIC_LABELS and q not in ("builtins.__import__", "importlib.import_module",
                                             "importlib.__import__"):
            label = DYNAMIC_LABELS[q]
            self.dyn(node, label)
            srcs = []
            for v in a0 or kws.get("source", set()):
                if isinstance(v, Const) and isinstance(v.value, (str, bytes)):
                    srcs.append(v.value.decode("utf-8", "replace") if isinstance(v.value, bytes) else v.value)
            mode: Literal["eval", "exec"] = "eval" if label == "eval" else "exec"
            if label == "compile":
                modes = [v.value for v in (args[2] if len(args) > 2 else kws.get("mode", set()))
                         if isinstance(v, Const)]
                mode = "eval" if "eval" in modes else "exec"
            vals = set()
            for src in srcs[:4]:
                vals |= self.analyze_code(src, mode, node)
            return vals, {v for v in vals if isinstance(v, Ext)}
        if q in ("builtins.__import__", "importlib.import_module", "importlib.__import__"):
            names, other = const_strings(a0 or kws.get("name", set()))
            if other:
                self.dyn(node, DYNAMIC_LABELS[q])
            fromlist = args[3] if len(args) > 3 else kws.get("fromlist", set())
            vals = set()
            for name in names:
                if name.startswith("."):
                    continue
                if reaches_under(name):
                    self.dyn(node, name)
                if q == "importlib.import_module" or any(
                        not (isinstance(v, Const) and not v.value) for v in fromlist):
                    vals.add(Ext(name))
                else:
                    vals.add(Ext(name.split(".")[0]))
            return vals, set()
        if q == "pkgutil.resolve_name":   # "module:attr" or "module.attr" -> that object
            names, other = const_strings(a0 or kws.get("name", set()))
            if other:
                self.dyn(node, "pkgutil.resolve_name")
            vals = {Ext(n.replace(":", ".")) for n in names}
            return vals, vals
        if q in OBJECT_FINDERS:
            self.dyn(node, q)
            return set(), set()
        if q in MODULE_RUNNERS:     # a fresh copy of a module: its functions are new objects
            self.dyn(node, q)
            return set(), set()
        if q in ("string.Formatter", "string.Formatter.get_field", "string.Formatter.vformat"):
            self.dyn(node, q)
            return set(), set()
        if q == "builtins.globals":
            return {NSDict("<globals>")}, set()
        if q == "builtins.locals" or (q == "builtins.vars" and not args):
            return {NSDict("<locals>")}, set()
        if q == "builtins.vars":
            return {NSDict(v.qual) for v in a0 if isinstance(v, Ext)}, set()
        if q == "functools.partial" and args:
            return {Partial(f, tuple(frozenset(a) for a in args[1:])) for f in a0}, set()
        if q in ("operator.attrgetter", "operator.methodcaller"):
            names, _ = const_strings(a0)
            kind = "attr" if q == "operator.attrgetter" else "method"
            return {Getter(kind, n) for n in names}, set()
        if q == "builtins.type":
            return ({Ext("numpy.ndarray")} if ARR in a0 else set()), set()
        if q == "builtins.map" and len(args) >= 2:
            funcs = {canonical(v.qual) for v in a0 if isinstance(v, Ext)}
            out = set()
            for name in funcs & {"builtins.chr", "builtins.str", "builtins.ord"}:
                for seq in args[1]:
                    items = ordered_consts(seq)
                    if items is not None:
                        out |= fold(lambda xs, fn=_PURE_CALLS[name]: [fn(x) for x in xs], [{make_cont(
                            "list", [(i, Const(x)) for i, x in enumerate(items)], len(items))}])
            return out, set()
        if q in ("builtins.reversed", "builtins.list", "builtins.tuple", "builtins.sorted",
                 "builtins.iter", "builtins.set", "builtins.frozenset"):
            out = set()
            for v in a0:
                items = ordered_consts(v)
                if items is not None and q != "builtins.set":
                    if q == "builtins.reversed":
                        items = items[::-1]
                    elif q == "builtins.sorted":
                        try:
                            items = sorted(items)
                        except TypeError:
                            continue
                    out.add(make_cont("list", [(i, Const(x)) for i, x in enumerate(items)], len(items)))
                elif isinstance(v, Cont):
                    out.add(make_cont("list", [(None, x) for x in v.values()], None))
                elif v is ARR:
                    out.add(make_cont("list", [(None, ARR)], None))
            return out, set()
        if q == "builtins.next":
            return self.elements(a0), set()
        if q == "builtins.dict":
            pairs = [(k, v) for k, vals in kws.items() if k for v in vals]
            for v in a0:
                if isinstance(v, Cont):
                    pairs += list(v.items)
            return {make_cont("dict", pairs, None)}, set()
        if q.startswith("builtins.str.") and q.count(".") == 2 and args:
            method = q.rsplit(".", 1)[1]
            if method in _STR_METHODS:
                out = set()
                for v in a0:
                    if isinstance(v, Const):
                        out |= self.apply_bound(Bound(v, method), node, args[1:], kws)[0]
                return out, set()
        if q in _PURE_CALLS:
            return fold(_PURE_CALLS[q], args, kws), set()
        if q.startswith("numpy."):
            return {ARR}, set()
        return set(), set()

    def apply_bound(self, b: Bound, node: ast.AST, args: list, kws: dict) -> tuple[set, set]:
        obj, m = b.obj, b.attr
        if isinstance(obj, Const):
            if m == "join":
                out = set()
                for seq in (args[0] if args else ()):
                    items = ordered_consts(seq)
                    if items is not None and all(isinstance(x, type(obj.value)) for x in items):
                        joined = obj.value.join(items)
                        if len(joined) <= 2000:
                            out.add(Const(joined))
                return out, set()
            return fold(lambda *a, **k: getattr(obj.value, m)(*a, **k), args, kws), set()
        if isinstance(obj, NSDict):
            if m in ("get", "__getitem__", "pop", "setdefault"):
                vals, origin = self.namespace_get(obj, args[0] if args else set(), node)
                if len(args) > 1:
                    vals |= args[1]
                return vals, origin
            if m in ("values", "items", "copy", "__iter__", "popitem"):
                label = {"<globals>": "globals", "<locals>": "locals"}.get(obj.qual, f"vars({obj.qual})")
                self.dyn(node, f"{label}.{m}")
            return set(), set()
        if isinstance(obj, Cont):
            if m in ("get", "pop", "__getitem__", "setdefault"):
                keys = args[0] if args else set()
                consts = [k.value for k in keys if isinstance(k, Const)]
                vals = set()
                if consts and len(consts) == len(keys):
                    for k in consts:
                        vals |= obj.values(k)
                else:
                    vals |= obj.values()
                if len(args) > 1:
                    vals |= args[1]
                return vals, set()
            if m in ("values", "copy", "items"):
                return {make_cont("list", [(None, v) for v in obj.values()], None)}, set()
        return set(), set()

    def analyze_code(self, src: str, mode: Literal["eval", "exec"], node: ast.AST) -> set:
        """Analyse the constant source handed to eval/exec/compile at the caller's position."""
        if self.depth > 3:
            return set()
        key = (id(node), src, mode)
        entry = self.dyn_cache.get(key)
        if entry is None:
            tree: ast.Expression | ast.Module | None
            try:
                tree = ast.parse(src, mode="eval") if mode == "eval" else ast.parse(src, mode="exec")
            except (SyntaxError, ValueError):
                tree = None
            scope = None
            if tree is not None:
                scope = Scope(tree, "exec", self.cur, self.unit)
                self.scopes[tree] = scope
                before = len(self.order)
                binder = Binder(self.scopes, self.order)
                binder.cur = scope
                binder.run(scope, [tree.body] if isinstance(tree, ast.Expression) else tree.body)
                for new in self.order[before:]:
                    new.pos_node = self.pos or node
                    if new.kind in ("function", "lambda"):
                        self.edge(new.node)
            entry = self.dyn_cache[key] = (tree, scope)
        tree, scope = entry
        if tree is None:
            return set()
        assert scope is not None  # every parsed tree got its scope above
        saved = (self.cur, self.pos)
        self.cur, self.pos = scope, self.pos or node
        self.depth += 1
        try:
            if isinstance(tree, ast.Expression):  # mode "eval"
                return self.ev(tree.body, callee=True)
            self.exec_body(tree.body)
            return set()
        finally:
            self.depth -= 1
            self.cur, self.pos = saved

