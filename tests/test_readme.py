"""The README's examples are real: the class report it shows is what the grader writes."""
from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_the_readme_class_report_is_current(tmp_path):
    readme = (ROOT / "README.md").read_text()
    shown = readme.split("writes `results/hw7_iteration/grades.csv`:\n\n```\n")[1].split("```")[0]
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(ROOT / "specs" / "hw7_iteration.yaml"),
                           str(ROOT / "submissions" / "hw7_iteration"), "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    written = (tmp_path / "grades.csv").read_text().replace("\r\n", "\n")
    assert shown.strip() == written.strip()


def test_the_readme_quick_start_matches_ci():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = "./install.sh --test && .venv/bin/python -m pytest -q -p no:cacheprovider"
    assert command in readme
    assert command in ci
    assert "PYTHON=/usr/bin/python3" in ci
