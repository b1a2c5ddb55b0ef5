"""Static ban analysis: the corpus of evasion attempts and honest look-alikes, scoping, hw7.

Every file in tests/bans_corpus/ starts with header comments:

    # expect: clean                              no static finding, no run-time hit
    # expect: <banned> static [rule]             check_bans reports <banned> (with that rule)
    # expect: <banned> runtime                   CallWatcher records <banned> (test_bans_runtime)
    # expect: tampered runtime                   CallWatcher reports tampering
    # policy: name, name                         (optional) policy names, default HW7_NAMES
    # call: f([1, 2, 3])                         how the run-time test calls it

The set of banned names found statically must equal the set expected: an extra finding
on an evasion file, or any finding on an honest one, fails.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from grader.run.child import monitor
from grader.spec.model import BanPolicy
from grader.static.bans import RULES, Finding, check_bans, format_findings, parse_policy

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "bans_corpus"

# The hw7 policy (specs/hw7_iteration.yaml) plus the names the corpus exercises beyond it.
HW7_NAMES = (
    "builtins.sum", "math.fsum", "numpy.sum", "numpy.cumsum", "numpy.mean", "numpy.nansum",
    "numpy.nancumsum", "numpy.nanmean", "numpy.average", "numpy.add.reduce",
    "numpy.add.accumulate", "numpy.ndarray.sum", "numpy.ndarray.cumsum", "numpy.ndarray.mean",
    "statistics.mean", "statistics.fmean", "itertools.accumulate",
)


@dataclass
class Entry:
    path: Path
    static: set = field(default_factory=set)        # {(banned, rule or None)}
    runtime: set = field(default_factory=set)       # {banned} or {"tampered"}
    clean: bool = False
    policy: tuple = HW7_NAMES
    call: str | None = None

    @property
    def source(self) -> str:
        return self.path.read_text()


def parse_entry(path: Path) -> Entry:
    entry = Entry(path)
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        m = re.match(r"#\s*(expect|policy|call):\s*(.*)$", line)
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == "call":
            entry.call = value
        elif key == "policy":
            entry.policy = tuple(n.strip() for n in re.split(r",\s*(?![^()]*\))", value) if n.strip())
        elif value == "clean":
            entry.clean = True
        else:
            parts = value.split()
            banned, layer = parts[0], parts[1]
            if layer == "static":
                entry.static.add((banned, parts[2] if len(parts) > 2 else None))
            elif layer == "runtime":
                entry.runtime.add(banned)
            else:  # pragma: no cover - a malformed header must fail loudly
                raise ValueError(f"{path.name}: bad expectation {value!r}")
    return entry


ENTRIES = [parse_entry(p) for p in sorted(CORPUS.glob("*.py"))]
EVASIONS = [e for e in ENTRIES if e.path.name.startswith("evade_")]
HONEST = [e for e in ENTRIES if e.path.name.startswith("honest_")]


def _check(entry: Entry, graded=None, scope="reachable") -> list[Finding]:
    policy = BanPolicy(names=entry.policy, scope=scope)
    return check_bans(entry.source, str(entry.path), policy, graded or {"f": ("f",)})


def test_corpus_is_big_enough_and_well_formed():
    assert len(EVASIONS) >= 30
    assert len(HONEST) >= 15
    for entry in ENTRIES:
        assert entry.clean or entry.static or entry.runtime, entry.path.name
        assert entry.clean == entry.path.name.startswith("honest_"), entry.path.name
        assert entry.call, f"{entry.path.name} has no '# call:' line"
        ast.parse(entry.source)  # each file is valid Python


@pytest.mark.parametrize("entry", EVASIONS, ids=[e.path.stem for e in EVASIONS])
def test_evasion_is_found_statically(entry: Entry):
    findings = _check(entry)
    found = {f.banned for f in findings}
    expected = {banned for banned, _ in entry.static}
    assert found == expected, format_findings(findings)
    for banned, rule in entry.static:
        if rule is not None:
            assert any(f.banned == banned and f.rule == rule for f in findings), (
                f"no {rule} for {banned}\n" + format_findings(findings))
    for f in findings:
        assert f.rule in RULES
        assert f.evasion == (f.rule in ("dynamic-code", "unanalysable"))
        assert f.functions == ("f",), format_findings([f])
        assert f.source_line and f.source_line in entry.source
        assert f.message.endswith(".")


@pytest.mark.parametrize("entry", HONEST, ids=[e.path.stem for e in HONEST])
def test_honest_lookalike_is_clean(entry: Entry):
    findings = _check(entry)
    assert findings == [], format_findings(findings)


@pytest.mark.parametrize("entry", HONEST, ids=[e.path.stem for e in HONEST])
def test_honest_lookalike_is_clean_with_file_scope(entry: Entry):
    assert _check(entry, scope="file") == []


# --------------------------------------------------------------------------- details

HELPER = '''\
import numpy as np

def helper(xs):
    return sum(xs)

def uses_helper(xs):
    return helper(xs) * 2

def clean(xs):
    t = 0
    for x in xs:
        t += x
    return t

alias_of_helper = helper

def via_alias(xs):
    h = alias_of_helper
    return h(xs)

def deep(xs):
    return uses_helper(xs)
'''

GRADED = {"uses_helper": ("uses_helper",), "clean": ("clean",), "via_alias": ("via_alias",),
          "deep": ("deep",)}


def test_scope_reachable_charges_only_callers_of_the_helper():
    findings = check_bans(HELPER, "hw.py", BanPolicy(names=("builtins.sum",), scope="reachable"), GRADED)
    assert len(findings) == 1
    (f,) = findings
    assert (f.rule, f.banned, f.line, f.col) == ("banned-call", "builtins.sum", 4, 12)
    assert f.source_line == "return sum(xs)"
    assert set(f.functions) == {"uses_helper", "via_alias", "deep"}
    assert "clean" not in f.functions


def test_scope_file_charges_every_graded_function():
    findings = check_bans(HELPER, "hw.py", BanPolicy(names=("builtins.sum",), scope="file"), GRADED)
    assert [set(f.functions) for f in findings] == [set(GRADED)]


def test_module_level_code_counts_against_every_graded_function():
    src = "import statistics\nAVG = statistics.mean([1, 2])\n\ndef f(xs):\n    return 1\n\ndef g(xs):\n    return 2\n"
    findings = check_bans(src, "m.py", BanPolicy(names=("statistics.mean",)), {"f": ("f",), "g": ("g",)})
    assert [(f.rule, f.line, set(f.functions)) for f in findings] == [("banned-call", 2, {"f", "g"})]


def test_module_level_call_makes_the_callee_count_against_all():
    src = "def helper():\n    return sum([1])\n\nX = helper()\n\ndef f(xs):\n    return 1\n"
    findings = check_bans(src, "m.py", BanPolicy(names=("builtins.sum",)), {"f": ("f",)})
    assert [(f.line, f.functions) for f in findings] == [(2, ("f",))]


def test_graded_function_defined_under_an_alias():
    src = "def scrabbleScore(a, b):\n    return sum(a)\n\nscrabble_score = scrabbleScore\n\ndef other(x):\n    return x\n"
    graded = {"scrabbleScore": ("scrabbleScore", "scrabble_score"), "other": ("other",)}
    only_alias = src.replace("def scrabbleScore", "def _impl").replace("= scrabbleScore", "= _impl")
    for text in (src, only_alias):
        findings = check_bans(text, "m.py", BanPolicy(names=("builtins.sum",)), graded)
        assert [f.functions for f in findings] == [("scrabbleScore",)], format_findings(findings)


def test_method_reached_through_class_and_instance():
    src = (
        "import numpy as np\n"
        "class Box:\n"
        "    def total(self, a: np.ndarray):\n"
        "        return a.sum()\n"
        "    def clean(self):\n        return 1\n"
        "def f(a):\n    return Box().total(a)\n"
        "def g(a):\n    return 0\n"
    )
    findings = check_bans(src, "m.py", BanPolicy(names=("numpy.sum",)), {"f": ("f",), "g": ("g",)})
    assert [(f.banned, f.line, f.functions) for f in findings] == [("numpy.sum", 4, ("f",))]


def test_lambda_helper_and_nested_function_scopes():
    src = (
        "import statistics\n"
        "avg = lambda xs: statistics.mean(xs)\n"
        "def f(xs):\n    return avg(xs)\n"
        "def g(xs):\n    def inner():\n        return statistics.mean(xs)\n    return inner()\n"
        "def h(xs):\n    return len(xs)\n"
    )
    findings = check_bans(src, "m.py", BanPolicy(names=("statistics.mean",)),
                          {"f": ("f",), "g": ("g",), "h": ("h",)})
    assert [(f.line, f.functions) for f in findings] == [(2, ("f",)), (7, ("g",))]


def test_default_argument_is_charged_to_its_function():
    src = "def f(xs, t=sum):\n    return t(xs)\n\ndef g(xs):\n    return 0\n"
    findings = check_bans(src, "m.py", BanPolicy(names=("builtins.sum",)), {"f": ("f",), "g": ("g",)})
    assert {f.functions for f in findings} == {("f",)}
    assert {f.rule for f in findings} == {"banned-reference", "banned-call"}


def test_module_flow_use_before_shadowing_is_the_builtin():
    src = "TOTAL = sum([1, 2])\n\ndef sum(xs):\n    return 0\n\ndef f(xs):\n    return sum(xs)\n"
    findings = check_bans(src, "m.py", BanPolicy(names=("builtins.sum",)), {"f": ("f",)})
    assert [(f.line, f.rule) for f in findings] == [(1, "banned-call")]


def test_pair_name_only_matches_addition():
    names = ("functools.reduce(operator.add)", "itertools.accumulate(operator.add)")
    covered, pairs = parse_policy(names)
    assert covered == {} and {p[1] for p in pairs} == {"functools.reduce", "itertools.accumulate"}
    src = (
        "import functools, operator, itertools\nimport numpy as np\nfrom functools import reduce, partial\n"
        "def plus(a, b):\n    return a + b\n"
        "def f(xs):\n"
        "    reduce(np.add, xs)\n"                          # 7
        "    reduce(plus, xs)\n"                            # 8
        "    list(itertools.accumulate(xs, operator.add))\n"  # 9
        "    partial(reduce, operator.__add__)(xs)\n"       # 10
        "    reduce(operator.mul, xs)\n"                    # 11 allowed
        "    reduce(lambda a, b: a * b, xs)\n"              # 12 allowed
        "    list(itertools.accumulate(xs, max))\n"         # 13 allowed
    )
    findings = check_bans(src, "m.py", BanPolicy(names=names), {"f": ("f",)})
    assert sorted(f.line for f in findings) == [7, 8, 9, 10], format_findings(findings)


def test_reduce_banned_outright_and_numpy_equivalents():
    src = (
        "import functools\nimport numpy as np\nfrom numpy import cumsum\n"
        "def f(xs):\n"
        "    functools.reduce(max, xs)\n"       # functools.reduce
        "    a = np.asarray(xs)\n"
        "    np.ndarray.cumsum(a)\n"            # numpy.cumsum via ndarray
        "    a.T.mean()\n"                     # numpy.mean via ndarray
        "    (a + 1)[0:2].cumsum()\n"           # numpy.cumsum
        "    cumsum(xs)\n"                      # numpy.cumsum
        "    a.max()\n"                         # allowed
    )
    names = ("functools.reduce", "numpy.cumsum", "numpy.mean")
    findings = check_bans(src, "m.py", BanPolicy(names=names), {"f": ("f",)})
    assert [(f.line, f.banned) for f in findings] == [
        (5, "functools.reduce"), (7, "numpy.cumsum"), (8, "numpy.mean"), (9, "numpy.cumsum"),
        (10, "numpy.cumsum")], format_findings(findings)


def test_dynamic_code_constructs_are_evasions():
    src = (
        "import importlib, builtins, sys\n"
        "def f(xs, name):\n"
        "    exec(name)\n"                            # exec
        "    importlib.import_module(name)\n"        # importlib.import_module
        "    locals()[name]\n"                        # locals
        "    vars()[name]\n"                          # locals (vars() is locals())
        "    sys.modules[name]\n"                     # sys.modules
        "    getattr(builtins, name)\n"               # getattr
        "    getattr(xs, name)\n"                     # not flagged: unknown object
        "    f.__globals__\n"                         # __globals__
    )
    findings = check_bans(src, "m.py", BanPolicy(names=("builtins.sum",)), {"f": ("f",)})
    assert all(f.evasion and f.rule == "dynamic-code" for f in findings)
    assert [(f.line, f.banned) for f in findings] == [
        (3, "exec"), (4, "importlib.import_module"), (5, "locals"), (6, "locals"),
        (7, "sys.modules"), (8, "getattr"), (10, "__globals__")], format_findings(findings)


def test_reaching_under_the_interpreter_is_an_evasion():
    # rt2: ctypes made a new sum from builtins' method table, and a subinterpreter has builtins of
    # its own; neither was reported at all, and both scored 60/50 past the run-time tripwire.
    src = (
        "import ctypes\n"
        "def f(xs):\n"
        "    import _xxsubinterpreters as si\n"
        "    from _gradechild import monitor\n"
        "    __import__('_testcapi')\n"
        "    import sys\n"
        "    return si, monitor, ctypes, sys.modules['_ctypes']\n"
    )
    findings = check_bans(src, "m.py", BanPolicy(names=("builtins.sum",)), {"f": ("f",)})
    assert all(f.evasion and f.rule == "dynamic-code" for f in findings)
    assert [(f.line, f.banned) for f in findings] == [
        (1, "ctypes"), (3, "_xxsubinterpreters"), (4, "_gradechild"), (5, "_testcapi"), (7, "_ctypes")], \
        format_findings(findings)


def test_unparsable_source_is_reported_not_raised():
    findings = check_bans("def f(:\n", "bad.py", BanPolicy(names=("builtins.sum",)), {"f": ("f",)})
    assert [(f.rule, f.evasion, f.functions) for f in findings] == [("unanalysable", True, ("f",))]


def test_deeply_nested_source_does_not_crash():
    src = "X = " + " + ".join(["'a'"] * 3000) + "\n"
    findings = check_bans(src, "m.py", BanPolicy(names=("builtins.sum",)), {"f": ("f",)})
    assert all(f.rule == "unanalysable" for f in findings)


def test_format_findings_layout():
    findings = check_bans(HELPER, "hw.py", BanPolicy(names=("builtins.sum",)), GRADED)
    text = format_findings(findings)
    lines = text.splitlines()
    assert lines[0].startswith("hw.py:4:12: banned-call: `sum(...)` calls builtins.sum")
    assert lines[1].strip() == "return sum(xs)"
    assert lines[2].strip().startswith("affects: ") and "uses_helper" in lines[2]
    colored = format_findings(findings, color=True)
    assert "\033[" in colored and "\033[" not in text


def test_static_and_runtime_name_tables_agree():
    covered, _ = parse_policy(HW7_NAMES)
    assert covered == monitor.expand_names(HW7_NAMES)
    assert covered["numpy.ndarray.sum"] == "numpy.ndarray.sum"  # listed exactly: wins
    assert monitor.expand_names(["numpy.sum"])["numpy.ndarray.sum"] == "numpy.sum"
    assert monitor.expand_names(["numpy.sum"])["numpy.add.reduce"] == "numpy.sum"
    assert monitor.canonical_name("numpy._core.fromnumeric.sum") == "numpy.sum"
    assert "math.fsum" not in monitor.expand_names(["builtins.sum"])
    # The same computation under other names (found by a red-team pass: each scored full marks).
    covers = monitor.expand_names(["numpy.sum", "numpy.cumsum", "statistics.mean"])
    assert {n: covers[n] for n in ("numpy.cumulative_sum", "numpy.ma.cumsum", "numpy.ma.sum", "numpy.add.reduceat",
                                   "numpy._core._methods._sum", "statistics._sum")} == {
        "numpy.cumulative_sum": "numpy.cumsum", "numpy.ma.cumsum": "numpy.cumsum", "numpy.ma.sum": "numpy.sum",
        "numpy.add.reduceat": "numpy.sum", "numpy._core._methods._sum": "numpy.sum", "statistics._sum": "statistics.mean"}


def _hw7_ban_names(spec):
    """The handout bans sum, cumsum and mean in scrabbleScore only: the names sit on that function."""
    return next(fn["bans"]["names"] for fn in spec["functions"] if fn["name"] == "scrabbleScore")


def test_hw7_reference_obeys_its_own_bans():
    spec = yaml.safe_load((ROOT / "specs" / "hw7_iteration.yaml").read_text())
    names = tuple(_hw7_ban_names(spec))
    assert "builtins.sum" in names
    graded = {fn["name"]: (fn["name"], *fn.get("aliases", ())) for fn in spec["functions"]}
    path = ROOT / "reference" / "hw7_iteration.py"
    for scope in ("reachable", "file"):
        findings = check_bans(path.read_text(), str(path), BanPolicy(names=names, scope=scope), graded)
        assert findings == [], format_findings(findings)


def test_hw7_policy_catches_the_handout_bans():
    spec = yaml.safe_load((ROOT / "specs" / "hw7_iteration.yaml").read_text())
    names = tuple(_hw7_ban_names(spec))
    src = ("import numpy as np\nfrom statistics import mean\n"
           "def scrabbleScore(a, b):\n    return sum(a), np.cumsum(b), mean(a), np.array(a).sum()\n")
    findings = check_bans(src, "s.py", BanPolicy(names=names), {"scrabbleScore": ("scrabbleScore",)})
    assert [f.banned for f in findings] == ["builtins.sum", "numpy.cumsum", "statistics.mean",
                                            "numpy.ndarray.sum"]


def _every_python_file():
    for folder in (CORPUS, ROOT / "submissions", ROOT / "reference", ROOT / "tests" / "sandbox_attacks"):
        yield from sorted(folder.rglob("*.py"))


def test_the_fast_path_never_hides_a_finding(monkeypatch):
    """Skipping the full analysis for code that mentions nothing banned changes no result."""
    import yaml

    from grader.static import bans

    names = tuple(_hw7_ban_names(yaml.safe_load((ROOT / "specs" / "hw7_iteration.yaml").read_text())))
    policy = BanPolicy(names=names, scope="reachable")
    sources = {p: p.read_text(encoding="utf-8", errors="replace") for p in _every_python_file()}
    fast = {p: check_bans(src, p.name, policy, GRADED) for p, src in sources.items()}
    skipped = [p for p, src in sources.items() if not _mentions(src, names)]
    assert len(skipped) >= 10, "the fast path should apply to honest files"
    monkeypatch.setattr(bans, "mentions_anything_banned", lambda tree, names: True)
    full = {p: check_bans(src, p.name, policy, GRADED) for p, src in sources.items()}
    assert fast == full


def _mentions(source, names):
    import ast

    from grader.static.bans import mentions_anything_banned

    try:
        return mentions_anything_banned(ast.parse(source), names)
    except SyntaxError:
        return True


@pytest.mark.parametrize("decorator, registry_use", [
    ("register", "HANDLERS[0](xs)"),          # a local decorator appending to a module-level list
    ("HANDLERS.append", "HANDLERS[0](xs)"),   # the list's own method as the decorator
    ("command('total')", "COMMANDS['total'](xs)"),   # a decorator factory filling a dict
])
def test_a_function_registered_by_a_decorator_counts_against_who_uses_the_registry(decorator, registry_use):
    source = f"""
