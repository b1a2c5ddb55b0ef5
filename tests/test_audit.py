"""grader audit: mutants of the reference, judged against a spec's cases, scored, survivors suggested away."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import yaml

from grader.audit.corpus import known_bugs
from grader.audit.mutate import mutants, reach
from grader.audit.report import render, scores, suggestion_yaml
from grader.audit.run import run_audit
from grader.spec.loader import load_spec

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "audit"


def test_every_operator_makes_compilable_mutants_that_differ():
    source = (ROOT / "reference" / "hw7_iteration.py").read_text()
    made = mutants(source, "hw7_iteration.py")
    assert {"relational", "arithmetic", "constant", "negate", "drop", "early-return", "swap-args"} <= {m.operator for m in made}
    original = ast.unparse(ast.parse(source))
    for m in made:
        compile(m.source, "mutant", "exec")
        assert m.source.strip() != original.strip() and m.diff.startswith("--- hw7_iteration.py:")
    # Docstrings, annotations and f-strings are never mutated.
    changed = [line for m in made for line in m.diff.splitlines()[2:] if line[:1] in "+-"]
    assert changed and not any("Total both players" in line or "-> str" in line for line in changed)


def test_a_mutant_is_attributed_to_the_graded_functions_that_reach_it():
    graph = reach((ROOT / "reference" / "hw7_iteration.py").read_text())
    assert "_card_value" in graph["blackJackHard"] and "_card_value" not in graph["blackJack"]
    assert "_FULL_DECK" in graph["blackJackHard"] and "_war_beats" in graph["war"]


def test_weak_cases_leave_survivors_and_the_suggested_case_kills_them(tmp_path):
    audit = run_audit(load_spec(FIXTURE / "weak.yaml"), jobs=2, samples=40)
    by_name = {s.function: s for s in scores(audit)}
    assert by_name["clamp"].survived >= 1 and by_name["clamp"].value < 0.9
    assert by_name["total"].value == 1.0
    report = render(audit, suggest_n=2)
    assert "SURVIVOR" in report and "below 90%" in report
    suggested = suggestion_yaml(audit, "clamp", 2)
    cases = yaml.safe_load("\n".join(line[4:] for line in suggested.splitlines()))
    assert cases and all({"name", "args", "expected"} <= set(c) for c in cases)
    # Paste the suggestion into the spec: every survivor is then killed.
    spec_text = (FIXTURE / "weak.yaml").read_text()
    anchor = "      - {name: far_below, args: [-50, 0, 10], expected: 0}\n"
    (tmp_path / "strong.yaml").write_text(spec_text.replace(anchor, anchor + suggested + "\n"))
    for name in ("clamp_ref.py", "clamp_cases.py"):
        (tmp_path / name).write_text((FIXTURE / name).read_text())
    stronger = run_audit(load_spec(tmp_path / "strong.yaml"), jobs=2, samples=40)
    assert all(s.survived == 0 for s in scores(stronger)), render(stronger)


def test_cli_exit_status_says_whether_every_function_reaches_the_target():
    proc = subprocess.run([sys.executable, "-m", "grader", "audit", str(FIXTURE / "weak.yaml"), "--samples", "20", "--jobs", "1"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "clamp" in proc.stdout and "audit took" in proc.stdout and "Traceback" not in proc.stderr


def test_known_bugs_are_read_from_the_corpus_expectations():
    spec = load_spec(ROOT / "specs" / "comp10001go.yaml")
    bugs = known_bugs(ROOT / "submissions" / "comp10001go", spec)
    assert bugs["aces_three_kind"] == ["comp10001go_valid_groups", "comp10001go_best_partitions"]
    assert "correct_beginner" not in bugs and "stateful_play" not in bugs
