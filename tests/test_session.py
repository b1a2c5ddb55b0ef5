"""The grading session: one path after the judge for every executor, resume included."""
from __future__ import annotations

import json
from pathlib import Path

from grader.judge.verdict import SubmissionResult
from grader.session import GradingSession, open_session
from grader.spec.model import BanPolicy, Spec
from grader.submissions import Submission


class Recorder:
    def __init__(self) -> None:
        self.seen: list[tuple[str, bool]] = []
        self.closed = False

    def accept(self, result: SubmissionResult, reused: bool) -> None:
        self.seen.append((result.submission, reused))

    def close(self) -> None:
        self.closed = True


class Fake:
    """Grades by file content: 'boom' raises, anything else scores its length."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.calls: list[str] = []

    def grade(self, submission: Submission) -> SubmissionResult:
        self.calls.append(submission.id)
        text = submission.files["a.py"].decode()
        if text == "boom":
            raise RuntimeError("grader bug")
        return SubmissionResult(submission=submission.id, assignment=self.spec.assignment, score=len(text), max_score=10,
                                functions={}, tests=(), spec_digest=self.spec.digest, submission_digest=submission.digest)


def _spec() -> Spec:
    return Spec(path=Path("x.yaml"), assignment="demo", title="demo", kind="functions", languages=("python",),
                submission_files=("a.py",), reference=None, functions=(), bans=BanPolicy(), digest="d1")


def _sub(name: str, text: str) -> Submission:
    return Submission(id=name, path=Path(name), files={"a.py": text.encode()}, main="a.py", language="python")


def test_every_sink_gets_every_verdict_once_in_order_and_a_grader_bug_is_the_submissions_error(tmp_path):
    spec, recorder = _spec(), Recorder()
    grader = Fake(spec)
    with open_session(spec, tmp_path, sinks=[recorder]) as session:
        subs = [_sub("ann", "abc"), _sub("bob", "boom")]
        for sub in session.pending(subs):
            session.grade(grader, sub)
        assert not session.deliver(grader.grade(subs[0]))  # a retried task's second verdict is dropped
        outcome = session.outcome(subs)
    assert recorder.seen == [("ann", False), ("bob", False)] and recorder.closed
    assert [r.score for r in outcome.results] == [3, 0] and outcome.graded == 2 and outcome.skipped == 0
    assert outcome.results[1].errors[0].kind == "internal-error" and "grader bug" in outcome.results[1].errors[0].message
    assert json.loads((tmp_path / "ann.json").read_text())["score"] == 3


def test_a_rerun_reuses_what_the_store_holds_for_the_same_spec_and_files(tmp_path):
    spec = _spec()
    with open_session(spec, tmp_path) as session:
        for sub in session.pending([_sub("ann", "abc"), _sub("bob", "xy")]):
            session.grade(Fake(spec), sub)
    recorder, grader = Recorder(), Fake(spec)
    with open_session(spec, tmp_path, sinks=[recorder]) as session:
        subs = [_sub("ann", "abc"), _sub("bob", "changed")]
        for sub in session.pending(subs):
            session.grade(grader, sub)
        outcome = session.outcome(subs)
    assert grader.calls == ["bob"]
    assert recorder.seen == [("ann", True), ("bob", False)]
    assert (outcome.graded, outcome.skipped) == (1, 1)


def test_a_session_without_a_store_grades_everything(tmp_path):
    spec, recorder = _spec(), Recorder()
    with GradingSession(spec, [recorder]) as session:
        assert session.pending([_sub("ann", "abc")]) == [_sub("ann", "abc")]
        assert session.grade(Fake(spec), _sub("ann", "abc")).score == 3
    assert recorder.seen == [("ann", False)] and not list(tmp_path.iterdir())


def test_files_a_crash_left_unsynced_are_written_again_from_the_store(tmp_path):
    spec = _spec()
    subs = [_sub("ann", "abc"), _sub("bob", "xy")]
    session = open_session(spec, tmp_path)
    for sub in session.pending(subs):
        session.grade(Fake(spec), sub)
    marker = tmp_path / ".unsynced-reports"
    assert marker.exists(), "while a session writes files without an fsync each, a marker says so"
    session.sinks[0].close()        # killed here: the store is closed, the files were never synced
    (tmp_path / "ann.json").write_text("")              # what a power loss can leave of an unsynced file
    (tmp_path / "staff" / "bob.json").unlink()
    grader = Fake(spec)
    with open_session(spec, tmp_path) as again:
        outcome = again.outcome(subs) if not again.pending(subs) else None
    assert grader.calls == [] and outcome is not None and outcome.skipped == 2
    assert json.loads((tmp_path / "ann.json").read_text())["score"] == 3
    assert json.loads((tmp_path / "staff" / "bob.json").read_text())["score"] == 2
    assert not marker.exists(), "a session that closed synced its files and removed the marker"
    (tmp_path / "ann.json").write_text("")
    with open_session(spec, tmp_path) as third:     # after a clean close, reused verdicts' files are left alone
        third.pending(subs)
    assert (tmp_path / "ann.json").read_text() == ""
