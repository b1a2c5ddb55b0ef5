"""``grader gradescope``: build the autograder zip, run it in a fake /autograder, check results.json."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import jsonschema
import pytest
import yaml

from grader.integrations.gradescope_zip import build_gradescope_zip

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI = FIXTURES / "specs" / "mini.yaml"

GOOD = """\
def add(a, b):
    return a + b


def divmod2(a, b):
    return a // b, a % b


def shout(text):
    return text.upper() + "!"
"""

# Gradescope's results.json, from https://gradescope-autograders.readthedocs.io/en/latest/specs/
RESULTS_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["score", "execution_time", "output", "tests"],
    "additionalProperties": False,
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number", "minimum": 0},
        "output": {"type": "string", "minLength": 1},
        "output_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
        "test_output_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
        "test_name_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
        "visibility": {"$ref": "#/$defs/visibility"},
        "stdout_visibility": {"$ref": "#/$defs/visibility"},
        "extra_data": {"type": "object"},
        "leaderboard": {"type": "array"},
        "tests": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "score", "max_score", "status", "visibility"],
                "additionalProperties": False,
                "properties": {
                    "name": {"type": "string", "minLength": 1},
                    "name_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
                    "number": {"type": "string"},
                    "score": {"type": "number"},
                    "max_score": {"type": "number", "minimum": 0},
                    "status": {"enum": ["passed", "failed"]},
                    "output": {"type": "string"},
                    "output_format": {"enum": ["text", "html", "simple_format", "md", "ansi"]},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "visibility": {"$ref": "#/$defs/visibility"},
                    "extra_data": {"type": "object"},
                },
            },
        },
    },
    "$defs": {"visibility": {"enum": ["hidden", "after_due_date", "after_published", "visible"]}},
}


def valid_results(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(RESULTS_SCHEMA).validate(data)
    return data


@pytest.fixture(scope="module")
def autograder_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # allow_unsafe keeps the test meaningful on machines without bubblewrap
    return build_gradescope_zip(MINI, tmp_path_factory.mktemp("zip") / "autograder.zip", allow_unsafe=True).path


def fake_root(tmp_path: Path, zip_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "autograder"
    for folder in ("source", "submission", "results"):
        (root / folder).mkdir(parents=True)
    with zipfile.ZipFile(zip_path) as zf:
        zf.extractall(root / "source")
    for info in zipfile.ZipFile(zip_path).infolist():  # extractall drops the modes Gradescope keeps
        mode = (info.external_attr >> 16) & 0o777
        if mode:
            os.chmod(root / "source" / info.filename, mode)
    for name, text in files.items():
        target = root / "submission" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


def run_autograder(root: Path, python: str = sys.executable) -> subprocess.CompletedProcess:
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), GRADER_PYTHON=python, GRADER_SKIP_INSTALL="1")
    done = subprocess.run([str(root / "source" / "run_autograder")], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_zip_layout(autograder_zip: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(autograder_zip) as zf:
        names = set(zf.namelist())
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in zf.infolist()}
        zf.extractall(tmp_path)
    for required in ("setup.sh", "run_autograder", "gradescope_runner.py", "grader_config.json",
                     "spec/mini.yaml", "spec/reference/mini_ref.py", "spec/reference/mini_cases.py",
                     "grader_src/pyproject.toml", "grader_src/grader/__init__.py", "grader_src/grader/cli.py",
                     "grader_src/grader/spec/schema.json", "grader_src/grader/integrations/_gradescope_runner.py"):
        assert required in names, required
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    for script in ("setup.sh", "run_autograder"):
        assert modes[script] & stat.S_IXUSR, f"{script} is not executable"
    # The spec inside resolves its modules inside the zip, by relative paths.
    spec_data = yaml.safe_load((tmp_path / "spec" / "mini.yaml").read_text())
    assert spec_data["reference"] == "reference/mini_ref.py"
    assert spec_data["generators"] == "reference/mini_cases.py"
    config = json.loads((tmp_path / "grader_config.json").read_text())
    assert config["spec"] == "spec/mini.yaml" and config["submission_files"] == ["mini.py"]
    assert tomllib.loads((tmp_path / "grader_src" / "pyproject.toml").read_text())["project"]["name"] == "grader"
    for script in ("setup.sh", "run_autograder"):
        subprocess.run(["bash", "-n", str(tmp_path / script)], check=True)


def test_zip_is_reproducible(autograder_zip: Path, tmp_path: Path) -> None:
    again = build_gradescope_zip(MINI, tmp_path / "again.zip", allow_unsafe=True).path
    assert again.read_bytes() == autograder_zip.read_bytes()


def test_setup_sh_without_install(autograder_zip: Path, tmp_path: Path) -> None:
    assert shutil.which("bwrap"), "install.sh installs bubblewrap; setup.sh would otherwise apt-get it"
    root = fake_root(tmp_path, autograder_zip, {})
    env = dict(os.environ, GRADER_PYTHON=sys.executable, GRADER_SKIP_INSTALL="1")
    done = subprocess.run([str(root / "source" / "setup.sh")], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok (mini" in done.stdout


def test_good_submission(autograder_zip: Path, tmp_path: Path) -> None:
    root = fake_root(tmp_path, autograder_zip, {"mini.py": GOOD})
    run_autograder(root)
    data = valid_results(root / "results" / "results.json")
    assert data["score"] == pytest.approx(25)  # 20 + 5 extra credit
    assert len(data["tests"]) == 11  # 3 + 5 generated + 2 + 1
    assert all(t["status"] == "passed" for t in data["tests"])
    hidden = [t for t in data["tests"] if "hidden" in t.get("tags", [])]
    assert hidden and all(t["visibility"] != "visible" for t in hidden)
    # the student's files were graded from a copy: the upload is untouched and nothing else appears
    assert sorted(p.name for p in (root / "submission").iterdir()) == ["mini.py"]


def test_wrong_name_in_a_folder_is_still_graded(autograder_zip: Path, tmp_path: Path) -> None:
    root = fake_root(tmp_path, autograder_zip, {"my_work/solution.py": GOOD.replace("a + b", "a - b"), "my_work/notes.txt": "hi"})
    run_autograder(root)
    data = valid_results(root / "results" / "results.json")
    assert 0 < data["score"] < 25
    assert "mini.py" in data["output"]  # the note that the file should be called mini.py


def test_empty_submission_still_writes_results(autograder_zip: Path, tmp_path: Path) -> None:
    root = fake_root(tmp_path, autograder_zip, {})
    run_autograder(root)
    data = valid_results(root / "results" / "results.json")
    assert data["score"] == 0 and data["tests"] == []
    assert "empty" in data["output"] and "mini.py" in data["output"]


def test_several_files_none_named(autograder_zip: Path, tmp_path: Path) -> None:
    root = fake_root(tmp_path, autograder_zip, {"a.py": GOOD, "b.py": GOOD})
    run_autograder(root)
    data = valid_results(root / "results" / "results.json")
    assert data["score"] == 0 and "a.py" in data["output"] and "Upload only mini.py" in data["output"]


def test_symlinks_and_pipes_in_an_upload_are_refused_before_grading(autograder_zip: Path, tmp_path: Path) -> None:
    for attack in ("link_to_reference", "linked_folder", "fifo"):
        root = fake_root(tmp_path / attack, autograder_zip, {"mini.py": "from helper import *\n"})
        upload = root / "submission"
        if attack == "link_to_reference":
            (upload / "helper.py").symlink_to(root / "source" / "spec" / "reference" / "mini_ref.py")
        elif attack == "linked_folder":
            (upload / "stuff").symlink_to(root / "source" / "spec")
        else:
            os.mkfifo(upload / "helper.py")
        run_autograder(root)
        data = valid_results(root / "results" / "results.json")
        assert data["score"] == 0 and data["tests"] == [], attack
        wanted = "not a regular file" if attack == "fifo" else "symbolic link"
        assert wanted in data["output"], (attack, data["output"])


def test_grader_missing_is_a_clear_failure(autograder_zip: Path, tmp_path: Path) -> None:
    # A python that cannot import grader: the runner explains, it does not crash.
    root = fake_root(tmp_path, autograder_zip, {"mini.py": GOOD})
    env_python = tmp_path / "python"
    env_python.write_text(f"#!/bin/sh\nexport PYTHONPATH=/nonexistent\nexec {sys.executable} -I -S \"$@\"\n")
    env_python.chmod(0o755)
    probe = subprocess.run([str(env_python), "-c", "import grader"], capture_output=True)
    assert probe.returncode != 0, "the test needs a python that cannot import grader"
    run_autograder(root, python=str(env_python))
    data = valid_results(root / "results" / "results.json")
    assert data["score"] == 0 and "not a problem with your code" in data["output"]


def test_no_python_at_all_still_writes_results(autograder_zip: Path, tmp_path: Path) -> None:
    root = fake_root(tmp_path, autograder_zip, {"mini.py": GOOD})
    run_autograder(root, python=str(tmp_path / "no-such-python"))
    data = valid_results(root / "results" / "results.json")
    assert data["score"] == 0 and "tell your instructor" in data["output"]


def test_cli_builds_zip(tmp_path: Path) -> None:
    out = tmp_path / "ag.zip"
    done = subprocess.run([sys.executable, "-m", "grader", "gradescope", str(MINI), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert zipfile.is_zipfile(out) and "11 cases (7 hidden)" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "grader", "gradescope", str(MINI), "--out", str(tmp_path / "ag.tar")],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and ".zip" in bad.stderr
