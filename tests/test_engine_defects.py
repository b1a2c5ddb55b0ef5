"""The five defects of issue #14, each reproduced as it was reported and shown fixed."""
from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from grader.judge.verdict import ERROR_KINDS, SubmissionError, SubmissionResult
from grader.spec.loader import load_spec
from grader.spec.problems import SpecError

BLACKJACK = ROOT / "specs" / "blackjack.yaml"
GO = ROOT / "specs" / "comp10001go.yaml"


def grader(*args: object, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *map(str, args)], capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def one_blackjack(tmp_path: Path) -> Path:
    """A Blackjack submission that does not compile: graded without playing, so the test stays quick."""
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copy(ROOT / "submissions" / "blackjack" / "py_syntax_error.py", folder / "syntax.py")
    return folder


def test_1_grading_a_program_assignment_twice_reuses_the_stored_result(one_blackjack, tmp_path):
    out = tmp_path / "out"
    first = grader("grade", BLACKJACK, one_blackjack, "--out", out, "--unsafe")
    assert first.returncode == 0, first.stderr
    assert "graded 1, reused 0" in first.stderr
    second = grader("grade", BLACKJACK, one_blackjack, "--out", out, "--unsafe")
    assert second.returncode == 0, second.stderr
    assert "graded 0, reused 1" in second.stderr


def test_2_program_summary_and_html_show_the_assignments_max_score(one_blackjack, tmp_path):
    out = tmp_path / "out"
    done = grader("grade", BLACKJACK, one_blackjack, "--out", out, "--unsafe", "--format", "json,html")
    assert done.returncode == 0, done.stderr
    assert load_spec(BLACKJACK).max_score == 100
    summary = json.loads((out / "summary.json").read_text())
    each = json.loads((out / "syntax.json").read_text())
    assert each["max_score"] == 100
    assert summary["max_score"] == 100, summary
    html = re.sub(r'src="data:[^"]*"', "", (out / "report" / "index.html").read_text())   # charts' base64 may hold "/0"
    assert re.search(r"/\s*100\b", html) and not re.search(r"/\s*0\b(?!\.)", html)


def test_3_validate_rejects_a_misspelt_tournament_key(tmp_path):
    text = GO.read_text().replace("\ntournament:\n", "\ntournament:\n  gamez: 5\n", 1)
    spec = tmp_path / "go.yaml"
    spec.write_text(text.replace("../reference/", f"{ROOT}/reference/"))
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    (problem,) = info.value.problems
    assert "tournament.gamez: unknown key 'gamez'" in problem.message
    assert problem.line == text.splitlines().index("  gamez: 5") + 1 and problem.col == 3
    done = grader("validate", spec)
    assert done.returncode == 3 and "gamez" in done.stdout


def _error_kinds_written_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "SubmissionError":
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                kinds.add(node.args[0].value)
    return kinds


def test_4_error_kinds_are_one_closed_set_spelt_one_way():
    written = set().union(*(_error_kinds_written_in(p) for p in (ROOT / "grader").rglob("*.py")))
    assert written and written <= ERROR_KINDS, written - ERROR_KINDS
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", kind) for kind in ERROR_KINDS)
    with pytest.raises(ValueError, match="unknown submission error kind 'missing_file'"):
        SubmissionError("missing_file", "no program file found")
    # A result stored by an earlier version still reads back, in today's spelling.
    old = {"submission": "a", "assignment": "x", "score": 0, "max_score": 1, "functions": {}, "tests": [],
           "errors": [{"kind": "compile_error", "message": "does not compile"}]}
    assert SubmissionResult.from_json(old).errors[0].kind == "compile-error"


def _subcommands(help_text: str) -> set[str]:
    """The sub-commands listed by ``--help`` (one per line, indented under COMMAND)."""
    return set(re.findall(r"^    ([a-z][a-z\-]*)(?:\s|$)", help_text, re.M))


def test_5_a_core_command_imports_no_feature_plugin():
    """``grader check`` waits on every import: the feature modules' commands are not loaded
    for a command of the core, and are for any other."""
    probe = ("import sys\nfrom grader.cli import main\ncode = main(sys.argv[1:])\n"
             "print(sorted(m for m in sys.modules if m.endswith('.cli') and m != 'grader.cli'))\n")
    spec, file = "specs/hw7_iteration.yaml", "reference/hw7_iteration.py"
    core = subprocess.run([sys.executable, "-c", probe, "bans", spec, file], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert core.stdout.strip().splitlines()[-1] == "[]", core
    other = subprocess.run([sys.executable, "-c", probe, "--debug", "similarity", "--help"], capture_output=True,
                           text=True, timeout=60, cwd=ROOT)
    assert "usage: grader similarity" in other.stdout, other


def test_5_every_way_of_starting_the_cli_offers_every_subcommand():
    from grader.cli import COMMANDS, _load_plugins

    _load_plugins([])
    expected = set(COMMANDS)
    assert {"grade", "check", "tournament", "gradescope"} <= expected
    ways = [[sys.executable, "-m", "grader"], [sys.executable, "-m", "grader.cli"],
            [sys.executable, "-c", "import sys; from grader.cli import main; sys.exit(main())"]]
    script = shutil.which("grader")
    if script:  # the installed console script (pyproject's [project.scripts])
        ways.append([script])
    for way in ways:
        done = subprocess.run([*way, "--help"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (way, done.stderr)
        assert _subcommands(done.stdout) == expected, way
        started = subprocess.run([*way, "tournament", "--help"], capture_output=True, text=True, timeout=60)
        assert started.returncode == 0 and "usage: grader tournament" in started.stdout, (way, started.stderr)
