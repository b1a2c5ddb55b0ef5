"""Java and MATLAB normalised through tree-sitter grammars, by one walker driven by a table per language.

The rules are those of the Python normaliser (see python_lang): the student's names become ``V``,
literals ``L``, comments and layout vanish, dead code is dropped (``if (false)``, code after a
return, variables and functions used nowhere), compound assignments and ``i++`` read as
``x = x + y``, and every loop is ``LOOP`` + body whatever its form. Tree-sitter recovers from
syntax errors, so a file that does not compile is still compared; the first error is noted.
"""
from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from grader.similarity.model import Normalised, Token, Unit

_PUNCTUATION = set("(){}[];,.:'\"") | {"\n", "\r\n", "...", "%{", "%}"}
MAX_DEPTH = 400


@dataclass(frozen=True)
class Grammar:
    """What one language's tree-sitter node types mean for normalisation."""

    name: str
    module: str  # the PyPI grammar package, e.g. tree_sitter_java
    units: frozenset[str]  # node types that are a function or method
    comments: frozenset[str]
    identifiers: frozenset[str]
    literals: frozenset[str]
    binding_fields: frozenset[tuple[str, str]]  # (parent type, field) where an identifier is a definition
    binding_parents: frozenset[str]  # parent types whose every identifier child is a definition
    for_loops: frozenset[str]  # LOOP + body only
    while_loops: frozenset[str]  # LOOP + condition + body
    blocks: frozenset[str]  # statement lists
    jumps: frozenset[str]  # nothing after these in a block runs
    declarations: frozenset[str]  # statements that define a variable (`int x = ...;`)
    assignments: frozenset[str]  # `x = ...` as a statement or expression
    updates: frozenset[str]  # `i++`
    subscripts: frozenset[str]  # `xs[i]`, `xs(i)`, `xs.get(i)`
    entry_points: frozenset[str]
    first_function_is_entry: bool  # a MATLAB file's first function is what callers call


JAVA = Grammar(
    name="java",
    module="tree_sitter_java",
    units=frozenset({"method_declaration", "constructor_declaration"}),
    comments=frozenset({"line_comment", "block_comment"}),
    identifiers=frozenset({"identifier", "type_identifier"}),
    literals=frozenset({"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal",
                        "decimal_floating_point_literal", "hex_floating_point_literal", "string_literal",
                        "character_literal", "true", "false", "null_literal", "text_block"}),
    binding_fields=frozenset({(p, "name") for p in ("variable_declarator", "method_declaration", "class_declaration",
                                                     "formal_parameter", "enhanced_for_statement", "catch_formal_parameter",
                                                     "constructor_declaration", "interface_declaration", "enum_declaration",
                                                     "record_declaration", "enum_constant", "spread_parameter")}
                             | {("lambda_expression", "parameters")}),
    binding_parents=frozenset({"inferred_parameters"}),
    for_loops=frozenset({"for_statement", "enhanced_for_statement"}),
    while_loops=frozenset({"while_statement", "do_statement"}),
    blocks=frozenset({"block", "class_body", "program", "constructor_body", "switch_block_statement_group"}),
    jumps=frozenset({"return_statement", "break_statement", "continue_statement", "throw_statement"}),
    declarations=frozenset({"local_variable_declaration", "field_declaration"}),
    assignments=frozenset({"assignment_expression"}),
    updates=frozenset({"update_expression"}),
    subscripts=frozenset({"array_access", "method_invocation"}),
    entry_points=frozenset({"main"}),
    first_function_is_entry=False,
)

