"""Run-time confirmation: CallWatcher (the profile-hook layer) over the corpus, in process and
(tampering) in a subprocess.  Files marked ``# layer: tripwire`` are seen only by the tripwires;
tests/test_sandbox_trust.py runs every corpus file through both layers as deployed.

Every corpus file names its run-time expectations (``# expect: <banned> runtime``,
``# expect: tampered runtime``) and how to call it (``# call: ...``).  Honest files and
static-only evasions must produce no hit at all.
"""
from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from grader.run.child.monitor import CallWatcher, Tripwires
try:  # tests/ is a rootdir-relative directory, not a package (unless someone makes it one)
    from test_bans_static import ENTRIES, Entry
except ImportError:  # pragma: no cover
    from tests.test_bans_static import ENTRIES, Entry

MONITOR = Path(__file__).resolve().parent.parent / "grader" / "run" / "child" / "monitor.py"
_counter = itertools.count()

TRIPWIRE_ONLY = [e for e in ENTRIES if "# layer: tripwire" in e.source]
HOOKED = [e for e in ENTRIES if e not in TRIPWIRE_ONLY]
IN_PROCESS = [e for e in HOOKED if "tampered" not in e.runtime and "thread" not in e.path.name]
SUBPROCESS = [e for e in HOOKED if e not in IN_PROCESS]


def load(path: Path):
    name = f"bans_corpus_{path.stem}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def watch(entry: Entry) -> CallWatcher:
    module = load(entry.path)
    names = [n for n in entry.policy if "(" not in n]
    with CallWatcher(names, files=[str(entry.path)]) as watcher:
        eval(entry.call, vars(module))
    return watcher


@pytest.mark.parametrize("entry", IN_PROCESS, ids=[e.path.stem for e in IN_PROCESS])
def test_runtime_layer_in_process(entry: Entry):
    watcher = watch(entry)
    assert {h["banned"] for h in watcher.hits} == entry.runtime, watcher.hits
    assert not watcher.tampered, watcher.tamper_reasons
    for hit in watcher.hits:
        assert hit["filename"] == str(entry.path)
        assert hit["count"] >= 1
        line = entry.source.splitlines()[hit["line"] - 1]
        assert not line.lstrip().startswith("#"), line


# A runner that loads monitor.py on its own (proving it needs nothing from ``grader``).
RUNNER = textwrap.dedent("""
    import importlib.util, json, sys
    spec = importlib.util.spec_from_file_location("monitor", sys.argv[1])
    monitor = importlib.util.module_from_spec(spec); spec.loader.exec_module(monitor)
    assert not any(m == "grader" or m.startswith("grader.") for m in sys.modules), "monitor imported grader"
    spec = importlib.util.spec_from_file_location("student", sys.argv[2])
    student = importlib.util.module_from_spec(spec); spec.loader.exec_module(student)
    names = json.loads(sys.argv[4])
    with monitor.CallWatcher(names, files=[sys.argv[2]]) as w:
        eval(sys.argv[3], vars(student))
    print(json.dumps({"hits": w.hits, "tampered": w.tampered, "reasons": w.tamper_reasons,
                      "profile_after": sys.getprofile() is None}))
""")


def run_isolated(path: Path, call: str, names) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, str(MONITOR), str(path), call, json.dumps(list(names))],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("entry", SUBPROCESS, ids=[e.path.stem for e in SUBPROCESS])
def test_runtime_layer_in_subprocess(entry: Entry):
    result = run_isolated(entry.path, entry.call, [n for n in entry.policy if "(" not in n])
    expected = entry.runtime - {"tampered"}
    seen = {h["banned"] for h in result["hits"]}
    if "tampered" in entry.runtime:
        assert result["tampered"], result
        assert seen <= expected  # what was seen before the hook went away
    else:
        assert not result["tampered"], result
        assert seen == expected, result
    assert result["profile_after"]  # the previous (absent) hook is restored


def test_every_runtime_expectation_is_exercised():
    assert len(IN_PROCESS) + len(SUBPROCESS) + len(TRIPWIRE_ONLY) == len(ENTRIES)
    assert sum(1 for e in ENTRIES if "tampered" in e.runtime) >= 3
    assert sum(1 for e in ENTRIES if e.runtime - {"tampered"}) >= 30


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "student.py"
    path.write_text(textwrap.dedent(text))
    return path


def test_replacing_sys_setprofile_is_tampering(tmp_path):
    path = _write(tmp_path, """
        import sys
        def f(xs):
            sys.setprofile = lambda fn: None
            return len(xs)
    """)
    result = run_isolated(path, "f([1])", ["builtins.sum"])
    assert result["tampered"] and any("replaced" in r for r in result["reasons"])


