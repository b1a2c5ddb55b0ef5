"""Finding submissions in targets, and reading bad ones without stopping the batch."""
from __future__ import annotations

import pytest

from grader.errors import GraderError
from grader.submissions import discover

EXPECTED = ("hw7_iteration.py",)


def test_a_folder_of_files_is_one_submission_per_student(tmp_path):
    (tmp_path / "alice.py").write_text("x = 1\n")
    (tmp_path / "bob.py").write_text("x = 2\n")
    (tmp_path / "alice.expected.yaml").write_text("score: 1\n")  # corpus metadata is ignored
    subs = discover([tmp_path], EXPECTED)
    assert [s.id for s in subs] == ["alice", "bob"]
    assert subs[0].main == "alice.py" and not subs[0].problems
    assert "asks for hw7_iteration.py" in subs[0].notes[0]


def test_folders_of_folders_and_a_single_submission_folder(tmp_path):
    for name in ("carol", "dave"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "hw7_iteration.py").write_text("x = 1\n")
        (tmp_path / name / "helpers.py").write_text("y = 1\n")
    subs = discover([tmp_path], EXPECTED)
    assert [(s.id, s.main, sorted(s.files)) for s in subs] == [
        ("carol", "hw7_iteration.py", ["helpers.py", "hw7_iteration.py"]),
        ("dave", "hw7_iteration.py", ["helpers.py", "hw7_iteration.py"]),
    ]
    assert [s.id for s in discover([tmp_path / "carol"], EXPECTED)] == ["carol"]


@pytest.mark.parametrize(
    "content, kind, words",
    [
        (b"", "empty", "is empty"),
        (b"   \n\n", "empty", "is empty"),
        (b"\x7fELF\x02\x01\x00\x00", "binary", "binary file"),
        (b"x = '\xe9t\xe9'\n", "encoding", "not UTF-8"),
    ],
)
def test_unreadable_files_become_problems_not_exceptions(tmp_path, content, kind, words):
    (tmp_path / "eve.py").write_bytes(content)
    (sub,) = discover([tmp_path / "eve.py"], EXPECTED)
    assert sub.problems[0][0] == kind and words in sub.problems[0][1]


def test_a_folder_without_the_expected_file(tmp_path):
    (tmp_path / "frank").mkdir()
    (tmp_path / "frank" / "notes.py").write_text("a = 1\n")
    (tmp_path / "frank" / "other.py").write_text("b = 1\n")
    (sub,) = discover([tmp_path], EXPECTED)
    assert sub.problems == (("missing-file", "the folder has no hw7_iteration.py (found: notes.py, other.py)"),)


def test_missing_target_and_duplicate_ids_are_user_errors(tmp_path):
    with pytest.raises(GraderError, match="no such file or folder"):
        discover([tmp_path / "nope"], EXPECTED)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "x.py").write_text("1\n")
    (tmp_path / "b" / "x.py").write_text("1\n")
    with pytest.raises(GraderError, match="share the id x"):
        discover([tmp_path / "a" / "x.py", tmp_path / "b" / "x.py"], EXPECTED)


def test_digest_changes_with_content(tmp_path):
    path = tmp_path / "g.py"
    path.write_text("x = 1\n")
    first = discover([path], EXPECTED)[0].digest
    path.write_text("x = 2\n")
    assert discover([path], EXPECTED)[0].digest != first
