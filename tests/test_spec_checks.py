"""``grader validate`` runs everything: each mistake of issue 13 is a bad-spec fixture with its exact message."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from grader.spec.checks import deep_problems, unresolved_ban
from grader.spec.loader import load_spec
from grader.spec.problems import SpecError

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "fixtures" / "bad_specs"


def validate(name: str) -> list[str]:
    """What `grader validate` reports for a fixture: the loader's problems, else the deep checks'."""
    try:
        spec = load_spec(BAD / name)
    except SpecError as exc:
        return [str(p) for p in exc.problems]
    return [str(p) for p in deep_problems(spec)]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("deep_pinned_differs.yaml", [r":12:51: case 'wrong_pin' pins expected 5, but the reference returns 4; fix the pin or the reference$"]),
        ("deep_ban_typo.yaml", [r":7:11: banned name 'builtins.summ' bans nothing: builtins has no attribute 'summ' \(did you mean 'builtins.sum'\?\)",
                                r":7:26: banned name 'nunpy.cumsum' bans nothing: there is no module 'nunpy' \(did you mean 'numpy.cumsum'\?\)",
                                r":7:40: banned name 'numpy.cumsun' bans nothing: numpy has no attribute 'cumsun' \(did you mean 'numpy.cumsum'\?\)"]),
        ("deep_generator_shape.yaml", [r":13:21: generator 'one_argument' returns 1 argument\(s\), but add\(\) takes 2 \(a, b\)"]),
        ("deep_generator_not_a_list.yaml", [r":12:21: generator 'not_a_list' must return the list of add\(\)'s arguments, not int \d"]),
        ("deep_reference_raises.yaml", [r":12:31: the reference divmod2\(\) raises ZeroDivisionError on case 'by_zero'"]),
        ("schema_compare_typo.yaml", [r":9:14: functions\[0\]\.compare: 'unorderd' is not one of exact, .* \(did you mean 'unordered'\?\)$",
                                      r":11:49: .*visibility: 'publik' is not one of public, hidden \(did you mean 'public'\?\)$"]),
        ("schema_plain_ban.yaml", [r":7:11: bans\.names\[0\]: 'sum' is not a qualified name such as builtins\.sum or numpy\.cumsum \(did you mean 'builtins\.sum'\?\)$"]),
    ],
)
def test_each_validate_mistake_is_one_located_sentence(name, expected):
    lines = validate(name)
    assert lines, f"{name}: no problem found"
    for pattern in expected:
        assert any(re.search(pattern, line) for line in lines), (pattern, lines)
    for line in lines:
        assert line.startswith(str(BAD / name) + ":")
        assert "^[" not in line and "valid under any of the given schemas" not in line, line  # no regex, no jsonschema jargon


def test_shipped_specs_pass_every_deep_check():
    for path in sorted((ROOT / "specs").glob("*.yaml")):
        assert deep_problems(load_spec(path)) == [], path


def test_real_ban_names_resolve():
    for name in ("builtins.sum", "numpy.add.reduce", "numpy.ndarray.cumsum", "statistics.fmean", "functools.reduce(operator.add)"):
        assert unresolved_ban(name) == "", name
    assert unresolved_ban("builtins.summ")


def test_validate_cli_exits_3_with_deep_problems_and_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "grader", "validate", str(BAD / "deep_pinned_differs.yaml"), str(ROOT / "specs" / "hw7_iteration.yaml")],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "pins expected 5" in proc.stdout and "hw7_iteration.yaml: ok" in proc.stdout


def test_checks_that_passed_are_remembered_and_a_change_runs_them_again(tmp_path, monkeypatch):
    import grader.spec.checks as checks

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    spec = load_spec(ROOT / "specs" / "hw7_iteration.yaml")
    assert deep_problems(spec) == []
    assert list((tmp_path / "cache" / "grader" / "bans").iterdir()) and list((tmp_path / "cache" / "grader" / "fresh").iterdir())

    def never(*args):
        raise AssertionError("a check that passed for this very spec ran again")

    monkeypatch.setattr(checks, "unresolved_ban", never)
    monkeypatch.setattr(checks._Checker, "_fresh", never)
    assert deep_problems(spec) == []
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    typo = load_spec(BAD / "deep_ban_typo.yaml")       # other names: resolved again, and a problem is never remembered
    assert deep_problems(typo) and deep_problems(typo)
