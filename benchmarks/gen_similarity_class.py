"""Generate a class of N varied hw7_iteration submissions for the similarity benchmark, deterministically.

Each student's file takes every one of the seven functions from one of the independent
solutions in tests/similarity_corpus/hw7_iteration (with the helpers that function needs,
renamed apart), then varies it the way students differ: their own names for everything,
functions in their own order, a debug ``print`` here and there, and conditions written the
other way round (``a < b`` as ``b > a``). About one student in twenty copies a classmate's
file and disguises it (new names, new order, new prints). The result is a class with the
shared idiom, the near-misses and the copies a real one has, without any two files alike.

Layout: OUT/student_000/hw7_iteration.py ... plus OUT/manifest.json (who copied whom).
Run: python benchmarks/gen_similarity_class.py OUT [--n 500] [--seed 7]
"""
from __future__ import annotations

import argparse
import ast
import builtins
import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "tests" / "similarity_corpus" / "hw7_iteration"
BASES = ("indep_loops", "indep_tidy", "indep_oop", "indep_beginner")
GRADED = ("scrabbleScore", "war", "blackJack", "goFish", "wordSearch", "wordSearchHard", "blackJackHard")
ALIASES = {"scrabble_score": "scrabbleScore", "black_jack": "blackJack", "go_fish": "goFish", "word_search": "wordSearch",
           "word_search_hard": "wordSearchHard", "black_jack_hard": "blackJackHard"}
SYLLABLES = ("ka", "lo", "mi", "ne", "tu", "ra", "si", "vo", "pe", "du", "xa", "zo", "be", "fi", "go", "hu")
FLIP = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}


def top_level(base: str) -> tuple[dict[str, ast.stmt], list[ast.stmt]]:
    """A solution's named top-level definitions (graded names unified) and its imports."""
    tree = ast.parse((SOURCES / f"{base}.py").read_text())
    named: dict[str, ast.stmt] = {}
    imports: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append(node)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            node.name = ALIASES.get(node.name, node.name)
            named[node.name] = node
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            named[node.targets[0].id] = node
    return named, imports


def needs(name: str, named: dict[str, ast.stmt]) -> list[str]:
    """``name`` and every top-level definition it reaches, in the solution's order."""
    seen, todo = set(), [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo += [n.id for n in ast.walk(named[current]) if isinstance(n, ast.Name) and n.id in named]
    return [n for n in named if n in seen]


class Renamer(ast.NodeTransformer):
    """Every student-chosen name to a fresh one (graded names and the library stay)."""

    def __init__(self, mapping: dict[str, str]):
        self.mapping = mapping

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.mapping.get(node.id, node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self.mapping.get(node.arg, node.arg)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        node.name = self.mapping.get(node.name, node.name)
        self.generic_visit(node)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        node.name = self.mapping.get(node.name, node.name)
        self.generic_visit(node)
        return node


def fresh_names(module: ast.Module, rng: random.Random) -> dict[str, str]:
    keep = set(GRADED) | set(dir(builtins)) | {"self", "deque", "reduce", "operator"}
    chosen = {n.id for n in ast.walk(module) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    chosen |= {n.arg for n in ast.walk(module) if isinstance(n, ast.arg)}
    chosen |= {n.name for n in module.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}  # methods keep theirs
    return {name: "".join(rng.choice(SYLLABLES) for _ in range(3)) + f"_{i}"
            for i, name in enumerate(sorted(chosen - keep)) if not name.startswith("__")}


def vary(module: ast.Module, rng: random.Random) -> ast.Module:
    """Own names, own order, debug prints, flipped comparisons."""
    module = Renamer(fresh_names(module, rng)).visit(module)
    for node in ast.walk(module):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in FLIP and rng.random() < 0.3:
            node.left, node.comparators = node.comparators[0], [node.left]
            node.ops = [FLIP[type(node.ops[0])]()]
        if isinstance(node, ast.FunctionDef) and rng.random() < 0.5:
            where = rng.randrange(len(node.body))
            shown = ast.Expr(ast.Call(ast.Name("print", ast.Load()), [ast.Constant(f"debug {rng.randrange(100)}")], []))
            node.body.insert(where, shown)
    imports = [n for n in module.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    constants = [n for n in module.body if isinstance(n, ast.Assign)]
    rest = [n for n in module.body if n not in imports and n not in constants]
    rng.shuffle(rest)
    module.body = imports + constants + rest
    return ast.fix_missing_locations(module)


def compose(rng: random.Random, solutions: dict[str, tuple[dict[str, ast.stmt], list[ast.stmt]]]) -> ast.Module:
    """Each graded function from a randomly chosen solution, helpers suffixed per solution."""
    body: list[ast.stmt] = []
    taken: set[tuple[str, str]] = set()
    for function in GRADED:
        base = rng.choice(BASES)
        named, imports = solutions[base]
        for name in needs(function, named):
            if (base, name) in taken:
                continue
            taken.add((base, name))
            node = ast.parse(ast.unparse(named[name])).body[0]
            suffix = {n: n if n in GRADED else f"{n}_{base[6:]}" for n in named}
            body.append(Renamer(suffix).visit(node))
        for node in imports:
            if ast.unparse(node) not in {ast.unparse(n) for n in body}:
                body.insert(0, ast.parse(ast.unparse(node)).body[0])
    return ast.Module(body=body, type_ignores=[])


def generate(out: Path, n: int, seed: int) -> dict[str, str]:
    """Write the class; return who copied whom."""
    rng = random.Random(seed)
    solutions = {base: top_level(base) for base in BASES}
    texts: list[str] = []
    copied: dict[str, str] = {}
    for i in range(n):
        if texts and rng.random() < 0.05:
            original = rng.randrange(len(texts))
            module = vary(ast.parse(texts[original]), rng)
            copied[f"student_{i:03d}"] = f"student_{original:03d}"
        else:
            module = vary(compose(rng, solutions), rng)
        text = ast.unparse(module) + "\n"
        texts.append(text)
        folder = out / f"student_{i:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "hw7_iteration.py").write_text(text)
    (out / "manifest.json").write_text(json.dumps({"copied": copied}, indent=1))
    return copied


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    copied = generate(args.out, args.n, args.seed)
    print(f"wrote {args.n} submissions to {args.out} ({len(copied)} disguised copies of a classmate)")


if __name__ == "__main__":
    main()
