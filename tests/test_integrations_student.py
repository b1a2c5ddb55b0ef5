"""``grader export-student``: a frozen, public-only bundle that works with no reference anywhere."""
from __future__ import annotations

import copy
import os
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from grader.errors import GraderError
from grader.integrations.student_bundle import export_student_bundle, freeze_value
from grader.spec.loader import load_spec, load_trusted_module

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "specs" / "mini.yaml"
HW7 = ROOT / "specs" / "hw7_iteration.yaml"
HW7_CORRECT = ROOT / "submissions" / "hw7_iteration" / "correct_loops.py"

GOOD = """\
def add(a, b):
    return a + b


def divmod2(a, b):
    return a // b, a % b


def shout(text):
    return text.upper() + "!"
"""
WRONG = GOOD.replace("a // b, a % b", "a % b, a // b")


def grader_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def isolated_bundle(spec: Path, tmp_path: Path) -> Path:
    """Export, then move the bundle where no reference can be found: a fresh folder of its own."""
    export_student_bundle(spec, tmp_path / "export")
    home = tmp_path / "student"
    home.mkdir()
    shutil.copytree(tmp_path / "export", home / "bundle")
    shutil.rmtree(tmp_path / "export")
    return home / "bundle"


def test_bundle_has_no_reference_code(tmp_path: Path) -> None:
    bundle = isolated_bundle(MINI, tmp_path)
    assert sorted(p.name for p in bundle.iterdir()) == ["README.txt", "grader-0.1.0-py3-none-any.whl", "spec.yaml"]
    assert not list(tmp_path.rglob("*.py"))  # no reference, no generators, anywhere near
    data = yaml.safe_load((bundle / "spec.yaml").read_text())
    assert data["frozen"] is True
    assert "reference" not in data and "generators" not in data and "notes" not in data
    assert all("generate" not in fn for fn in data["functions"])
    spec = load_spec(bundle / "spec.yaml")
    original = load_spec(MINI)
    for fn in spec.functions:
        orig = original.function(fn.name)
        assert (fn.points, fn.compare, fn.extra_credit, fn.aliases) == (orig.points, orig.compare, orig.extra_credit, orig.aliases)
        assert all(c.visibility == "public" for c in fn.cases)
    assert [(c.function, c.name, c.args, c.expected) for c in spec.cases()] == [
        ("add", "small", (1, 2), 3), ("add", "negative", (-1, -2), -3),
        ("divmod2", "seven_by_two", (7, 2), [3, 1]), ("shout", "hello", ("hello",), "HELLO!"),
    ]
    readme = (bundle / "README.txt").read_text()
    assert "grader check spec.yaml mini.py" in readme
    assert "pytest --grader-spec spec.yaml --submission mini.py" in readme


def test_grader_check_on_the_bundle(tmp_path: Path) -> None:
    bundle = isolated_bundle(MINI, tmp_path)
    home = bundle.parent
    (home / "good.py").write_text(GOOD)
    (home / "wrong.py").write_text(WRONG)
    ok = grader_cli("check", "bundle/spec.yaml", "good.py", cwd=home)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = grader_cli("check", "bundle/spec.yaml", "wrong.py", cwd=home)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "seven_by_two" in bad.stdout


def test_hw7_bundle_checks_a_correct_submission(tmp_path: Path) -> None:
    bundle = isolated_bundle(HW7, tmp_path)
    shutil.copy(HW7_CORRECT, bundle.parent / "hw7_iteration.py")
    done = grader_cli("check", "bundle/spec.yaml", "hw7_iteration.py", cwd=bundle.parent)
    assert done.returncode == 0, done.stdout + done.stderr


def _texts(value: object) -> set[str]:
    """The ways a value can appear in the bundle's YAML (flow or block style) or JSON."""
    forms = {json.dumps(value), yaml.safe_dump(value, default_flow_style=True, width=10**9).strip()}
    return {f for f in forms if len(f) >= 8}  # short forms like "[1, 2]" collide by chance


