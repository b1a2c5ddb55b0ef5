"""The evaluator: walks a student's module over the abstract values of ``resolve`` and
reports raw findings (banned calls, banned references, dynamic code) and call-graph edges.

``Interp(tree, covered, pairs).run()`` iterates the whole module to a fixpoint silently,
then makes one reporting pass.  ``raw`` maps (rule, banned, line, col) to a RawFinding;
``edges`` maps a unit (Module, FunctionDef, Lambda or ClassDef node) to the units it may
run.  See ``grader.static.bans`` for the rules.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from typing import Callable, Iterable

from grader.static.resolve import (
    ARR, BUILTIN_NAMES, UNBOUND, Binder, Const, Cont, Ext, Func, Inst, Klass, Scope,
    annotation_is_ndarray, canonical, make_cont,
)
from grader.static.calls import CallMixin
from grader.static.exprs import ExprMixin, RawFinding, _text, cap, reaches_under  # noqa: F401  (RawFinding re-exported)


class Interp(ExprMixin, CallMixin):
    def __init__(self, tree: ast.Module, covered: dict, pairs: list):
        self.tree = tree
        self.covered = covered        # canonical qualified name -> policy name
        self.pairs = pairs            # [(policy name, outer canonical, frozenset of inner)]
        self.scopes: dict = {}
        self.order: list = []
        self.module = Scope(tree, "module", None, tree)
        self.scopes[tree] = self.module
        self.order.append(self.module)
        Binder(self.scopes, self.order).run(self.module, tree.body)
        self.module_final: dict = {}
        self.global_writes: dict = defaultdict(set)
        self.edges: dict = defaultdict(set)
        self.raw: dict = {}
        self.reporting = False
        self.cur: Scope = self.module
        self.unit: ast.AST = tree
        self.pos: ast.AST | None = None
        self.dyn_cache: dict = {}
        self.depth = 0

    # -- driver ------------------------------------------------------------------------
    def run(self) -> None:
        previous = None
        for _ in range(8):
            self._pass()
            state = self._state()
            if state == previous:
                break
            previous = state
        self.reporting = True
        self._pass()

    def _state(self):
        envs = tuple(
            (id(s), name, len(vals)) for s in self.order for name, vals in s.env.items()
        )
        returns = tuple(len(s.returns) for s in self.order)
        final = tuple(sorted((k, len(v), hash(frozenset(v))) for k, v in self.module_final.items()))
        writes = tuple(sorted((k, len(v)) for k, v in self.global_writes.items()))
        return envs, returns, final, writes, sum(len(e) for e in self.edges.values()), len(self.order)

    def _pass(self) -> None:
        self.module.env = {}
        self.cur, self.unit, self.pos = self.module, self.tree, None
        self.exec_body(self.tree.body)
        self.module_final = {k: set(v) for k, v in self.module.env.items()}
        for scope in list(self.order):
            if scope.kind in ("function", "lambda"):
                self.run_function(scope)

    def run_function(self, scope: Scope) -> None:
        node = scope.node
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))  # function and lambda scopes
        saved = (self.cur, self.unit, self.pos)
        self.cur, self.unit, self.pos = scope, node, getattr(scope, "pos_node", None)
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        decorators = {d.id for d in getattr(node, "decorator_list", []) if isinstance(d, ast.Name)}
        for i, arg in enumerate([*positional, *args.kwonlyargs]):
            vals = set(scope.param_defaults.get(arg.arg, ()))
            if annotation_is_ndarray(arg.annotation):
                vals.add(ARR)
            if i == 0 and scope.klass is not None and arg in positional and "staticmethod" not in decorators:
                vals.add(Klass(scope.klass) if "classmethod" in decorators else Inst(scope.klass))
            self.bind(arg.arg, vals)
        if args.vararg is not None:
            self.bind(args.vararg.arg, {make_cont("tuple", (), None)})
        if args.kwarg is not None:
            self.bind(args.kwarg.arg, {make_cont("dict", (), None)})
        try:
            if isinstance(node, ast.Lambda):
                self.widen(scope.returns, self.ev(node.body))
            else:
                self.exec_body(node.body)
        finally:
            self.cur, self.unit, self.pos = saved

    # -- reporting ---------------------------------------------------------------------
    def report(self, rule: str, banned: str, actual: str, node: ast.AST, evasion: bool = False,
               text: str | None = None) -> None:
        if not self.reporting:
            return
        where = self.pos or node
        line, col = getattr(where, "lineno", 1), getattr(where, "col_offset", 0) + 1
        key = (rule, banned, line, col)
        found = self.raw.get(key)
        if found is None:
            found = self.raw[key] = RawFinding(rule, banned, actual, line, col, text or _text(node), evasion)
        found.units.add(self.unit)

    def dyn(self, node: ast.AST, label: str) -> None:
        self.report("dynamic-code", label, label, node, evasion=True)

    def banned(self, qual: str) -> str | None:
        return self.covered.get(canonical(qual))

    def ref(self, node: ast.AST, origin: set) -> None:
        if not self.reporting:
            return
        for v in origin:
            if isinstance(v, Ext):
                policy = self.banned(v.qual)
                if policy:
                    self.report("banned-reference", policy, canonical(v.qual), node)

    def edge(self, dst: ast.AST, src: ast.AST | None = None) -> None:
        self.edges[src if src is not None else self.unit].add(dst)

    def touch(self, vals: set) -> None:
        """A function or class referenced from inside a function may be run by it."""
        if self.unit is self.tree:
            return
        for v in vals:
            if isinstance(v, (Func, Klass, Inst)):
                self.edge(v.node)

    # -- names -------------------------------------------------------------------------
    def _live(self) -> bool:
        return self.unit is self.tree

    def module_lookup(self, name: str, live: bool) -> tuple[set, set]:
        env = self.module.env if live else self.module_final
        vals = set(env.get(name, ()))
        if not live:
            vals |= self.global_writes.get(name, set())
        origin = set(vals) if name in self.module.imported else set()
        fall = name not in env or UNBOUND in vals
        vals.discard(UNBOUND)
        origin.discard(UNBOUND)
        if fall:
            extra = set()
            if name == "__builtins__":
                extra.add(Ext("builtins"))
            elif name in BUILTIN_NAMES:
                extra.add(Ext("builtins." + name))
            for star in self.module.stars:
                extra.add(Ext(f"{star}.{name}"))
            vals |= extra
            origin |= extra
        return vals, origin

    def lookup(self, name: str) -> tuple[set, set]:
        scope: Scope | None = self.cur
        first = True
        while scope is not None:
            if scope.kind == "module":
                return self.module_lookup(name, self._live())
            if name in scope.globals:
                return self.module_lookup(name, False)
            if scope.kind == "class" and not first:
                scope = scope.parent
                continue
            if name in scope.bound and name not in scope.nonlocals:
                vals = set(scope.env.get(name, ()))
                return vals, (set(vals) if name in scope.imported else set())
            first = False
            scope = scope.parent
        return set(), set()

    def bind(self, name: str, vals: set, scope: Scope | None = None) -> None:
        scope = scope or self.cur
        vals = cap(set(vals))
        if scope.kind != "module" and name in scope.globals:
            self.widen(self.global_writes[name], vals | {UNBOUND})
            return
        if name in scope.nonlocals:
            target = scope.parent
            while target is not None and not (target.kind in ("function", "lambda") and name in target.bound):
                target = target.parent
            if target is not None:
                self.widen(target.env.setdefault(name, set()), vals)
            return
        if scope.kind == "module":
            scope.env[name] = vals  # strong update; branches are merged by ``branch``
        else:
            self.widen(scope.env.setdefault(name, set()), vals)

    @staticmethod
    def widen(current: set, new: set) -> None:
        """Weak update that converges: once a name holds several constants or containers
        (a string built in a loop), further ones are not added."""
        for v in new:
            if v in current:
                continue
            if isinstance(v, Const) and sum(isinstance(c, Const) for c in current) >= 8:
                continue
            if isinstance(v, Cont) and sum(isinstance(c, Cont) for c in current) >= 4:
                continue
            current.add(v)

    def branch(self, *bodies: Callable[[], None]) -> None:
        """Run alternative bodies; at module level each starts from the same bindings."""
        if self.cur is not self.module:
            for body in bodies:
                body()
            return
        base = self.module.env
        results = []
        for body in bodies:
            self.module.env = {k: set(v) for k, v in base.items()}
            body()
            results.append(self.module.env)
        merged: dict = {}
        for name in set().union(*results):
            merged[name] = set().union(*(env.get(name, {UNBOUND}) for env in results))
        self.module.env = merged

    # -- statements --------------------------------------------------------------------
    def exec_body(self, body: Iterable[ast.stmt]) -> None:
        for stmt in body:
            self.exec_stmt(stmt)

    def exec_stmt(self, node: ast.stmt) -> None:
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is not None:
            method(node)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.ev(child)
                elif isinstance(child, ast.stmt):
                    self.exec_stmt(child)

    def _defaults(self, node, scope: Scope) -> None:
        """Default values are evaluated where the def is, but charged to the function itself."""
        saved = self.unit
        if saved is self.tree:
            self.unit = node
        try:
            self._eval_defaults(node, scope)
        finally:
            self.unit = saved

    def _eval_defaults(self, node, scope: Scope) -> None:
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        for arg, default in zip(positional[len(positional) - len(args.defaults):], args.defaults):
            scope.param_defaults.setdefault(arg.arg, set()).update(self.ev(default))
        for arg, default in zip(args.kwonlyargs, args.kw_defaults):
            if default is not None:
                scope.param_defaults.setdefault(arg.arg, set()).update(self.ev(default))

    def s_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        decorators = [self.ev(d, callee=True) for d in node.decorator_list]
        scope = self.scopes[node]
        self._defaults(node, scope)
        value = {Func(node)}
        for dvals in reversed(decorators):
            result = set()
            for d in dvals:
                if isinstance(d, (Func, Klass)):
                    self.edge(d.node)
                result |= self.apply(d, node, [value], {})[0]
            value = value | result
        if self.cur.kind == "class":
            self.edge(node, self.cur.node)
        elif self.unit is not self.tree:
            self.edge(node)
        self.bind(node.name, value)

    s_AsyncFunctionDef = s_FunctionDef

    def s_ClassDef(self, node: ast.ClassDef) -> None:
        for d in node.decorator_list:
            self.ev(d, callee=True)
        for base in node.bases:
            for v in self.ev(base, callee=True):
                if isinstance(v, Klass):
                    self.edge(v.node, node)
        for kw in node.keywords:
            self.ev(kw.value)
        scope = self.scopes[node]
        saved = self.cur
        self.cur = scope
        try:
            self.exec_body(node.body)
        finally:
            self.cur = saved
        if self.cur.kind == "class":
            self.edge(node, self.cur.node)
        elif self.unit is not self.tree:
            self.edge(node)
        self.bind(node.name, {Klass(node)})

    def s_Return(self, node: ast.Return) -> None:
        if node.value is not None:
            vals = self.ev(node.value)
            scope = self.cur
            while scope.kind in ("comprehension", "class") and scope.parent is not None:
                scope = scope.parent
            self.widen(scope.returns, vals)

    def s_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                if self.cur is self.module:
                    self.module.env[target.id] = {UNBOUND}
            else:
                self.ev_target(target)

    def s_Assign(self, node: ast.Assign) -> None:
        vals = self.ev(node.value)
        for target in node.targets:
            self.assign(target, vals, node.value)

    def s_AugAssign(self, node: ast.AugAssign) -> None:
        right = self.ev(node.value)
        if isinstance(node.target, ast.Name):
            left = self.lookup(node.target.id)[0]
            self.bind(node.target.id, self.binop(node.op, left, right))
        else:
            self.ev_target(node.target)

    def s_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is None:
            return
        vals = self.ev(node.value)
        if annotation_is_ndarray(node.annotation):
            vals.add(ARR)
        self.assign(node.target, vals, node.value)

    def s_For(self, node: ast.For | ast.AsyncFor) -> None:
        elems = self.elements(self.ev(node.iter))

        def loop():
            self.assign(node.target, elems)
            self.exec_body(node.body)
        self.branch(loop, lambda: None)
        self.exec_body(node.orelse)

    s_AsyncFor = s_For

    def s_While(self, node: ast.While) -> None:
        self.ev(node.test)
        self.branch(lambda: self.exec_body(node.body), lambda: None)
        self.exec_body(node.orelse)

    def s_If(self, node: ast.If) -> None:
        self.ev(node.test)
        self.branch(lambda: self.exec_body(node.body), lambda: self.exec_body(node.orelse))

    def s_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            vals = self.ev(item.context_expr)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, {v for v in vals if v is ARR})
        self.exec_body(node.body)

    s_AsyncWith = s_With

    def s_Try(self, node: ast.Try | ast.TryStar) -> None:
        def handler(h):
            def run():
                if h.type is not None:
                    self.ev(h.type)
                if h.name:
                    self.bind(h.name, set())
                self.exec_body(h.body)
                if h.name and self.cur is self.module:
                    self.module.env[h.name] = {UNBOUND}
            return run
        def body_then_else() -> None:
            self.exec_body(node.body)
            self.exec_body(node.orelse)
        self.branch(body_then_else, *[handler(h) for h in node.handlers])
        self.exec_body(node.finalbody)

    s_TryStar = s_Try

    def s_Match(self, node: ast.Match) -> None:
        self.ev(node.subject)

        def case(c):
            def run():
                self.match_pattern(c.pattern, node.subject)
                if c.guard is not None:
                    self.ev(c.guard)
                self.exec_body(c.body)
            return run
        self.branch(*[case(c) for c in node.cases], lambda: None)

    def match_pattern(self, pattern: ast.pattern, subject: ast.expr) -> None:
        """Evaluate a case pattern's expressions and bind its captures (to unknown values).

        A class pattern's keywords are attribute reads by the names they spell
        (``case object(__globals__=g)`` is ``subject.__globals__``): each is evaluated as that
        attribute of what the pattern matches, so it is judged like the attribute written
        out.  Below a sequence, a mapping or a positional class pattern the matched value is
        not tracked: its attributes are read from an unknown value."""
        unknown = ast.Constant(value=None)
        for sub in ast.iter_child_nodes(pattern):
            if isinstance(sub, ast.expr):
                self.ev(sub)
        if isinstance(pattern, ast.MatchClass):
            for attr, sub in zip(pattern.kwd_attrs, pattern.kwd_patterns):
                read = ast.copy_location(ast.Attribute(value=subject, attr=attr, ctx=ast.Load()), sub)
                self.ev(read)
                self.match_pattern(sub, read)
            children, subject = pattern.patterns, unknown
        elif isinstance(pattern, (ast.MatchAs, ast.MatchOr)):
            children = [pattern.pattern] if isinstance(pattern, ast.MatchAs) and pattern.pattern else []
            children += pattern.patterns if isinstance(pattern, ast.MatchOr) else []
        else:
            children, subject = [p for p in ast.iter_child_nodes(pattern) if isinstance(p, ast.pattern)], unknown
        for child in children:
            self.match_pattern(child, subject)
        for attr in ("name", "rest"):
            name = getattr(pattern, attr, None)
            if isinstance(name, str):
                self.bind(name, set())

    def s_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if reaches_under(alias.name):
                self.dyn(node, alias.name)
            if alias.asname:
                self.bind(alias.asname, {Ext(alias.name)})
            else:
                top = alias.name.split(".")[0]
                self.bind(top, {Ext(top)})

    def s_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = "." * node.level + (node.module or "")
        if reaches_under(module):
            self.dyn(node, module)
        for alias in node.names:
            if alias.name == "*":
                if self.cur is self.module and module not in self.module.stars:
                    self.module.stars.append(module)
                continue
            self.bind(alias.asname or alias.name, {Ext(f"{module}.{alias.name}")})

    def s_Expr(self, node: ast.Expr) -> None:
        self.ev(node.value)

    def s_Global(self, node: ast.stmt) -> None:
        pass

    s_Nonlocal = s_Pass = s_Break = s_Continue = s_Global

    # -- assignment --------------------------------------------------------------------
    def assign(self, target: ast.AST, vals: set, value_node: ast.AST | None = None) -> None:
        if isinstance(target, ast.Name):
            self.bind(target.id, vals)
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            starred = any(isinstance(e, ast.Starred) for e in elts)
            if (isinstance(value_node, (ast.Tuple, ast.List)) and not starred
                    and len(value_node.elts) == len(elts)
                    and not any(isinstance(e, ast.Starred) for e in value_node.elts)):
                for t, v in zip(elts, value_node.elts):
                    self.assign(t, self.ev(v, callee=True))
                return
            per_index = None
            for v in vals:
                if isinstance(v, Cont) and v.length == len(elts) and not starred and len(vals) == 1:
                    per_index = [v.values(i) for i in range(len(elts))]
            elems = self.elements(vals)
            for i, t in enumerate(elts):
                if isinstance(t, ast.Starred):
                    self.assign(t.value, {make_cont("list", [(None, e) for e in elems], None)})
                else:
                    self.assign(t, per_index[i] if per_index else elems)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, {make_cont("list", [(None, e) for e in self.elements(vals)], None)})
        else:
            self.ev_target(target)

    def ev_target(self, target: ast.AST) -> None:
        if isinstance(target, ast.Attribute):
            self.ev(target.value, callee=True)
        elif isinstance(target, ast.Subscript):
            self.ev(target.value, callee=True)
            self.ev(target.slice)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for e in target.elts:
                self.ev_target(e)
        elif isinstance(target, ast.Starred):
            self.ev_target(target.value)

    def elements(self, vals: set) -> set:
        """What iterating over a value yields."""
        out: set = set()
        for v in vals:
            if isinstance(v, Cont):
                out |= v.values() if v.kind != "dict" else {Const(k) for k, _ in v.items if k is not None}
            elif v is ARR:
                out.add(ARR)
            elif isinstance(v, Const) and isinstance(v.value, str) and len(v.value) <= 64:
                out |= {Const(c) for c in v.value}
        return cap(out)

    # -- expressions -------------------------------------------------------------------