MATLAB = Grammar(
    name="matlab",
    module="tree_sitter_matlab",
    units=frozenset({"function_definition"}),
    comments=frozenset({"comment", "line_continuation"}),
    identifiers=frozenset({"identifier"}),
    literals=frozenset({"number", "string", "boolean"}),
    binding_fields=frozenset({("function_definition", "name"), ("assignment", "left"), ("lambda", "arguments")}),
    binding_parents=frozenset({"function_arguments", "function_output", "multioutput_variable", "iterator",
                               "global_operator", "persistent_operator"}),
    for_loops=frozenset({"for_statement", "parfor_statement"}),
    while_loops=frozenset({"while_statement"}),
    blocks=frozenset({"block", "source_file"}),
    jumps=frozenset({"return_statement", "break_statement", "continue_statement"}),
    declarations=frozenset(),
    assignments=frozenset({"assignment"}),
    updates=frozenset(),
    subscripts=frozenset({"function_call"}),
    entry_points=frozenset(),
    first_function_is_entry=True,
)


@lru_cache(maxsize=None)
def _parser(module: str) -> Any:
    from tree_sitter import Language, Parser

    return Parser(Language(importlib.import_module(module).language()))


def normalise_with(grammar: Grammar, files: dict[str, str], entry_points: frozenset[str]) -> Normalised:
    """Every file of one submission in ``grammar``'s language as units of tokens."""
    result = Normalised(language=grammar.name, units=[])
    parser = _parser(grammar.module)
    for name, text in files.items():
        tree = parser.parse(text.encode("utf-8"))
        if tree.root_node.has_error:
            result.notes.append(f"{name}: syntax error near line {_first_error_line(tree.root_node)}; compared as far as it parses")
        walker = _Walker(grammar, name, tree.root_node, entry_points | grammar.entry_points)
        result.units.extend(walker.units())
        if walker.too_deep:
            result.notes.append(f"{name}: nested too deeply; compared down to depth {MAX_DEPTH}")
    return result


def _first_error_line(root: Any) -> int:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return int(node.start_point[0]) + 1
        stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))
    return int(root.start_point[0]) + 1


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace")


def _unwrap(node: Any) -> Any:
    while node is not None and node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


