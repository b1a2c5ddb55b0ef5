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


def _readme_commands() -> dict[str, str]:
    """The README's command table: command name -> its row's usage cell."""
    readme = (ROOT / "README.md").read_text()
    table = readme.split("## Command line\n")[1].strip().split("\n\n")[0]
    rows = [line.split(" | ")[0] for line in table.splitlines() if line.startswith("| `grader ")]
    names = [row.split()[2].rstrip("`") for row in rows]
    assert len(names) == len(set(names)), f"a command has two rows: {sorted(names)}"
    return dict(zip(names, rows))


def test_the_readme_command_table_lists_every_command_and_option_once():
    import argparse

    from grader import cli

    cli._load_plugins([])
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    rows = _readme_commands()
    assert set(rows) == set(sub.choices)
    for name, p in sub.choices.items():
        options = {opt for a in p._actions for opt in a.option_strings
                   if opt.startswith("--") and opt not in ("--help", "--debug")}
        missing = sorted(o for o in options if o not in rows[name])
        assert not missing, f"README's row for `grader {name}` lacks {missing}"