HANDLERS = []
COMMANDS = {{}}


def register(fn):
    HANDLERS.append(fn)
    return fn


def command(name):
    def deco(fn):
        COMMANDS[name] = fn
        return fn
    return deco


@{decorator}
def helper(values):
    return sum(values)


def uses_it(xs):
    return {registry_use}


def unrelated(xs):
    return len(xs)
"""
    findings = check_bans(source, "s.py", BanPolicy(names=("builtins.sum",), scope="reachable"),
                          {"uses_it": ("uses_it",), "unrelated": ("unrelated",)})
    assert [(f.banned, f.functions) for f in findings] == [("builtins.sum", ("uses_it",))], format_findings(findings)


@pytest.mark.parametrize("source", ["def f(xs):\n    return sum(xs)\n", "def f(xs):\n    return len(xs)\n", "def f(:\n"])
def test_the_collector_is_left_as_it_was_found(source):
    """The analysis pauses the cyclic collector while it runs, and only while it runs."""
    import gc

    policy = BanPolicy(names=("builtins.sum",))
    assert gc.isenabled()
    check_bans(source, "s.py", policy, GRADED)
    assert gc.isenabled()
    gc.disable()
    try:
        check_bans(source, "s.py", policy, GRADED)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_banned_method_of_a_class_is_reached_only_through_an_attribute():
    """collections.Counter.total on the ban list must not send every file with a variable
    called total to the full analysis, and must catch its use through an attribute."""
    import ast

    from grader.static.bans import mentions_anything_banned

    names = ("builtins.sum", "collections.Counter.total")
    assert not mentions_anything_banned(ast.parse("def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n"
                                                  "    return total\n"), names)
    assert mentions_anything_banned(ast.parse("def f(c):\n    return c.total()\n"), names)
    assert mentions_anything_banned(ast.parse("def f(c):\n    return getattr(c, 'total')()\n"), names)