def test_threading_setprofile_is_tampering(tmp_path):
    path = _write(tmp_path, """
        import threading
        def f(xs):
            threading.setprofile(None)
            t = threading.Thread(target=lambda: sum(xs)); t.start(); t.join()
            return 0
    """)
    result = run_isolated(path, "f([1])", ["builtins.sum"])
    assert result["tampered"], result
    assert "threading.setprofile called" in result["reasons"]


def test_names_resolve_lazily_when_numpy_is_imported_during_the_call(tmp_path):
    path = _write(tmp_path, """
        import sys
        def f(xs):
            assert "numpy" not in sys.modules
            import numpy as np
            return int(np.sum(np.array(xs))) + int(np.array(xs).cumsum()[-1])
    """)
    result = run_isolated(path, "f([1, 2])", ["numpy.sum", "numpy.cumsum"])
    assert {h["banned"] for h in result["hits"]} == {"numpy.sum", "numpy.cumsum"}
    assert {h["line"] for h in result["hits"]} == {6}


def test_watching_numpy_does_not_import_it(tmp_path):
    path = _write(tmp_path, """
        import sys
        def f(xs):
            return "numpy" in sys.modules
    """)
    code = RUNNER.replace("print(json.dumps(", "print(json.dumps({'numpy': eval(sys.argv[3], vars(student))}) or json.dumps(")
    proc = subprocess.run([sys.executable, "-c", code, str(MONITOR), str(path), "f([])", '["numpy.sum"]'],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0]) == {"numpy": False}


def test_library_internal_calls_are_not_the_students(tmp_path):
    # statistics.mean calls builtins.sum internally; only the student's own calls count.
    path = _write(tmp_path, """
        import statistics
        def f(xs):
            return statistics.mean(xs)
    """)
    module = load(path)
    with CallWatcher(["builtins.sum"], files=[str(path)]) as watcher:
        module.f([1, 2, 3])
    assert watcher.hits == []


def test_code_named_after_a_library_file_is_still_the_students(tmp_path):
    """A code object's filename is the student's to choose: code compiled as "<frozen ...>" or
    renamed to functools.py is not that file's code, so its banned calls are the student's,
    at the student line that ran it. Real library code calling sum stays the library's."""
    path = _write(tmp_path, """
        import functools, statistics
        ns = {}
        exec(compile("def frozen_total(v):\\n    return sum(v)\\n", "<frozen importlib._bootstrap>", "exec"), ns)
        def lib_total(v):
            return sum(v)
        lib_total.__code__ = lib_total.__code__.replace(co_filename=functools.__file__)
        def f(xs):
            return ns["frozen_total"](xs) + lib_total(xs) + statistics.mean(xs)
    """)
    module = load(path)
    with CallWatcher(["builtins.sum"]) as watcher:
        assert module.f([1, 2, 3]) == 14
    assert [(h["filename"], h["line"], h["count"]) for h in watcher.hits] == [(str(path), 9, 2)]


def test_hits_are_deduplicated_by_line_with_counts(tmp_path):
    path = _write(tmp_path, """
        def f(xs):
            out = 0
            for _ in range(5):
                out += sum(xs)
            return eval("sum")(xs) + out
    """)
    module = load(path)
    with CallWatcher(["builtins.sum"]) as watcher:  # default: any non-library file is student code
        module.f([1])
        module.f([1])
    hits = sorted((h["line"], h["count"]) for h in watcher.hits)
    assert hits == [(5, 10), (6, 2)]


def test_hook_is_uninstalled_and_previous_restored():
    def previous(frame, event, arg):
        return None
    sys.setprofile(previous)
    try:
        with CallWatcher(["builtins.sum"]) as watcher:
            sum([1])
        assert sys.getprofile() is previous
        assert [h["banned"] for h in watcher.hits] == ["builtins.sum"]
        assert not watcher.tampered
    finally:
        sys.setprofile(None)


def test_types_are_reported_unwatchable():
    assert "itertools" in sys.modules  # resolved against sys.modules, never imported
    with CallWatcher(["itertools.accumulate", "functools.reduce(operator.add)"]) as watcher:
        pass
    assert "itertools.accumulate" in watcher.unwatchable
    assert watcher.static_only == ("functools.reduce(operator.add)",)


def test_tripwires_leave_types_to_the_static_layer():
    """A type is called without a profile event: a hook started for it alone would slow every
    call of the session for nothing.  A C method still gets the hook."""
    pytest.importorskip("numpy")
    wires = Tripwires(["itertools.accumulate", "numpy.ndarray.sum"])
    wires.refresh()
    assert "itertools.accumulate" not in wires.unreplaceable
    assert wires.unreplaceable.get("numpy.ndarray.sum") == "numpy.ndarray.sum"


def test_monitor_is_standalone():
    tree = ast.parse(MONITOR.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported
