"""The SQLite store: saved as each submission finishes, reloaded exactly."""
from __future__ import annotations

from grader.judge.verdict import FunctionResult, SubmissionError, SubmissionResult, TestResult, Violation
from grader.store import Store


def sample(score=7.5, digest="abc"):
    v = Violation("banned-call", "builtins.sum", "static", 4, 2, "return sum(x)", ("f",))
    return SubmissionResult(
        submission="alice",
        assignment="hw",
        score=score,
        max_score=10,
        functions={"f": FunctionResult("f", score, 10, violations=(v,), found_as="f")},
        tests=(TestResult("c1", "f", "public", "passed", 5, 5, 0.01, "", [1], 2, 2),
               TestResult("c2", "f", "hidden", "failed", 2.5, 5, 0.02, "wrong answer on a hidden case")),
        errors=(SubmissionError("note", "named oddly"),),
        spec_digest="spec1",
        submission_digest=digest,
    )


def test_round_trip_and_replace(tmp_path):
    with Store(tmp_path) as store:
        store.save(sample())
        loaded = store.load("hw", "alice")
        assert loaded.to_json() == sample().to_json()
        store.save(sample(score=9.0, digest="def"))
        assert [r.score for r in store.all("hw")] == [9.0]
        assert store.current("hw", "alice", "spec1", "def").score == 9.0
        assert store.current("hw", "alice", "spec1", "abc") is None
        assert store.current("hw", "alice", "spec2", "def") is None
    with Store(tmp_path) as again:  # a new process sees what the old one saved
        assert again.load("hw", "alice").score == 9.0
        assert again.load("hw", "bob") is None


def test_a_verdict_sent_by_a_worker_is_stored_and_read_back_whole(tmp_path):
    import pickle
    from dataclasses import replace

    original = sample()
    sent = pickle.loads(pickle.dumps(original.for_transport()))   # as a worker's pipe carries it
    assert len(sent.tests) == 2 and sent.tests.statuses == {"passed": 1, "failed": 1}
    assert tuple(sent.tests) == original.tests, "the cases travel inside the verdict's JSON, exactly"
    assert sent.encoded() == original.encoded()
    import json
    assert json.loads(original.encoded().staff) == json.loads(json.dumps(original.to_json()))
    assert json.loads(original.encoded().student) == json.loads(json.dumps(original.to_json(include_staff=False)))
    assert replace(sent, score=1.0).encoded() != original.encoded(), "a changed verdict is encoded again"
    with Store(tmp_path) as store:
        store.save(sent)
        assert store.load("hw", "alice").to_json() == original.to_json()
        slim = store.slim(sent)
        assert len(slim.tests) == 2 and slim.tests.statuses == sent.tests.statuses and tuple(slim.tests) == original.tests