class _Walker:
    """One file's tree to units of tokens, by the grammar's table."""

    def __init__(self, grammar: Grammar, file: str, root: Any, entry_points: frozenset[str]):
        self.g, self.file, self.root, self.entry_points = grammar, file, root, entry_points
        self.counts: Counter[str] = Counter()
        self.bound: set[str] = set()
        self.defined: set[str] = set()  # names of the functions and methods in the file
        self.found: list[Unit] = []
        self.too_deep = False
        self.first_unit: Any = None
        if grammar.first_function_is_entry:
            self.first_unit = next((c for c in root.named_children if c.type in grammar.units), None)
        self.scan(root)
        # As in python_lang: with no name the grader calls, a function called nowhere may be misnamed, not dead.
        self.prune_functions = self.first_unit is not None or bool(self.defined & self.entry_points)

    def scan(self, root: Any) -> None:
        stack = [(root, None, None)]
        while stack:
            node, parent, field = stack.pop()
            if node.type in self.g.units and node.child_by_field_name("name") is not None:
                self.defined.add(_text(node.child_by_field_name("name")))
            if node.type in self.g.identifiers:
                text = _text(node)
                self.counts[text] += 1
                if parent is not None and ((parent.type, field) in self.g.binding_fields or parent.type in self.g.binding_parents):
                    self.bound.add(text)
            for i, child in enumerate(node.children):
                stack.append((child, node, node.field_name_for_child(i)))

    def units(self) -> list[Unit]:
        top = Unit(self.file, "<file>")
        self.node(self.root, top.tokens, 0)
        self.found.append(top)
        return [u for u in self.found if u.tokens]

    # ------------------------------------------------------------------ what a statement is

    def label(self, name: str) -> str:
        return "V" if name in self.bound else name

    def assigned_name(self, stmt: Any) -> str | None:
        """The one simple variable a statement sets, if that is all it does."""
        if stmt.type == "expression_statement" and stmt.named_child_count == 1:
            stmt = stmt.named_children[0]
        if stmt.type in self.g.declarations:
            declarators = stmt.children_by_field_name("declarator")
            name = declarators[0].child_by_field_name("name") if len(declarators) == 1 else None
            return _text(name) if name is not None else None
        if stmt.type in self.g.assignments or stmt.type in self.g.updates:
            target = stmt.child_by_field_name("left") if stmt.type in self.g.assignments else stmt.named_children[0]
            if target is not None and target.type in self.g.identifiers:
                return _text(target)
        return None

    def assigned_value(self, stmt: Any) -> Any:
        if stmt.type == "expression_statement" and stmt.named_child_count == 1:
            stmt = stmt.named_children[0]
        if stmt.type in self.g.declarations:
            return stmt.children_by_field_name("declarator")[0].child_by_field_name("value")
        return stmt.child_by_field_name("right")

    def mentions(self, node: Any, name: str) -> bool:
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in self.g.identifiers and _text(n) == name:
                return True
            stack.extend(n.children)
        return False

    def is_false(self, condition: Any) -> bool:
        condition = _unwrap(condition)
        return condition is not None and _text(condition) in ("false", "0")

    def dead(self, stmt: Any) -> bool:
        if stmt.type in self.g.comments:
            return True
        if stmt.type in self.g.units:
            name = stmt.child_by_field_name("name")
            return (self.prune_functions and name is not None and self.counts[_text(name)] <= 1 and stmt != self.first_unit
                    and _text(name) not in self.entry_points)
        if stmt.type == "if_statement" and self.is_false(stmt.child_by_field_name("condition")):
            return not any(c.type in ("else_clause", "elseif_clause") for c in stmt.children) and stmt.child_by_field_name("alternative") is None
        if stmt.type in self.g.while_loops and self.is_false(stmt.child_by_field_name("condition")):
            return True
        if stmt.type in self.g.declarations:
            names = [d.child_by_field_name("name") for d in stmt.children_by_field_name("declarator")]
            return bool(names) and all(n is not None and self.counts[_text(n)] <= 1 for n in names)
        name = self.assigned_name(stmt)
        return name is not None and self.counts[name] <= 1

    def body(self, loop: Any) -> Any:
        body = loop.child_by_field_name("body")
        if body is None:
            body = next((c for c in loop.named_children if c.type in self.g.blocks), None)
        return body

    def statements(self, block: Any) -> list[Any]:
        return [c for c in block.named_children if c.type not in self.g.comments] if block is not None and block.type in self.g.blocks else []

    # ------------------------------------------------------------------ emission

    def node(self, node: Any, out: list[Token], depth: int) -> None:
        if depth > MAX_DEPTH:
            self.too_deep = True
            return
        kind, line = node.type, int(node.start_point[0]) + 1
        if kind in self.g.comments or node.is_missing:
            return
        if kind in self.g.units:
            self.unit(node, depth)
        elif kind in self.g.identifiers:
            out.append(Token(self.label(_text(node)), line))
        elif kind in self.g.literals:
            out.append(Token("L", line))
        elif not node.is_named:
            if kind.strip() and kind not in _PUNCTUATION:
                out.append(Token(kind, line))
        elif kind in self.g.for_loops:
            self.loop(node, out, depth)
        elif kind in self.g.while_loops:
            out.append(Token("LOOP", line))
            condition = node.child_by_field_name("condition")
            if condition is not None:
                self.node(condition, out, depth + 1)
            self.emit_body(self.body(node), out, depth)
        elif kind in self.g.updates or self.compound(node):
            self.expanded_assignment(node, out, depth)
        elif kind in self.g.blocks:
            out.append(Token(kind, line))
            self.block(self.statements(node), out, depth)
        else:
            out.append(Token(kind, line))
            for child in node.children:
                self.node(child, out, depth + 1)

    def unit(self, node: Any, depth: int) -> None:
        name = node.child_by_field_name("name")
        unit = Unit(self.file, _text(name) if name is not None else node.type)
        unit.tokens.append(Token(node.type, int(node.start_point[0]) + 1))
        for child in node.children:
            if child.type != "identifier" or child != name:
                self.node(child, unit.tokens, depth + 1)
        self.found.append(unit)

    def plain_assignment(self, stmt: Any) -> bool:
        if stmt.type == "expression_statement" and stmt.named_child_count == 1:
            stmt = stmt.named_children[0]
        return stmt.type in self.g.declarations or (stmt.type in self.g.assignments and not self.compound(stmt))

    def compound(self, node: Any) -> bool:
        if node.type not in self.g.assignments:
            return False
        op = node.child_by_field_name("operator")
        return op is not None and _text(op) not in ("=",)

    def expanded_assignment(self, node: Any, out: list[Token], depth: int) -> None:
        """``x += y`` and ``x++`` as ``x = x + y``."""
        line = int(node.start_point[0]) + 1
        if node.type in self.g.updates:
            target, op, value = node.named_children[0], "+" if "+" in _text(node) else "-", None
        else:
            target, op, value = node.child_by_field_name("left"), _text(node.child_by_field_name("operator"))[:-1], node.child_by_field_name("right")
        out.append(Token("assignment_expression", line))
        self.node(target, out, depth + 1)
        out.append(Token("=", line))
        out.append(Token("binary_expression", line))
        self.node(target, out, depth + 1)
        out.append(Token(op, line))
        if value is None:
            out.append(Token("L", line))
        else:
            self.node(value, out, depth + 1)

    def loop(self, node: Any, out: list[Token], depth: int) -> None:
        out.append(Token("LOOP", int(node.start_point[0]) + 1))
        index = None
        init = node.child_by_field_name("init")
        iterator = next((c for c in node.named_children if c.type == "iterator"), None)
        if init is not None:
            index = self.assigned_name(init)
        elif iterator is not None and iterator.named_child_count:
            index = _text(iterator.named_children[0])
        self.emit_body(self.body(node), out, depth, index)

    def emit_body(self, body: Any, out: list[Token], depth: int, index: str | None = None, drop_last: bool = False) -> None:
        if body is None:
            return
        if body.type not in self.g.blocks:
            self.node(body, out, depth + 1)
            return
        stmts = self.statements(body)
        if drop_last:
            stmts = stmts[:-1]
        if index and stmts and self.assigned_name(stmts[0]) and self.plain_assignment(stmts[0]):
            value = _unwrap(self.assigned_value(stmts[0]))
            if value is not None and value.type in self.g.subscripts and self.mentions(value, index):
                stmts = stmts[1:]  # `x = xs[i]` at the top of a counting loop is a for-each
        self.block(stmts, out, depth + 1)

    def block(self, stmts: list[Any], out: list[Token], depth: int) -> None:
        live = []
        for stmt in stmts:
            if not self.dead(stmt):
                live.append(stmt)
            if stmt.type in self.g.jumps:
                break
        i = 0
        while i < len(live):
            stmt, following = live[i], live[i + 1] if i + 1 < len(live) else None
            counter = self.assigned_name(stmt)
            if counter and following is not None and following.type in self.g.while_loops and self.counting(following, counter):
                # `i = 0; while (i < n) { ...; i++; }` is the same loop as `for (int i = 0; i < n; i++)`.
                out.append(Token("LOOP", int(following.start_point[0]) + 1))
                self.emit_body(self.body(following), out, depth, counter, drop_last=True)
                i += 2
                continue
            self.node(stmt, out, depth + 1)
            i += 1

    def counting(self, loop: Any, counter: str) -> bool:
        condition, stmts = loop.child_by_field_name("condition"), self.statements(self.body(loop))
        return condition is not None and bool(stmts) and self.mentions(condition, counter) and self.assigned_name(stmts[-1]) == counter