@pytest.mark.parametrize("spec_path", [MINI, HW7], ids=["mini", "hw7"])
def test_no_hidden_case_leaks(spec_path: Path, tmp_path: Path) -> None:
    spec = load_spec(spec_path)
    bundle = isolated_bundle(spec_path, tmp_path)
    # the wheel is the grader package alone (test_the_bundle_readme_installs_the_grader_it_ships)
    text = "\n".join(p.read_text() for p in bundle.rglob("*") if p.is_file() and p.suffix != ".whl")
    frozen = load_spec(bundle / "spec.yaml")
    reference = load_trusted_module(spec.reference, "reference")
    public_args = {repr(c.args) for c in spec.cases("public")}
    public_args_texts = set().union(*(_texts(list(c.args)) | set().union(*map(_texts, c.args)) for c in spec.cases("public")))
    public_outputs = set().union(*(_texts(getattr(reference, c.function)(*copy.deepcopy(c.args))) for c in spec.cases("public")))
    bundle_args = {repr(c.args) for c in frozen.cases()}
    bundle_names = {(c.function, c.name) for c in frozen.cases()}
    hidden = spec.cases("hidden")
    assert hidden and len(frozen.cases()) == len(spec.cases("public"))
    for case in hidden:
        where = f"{case.function}: {case.name}"
        assert (case.function, case.name) not in bundle_names, where
        if repr(case.args) not in public_args:
            assert repr(case.args) not in bundle_args, where
        # every argument, and the whole argument list, in each textual form the bundle could hold it
        for form in (_texts(list(case.args)) | set().union(*map(_texts, case.args))) - public_args_texts:
            assert form not in text, f"{where}: input {form} appears in the bundle"
        output = getattr(reference, case.function)(*copy.deepcopy(case.args))
        for form in _texts(output) - public_outputs:
            assert form not in text, f"{where}: expected output {form} appears in the bundle"
    if spec_path == MINI:  # the hand-written hidden cases, by value
        assert "1000000" not in text and "1000001" not in text and "hidden_one" not in text


def test_reference_speed_limits_become_absolute(tmp_path: Path) -> None:
    data = yaml.safe_load(MINI.read_text())
    data["defaults"]["time_limit"] = {"factor": 10, "floor": 0.25}
    for name in ("reference", "generators"):
        data[name] = str(FIXTURES / "specs" / data[name])
    spec_path = tmp_path / "speed.yaml"
    spec_path.write_text(yaml.safe_dump(data, sort_keys=False))
    summary = export_student_bundle(spec_path, tmp_path / "bundle")
    exported = yaml.safe_load(summary.spec_path.read_text())
    for fn in exported["functions"]:
        for case in fn["cases"]:
            assert case["time_limit"]["seconds"] >= 0.25 and case["time_limit"]["floor"] == 0.25
    # an absolute limit that the reference cannot change stays as it was
    plain = yaml.safe_load(export_student_bundle(MINI, tmp_path / "plain").spec_path.read_text())
    assert all("time_limit" not in c for fn in plain["functions"] for c in fn["cases"])


def test_freeze_value() -> None:
    assert freeze_value((3, 1), "f: c", strict_sequences=False) == [3, 1]
    assert freeze_value({"a": [1.5, None, True], 2: {1, 2}}, "f: c", strict_sequences=False) == {"a": [1.5, None, True], 2: {1, 2}}
    with pytest.raises(GraderError, match="f: c"):
        freeze_value((3, 1), "f: c", strict_sequences=True)
    with pytest.raises(GraderError, match="f: c"):
        freeze_value(frozenset({1}), "f: c", strict_sequences=False)


def test_cli_export(tmp_path: Path) -> None:
    done = grader_cli("export-student", str(MINI), "--out", str(tmp_path / "b"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "4 public cases (7 hidden cases left out)" in done.stdout
    assert (tmp_path / "b" / "spec.yaml").is_file()
    missing = grader_cli("export-student", str(MINI), cwd=tmp_path)
    assert missing.returncode == 2


def test_the_bundle_readme_installs_the_grader_it_ships(tmp_path: Path) -> None:
    """The README's install step, offline: the wheel installs and its grader checks a file."""
    import zipfile

    bundle = isolated_bundle(MINI, tmp_path)
    readme = (bundle / "README.txt").read_text()
    wheel = next(bundle.glob("grader-*.whl"))
    assert f"-m pip install {wheel.name}" in readme and "python3 -m venv .venv" in readme and "bubblewrap" in readme
    names = zipfile.ZipFile(wheel).namelist()
    assert "grader/cli.py" in names and not any("mini_ref" in n or "reference/" in n for n in names)
    target = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
                         capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    assert (target / "bin" / "grader").is_file()
    (bundle / "mini.py").write_text(GOOD)
    env = dict(os.environ, PYTHONPATH=str(target))
    check = subprocess.run([sys.executable, "-c", "import grader, sys; print(grader.__file__); from grader.cli import main; sys.exit(main())",
                            "check", "spec.yaml", "mini.py"], cwd=bundle, capture_output=True, text=True, timeout=300, env=env)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.startswith(str(target)) and "Score:" in check.stdout
