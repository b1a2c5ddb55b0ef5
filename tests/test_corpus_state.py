"""Why play is declared `state: fresh`: a correct player with module-level state, graded both ways."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from grader.plan import make_plan
from grader.pipeline import FunctionGrader
from grader.run.sandbox import Sandbox
from grader.spec.loader import load_spec
from grader.submissions import from_file
from test_corpus import sandbox_profile

ROOT = Path(__file__).resolve().parent.parent


def test_stateful_play_passes_fresh_sessions_and_fails_a_shared_one():
    spec = load_spec(ROOT / "specs" / "comp10001go.yaml")
    play = spec.function("comp10001go_play")
    assert play.state == "fresh"
    submission = from_file(ROOT / "submissions" / "comp10001go" / "stateful_play.py", spec.submission_files)
    scores = {}
    for state in ("fresh", "shared"):
        only_play = replace(spec, functions=(replace(play, state=state),))
        with Sandbox(sandbox_profile()) as sandbox:
            result = FunctionGrader(make_plan(only_play), sandbox).grade(submission)
        scores[state] = result.functions["comp10001go_play"].score
    assert scores["fresh"] == 5
    assert scores["shared"] < 3, scores  # state from unrelated cases breaks it, as it did the real student's
