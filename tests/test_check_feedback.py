"""grader check says its score covers the public cases only, and shows the rule a many-answer function broke."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def check(tmp_path: Path, source: str) -> subprocess.CompletedProcess:
    student = tmp_path / "comp10001go.py"
    student.write_text(source)
    return subprocess.run([sys.executable, "-m", "grader", "check", str(ROOT / "specs" / "comp10001go.yaml"), str(student)],
                          capture_output=True, text=True, cwd=ROOT)


def test_score_is_labelled_public_only_and_hidden_cases_are_announced(tmp_path):
    proc = check(tmp_path, "def comp10001go_play(discard_history, player_no, hand):\n    return hand[0]\n")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Score: 5 / 30 on the public cases only" in proc.stdout
    assert "hidden case(s) were not run here; they will be graded when you submit" in proc.stdout


def test_validator_failure_shows_the_rule_not_a_sample_answer(tmp_path):
    proc = check(tmp_path, "def comp10001go_play(discard_history, player_no, hand):\n    return 'XX'\n")
    play = proc.stdout[proc.stdout.index("comp10001go_play handout_last_card"):]
    play = play[: play.index("\n\n")] if "\n\n" in play else play
    assert "your answer: 'XX'" in play and "which is not in the hand ['QC']" in play
    assert "expected" not in play, play
