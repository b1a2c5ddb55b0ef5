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


def test_a_fresh_session_loads_the_file_under_the_cases_own_time_limit(tmp_path):
    # rt-go: each of play's 60 states runs in a session of its own, and each loaded the file
    # under the usual 10 s: a 9 s import (below that limit) cost ~9 minutes of one slot.
    spec = load_spec(ROOT / "specs" / "comp10001go.yaml")
    play = spec.function("comp10001go_play")
    only_play = replace(spec, functions=(replace(play, cases=play.cases[:3]),))
    slow = (ROOT / "submissions" / "comp10001go" / "correct_tidy.py").read_text() + (
        "\nimport time\n_t = time.process_time()\nwhile time.process_time() - _t < 1.5:\n    pass\n")
    (tmp_path / "comp10001go.py").write_text(slow)
    submission = from_file(tmp_path / "comp10001go.py", spec.submission_files)
    with Sandbox(sandbox_profile()) as sandbox:
        result = FunctionGrader(make_plan(only_play), sandbox).grade(submission)
    assert not result.errors, result.errors          # the first load has its 10 s
    tests = [t for t in result.tests if t.function == "comp10001go_play"]
    assert [t.status for t in tests] == ["timeout"] * 3
    assert "loading the file again for this case" in tests[0].message and "CPU time" in tests[0].message, tests[0].message
