"""The spec loader: typed specs from good YAML, line-numbered problems from bad YAML."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from grader.spec.loader import load_spec
from grader.spec.model import MISSING, TimeLimit
from grader.spec.problems import SpecError

from conftest import FIXTURES, ROOT

BAD = FIXTURES / "bad_specs"


def test_mini_spec_is_typed_and_expands_generators():
    spec = load_spec(FIXTURES / "specs" / "mini.yaml")
    assert spec.assignment == "mini"
    assert spec.max_score == 20.0  # the extra-credit function does not count
    add = spec.function("add")
    assert add.accepted_names == ("add", "plus")
    assert [c.name for c in add.cases][:3] == ["small", "negative", "big"]
    generated = [c for c in add.cases if c.origin.startswith("generator:")]
    assert [c.name for c in generated] == [f"pairs[{i}]" for i in range(5)]
    assert all(c.visibility == "hidden" for c in generated)
    assert add.cases[0].expected == 3 and add.cases[0].is_public
    assert spec.function("divmod2").cases[1].expected is MISSING
    assert spec.function("shout").compare.options == {"casefold": True}
    assert spec.bans.names == ("builtins.sum",)


def test_generated_cases_are_reproducible():
    first = load_spec(FIXTURES / "specs" / "mini.yaml").function("add").cases
    second = load_spec(FIXTURES / "specs" / "mini.yaml").function("add").cases
    assert [c.args for c in first] == [c.args for c in second]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("yaml_syntax.yaml", [r":4:1: YAML syntax error"]),
        ("unknown_key.yaml", [r":9:5: functions\[0\]\.pionts: unknown key 'pionts' \(did you mean 'points'\?\)"]),
        ("wrong_type.yaml", [r":8:13: functions\[0\]\.points: 'ten' is not of type 'number'", r":10:32: .*weight: 'heavy'"]),
        ("missing_function.yaml", [r":7:11: function 'subtract' is not defined in the reference"]),
        ("bad_generator.yaml", [r":11:21: unknown generator 'triples' .*known: broken, pairs"]),
        ("bad_args.yaml", [r"takes 2 argument\(s\) \(a, b\), this case gives 1", r"case name 'one' is used twice"]),
        ("not_a_mapping.yaml", [r":1:1: a spec must be a YAML mapping"]),
        ("missing_reference.yaml", [r":5:12: reference: file not found: nowhere.py"]),
    ],
)
def test_bad_specs_give_line_numbered_problems(name, expected):
    with pytest.raises(SpecError) as info:
        load_spec(BAD / name)
    text = str(info.value)
    for pattern in expected:
        assert re.search(pattern, text), text
    assert all(str(p).startswith(str(BAD / name) + ":") for p in info.value.problems)


def test_validate_cli_prints_problems_and_no_traceback():
    bad = sorted(str(p) for p in BAD.glob("*.yaml"))
    proc = subprocess.run([sys.executable, "-m", "grader", "validate", *bad], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 3
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = [l for l in proc.stdout.splitlines() if l]
    assert all(re.match(r"^.+\.yaml:\d+:\d+: .+", l) for l in lines), lines
    assert len(lines) >= len(bad)


def test_validate_cli_accepts_a_good_spec():
    proc = subprocess.run([sys.executable, "-m", "grader", "validate", str(FIXTURES / "specs" / "mini.yaml")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ok (mini: 3 functions, 11 cases (7 hidden))" in proc.stdout


def test_missing_spec_file_is_a_clear_problem(tmp_path):
    with pytest.raises(SpecError, match="spec file not found"):
        load_spec(tmp_path / "nope.yaml")


def test_a_reference_that_crashes_on_import_is_reported(tmp_path):
    (tmp_path / "ref.py").write_text("raise RuntimeError('half-written reference')\n")
    (tmp_path / "s.yaml").write_text(
        "assignment: x\ntitle: X\nkind: functions\nlanguage: python\nreference: ref.py\n"
        "functions:\n  - name: f\n    points: 1\n    cases: [{args: []}]\n"
    )
    with pytest.raises(SpecError, match="cannot import ref.py: RuntimeError: half-written reference"):
        load_spec(tmp_path / "s.yaml")


def test_a_failing_generator_is_reported(tmp_path):
    text = (FIXTURES / "bad_specs" / "bad_generator.yaml").read_text().replace("triples", "broken")
    (tmp_path / "s.yaml").write_text(text.replace("../specs/", str(FIXTURES / "specs") + "/"))
    with pytest.raises(SpecError, match="generator 'broken' failed on case 0: ValueError: no cases today"):
        load_spec(tmp_path / "s.yaml")


@pytest.mark.parametrize(
    "limit, reference, expected",
    [
        (TimeLimit(seconds=2.0), 0.001, 2.0),
        (TimeLimit(factor=10, floor=0.5), 0.2, 2.0),
        (TimeLimit(factor=10, floor=0.5), 0.001, 0.5),
        (TimeLimit(seconds=1.0, factor=10, floor=0.1), 0.5, 5.0),
        (TimeLimit(seconds=1.0, factor=10, floor=0.1), 0.01, 1.0),
    ],
)
def test_time_limits_resolve_against_the_reference(limit, reference, expected):
    assert limit.resolve(reference) == pytest.approx(expected)


@pytest.mark.parametrize("spec", sorted((ROOT / "specs").glob("*.yaml")), ids=lambda p: p.name)
def test_shipped_specs_are_valid(spec):
    assert load_spec(spec).assignment  # load_spec raises SpecError on any problem


def test_a_frozen_spec_needs_no_reference_but_every_pin(tmp_path):
    base = "assignment: x\ntitle: X\nkind: functions\nlanguage: python\nfrozen: true\nfunctions:\n  - name: f\n    points: 1\n    cases:\n"
    (tmp_path / "ok.yaml").write_text(base + "      - {args: [1], expected: 2}\n")
    spec = load_spec(tmp_path / "ok.yaml")
    assert spec.frozen and spec.reference is None
    from grader.plan import make_plan

    plan = make_plan(spec)
    assert plan.reference is None and plan.for_function("f")[0].expected == 2
    (tmp_path / "bad.yaml").write_text(base + "      - {args: [1]}\n")
    with pytest.raises(SpecError, match="needs a pinned `expected:` in a frozen spec"):
        load_spec(tmp_path / "bad.yaml")
    (tmp_path / "ref.yaml").write_text(base.replace("frozen: true\n", "frozen: true\nreference: r.py\n") + "      - {args: [1], expected: 2}\n")
    with pytest.raises(SpecError):
        load_spec(tmp_path / "ref.yaml")
    (tmp_path / "noref.yaml").write_text(base.replace("frozen: true\n", "") + "      - {args: [1], expected: 2}\n")
    with pytest.raises(SpecError, match="'reference' is a required property"):
        load_spec(tmp_path / "noref.yaml")
