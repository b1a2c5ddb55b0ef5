"""Finding submissions in targets, and reading bad ones without stopping the batch."""
from __future__ import annotations

import re

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
        # no NUL byte, not UTF-8, and no code page reads it as text: not read as Windows-1252 garbage
        (__import__("random").Random(1).randbytes(400).replace(b"\0", b"1"), "encoding", "nor in any code page"),
    ],
)
def test_unreadable_files_become_problems_not_exceptions(tmp_path, content, kind, words):
    (tmp_path / "eve.py").write_bytes(content)
    (sub,) = discover([tmp_path / "eve.py"], EXPECTED)
    assert sub.problems[0][0] == kind and words in sub.problems[0][1]


def test_a_file_python_reads_in_another_encoding_is_read_as_python_reads_it(tmp_path):
    """A coding declaration (PEP 263) is valid Python: read in what it declares, nothing to say.
    A file saved in the Windows code page without one is read in that code page, with a note
    (Python itself would refuse it). The sandbox gets both as UTF-8, declaration removed, lines kept."""
    from grader.languages.python import PYTHON

    declared = "# -*- coding: latin-1 -*-\ns = 'été'\n".encode("latin-1")
    legacy = "# résumé\ns = 'été'\n".encode("cp1252")
    plain = "# coding: utf-8\ns = 'été'\n".encode("utf-8")
    for name, data in (("declared.py", declared), ("legacy.py", legacy), ("plain.py", plain)):
        (tmp_path / name).write_bytes(data)
    subs = {s.id: s for s in discover([tmp_path], EXPECTED)}
    assert all(not s.problems for s in subs.values())
    read_notes = {i: [n for n in s.notes if "UTF-8" in n] for i, s in subs.items()}
    assert read_notes["declared"] == [] and read_notes["plain"] == []
    (note,) = read_notes["legacy"]
    assert "legacy.py is saved in" in note and "save it as UTF-8" in note
    assert subs["declared"].source().endswith("s = 'été'\n") and subs["legacy"].source().endswith("s = 'été'\n")
    loaded = PYTHON.loadable({"declared.py": declared, "legacy.py": legacy, "plain.py": plain, "notes.txt": b"\xe9"})
    assert loaded["plain.py"] is plain and loaded["notes.txt"] == b"\xe9"
    for name in ("declared.py", "legacy.py"):
        text = loaded[name].decode("utf-8")
        assert text.count("\n") == 2 and not re.match(r"[ \t\f]*#.*?coding[:=]", text)   # PEP 263's pattern
        namespace: dict = {}
        exec(compile(loaded[name], name, "exec"), namespace)   # as the sandbox's Python compiles it
        assert namespace["s"] == "été"


def test_a_folder_without_the_expected_file(tmp_path):
    (tmp_path / "frank").mkdir()
    (tmp_path / "frank" / "notes.py").write_text("a = 1\n")
    (tmp_path / "frank" / "other.py").write_text("b = 1\n")
    (sub,) = discover([tmp_path], EXPECTED)
    assert sub.problems == (("missing-file", "the folder has no hw7_iteration.py (found: notes.py, other.py)"),)


def test_a_missing_target_is_a_user_error(tmp_path):
    with pytest.raises(GraderError, match="no such file or folder"):
        discover([tmp_path / "nope"], EXPECTED)


def test_entries_that_share_an_id_are_one_refused_submission_and_the_batch_goes_on(tmp_path):
    # It stopped the whole class with "the grader itself failed" (exit 5) before anything was graded.
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "x.py").write_text("1\n")
    (tmp_path / "b" / "x.py").write_text("1\n")
    (tmp_path / "a" / "y.py").write_text("1\n")
    subs = discover([tmp_path / "a" / "x.py", tmp_path / "b" / "x.py", tmp_path / "a" / "y.py"], EXPECTED)
    assert [s.id for s in subs] == ["x", "y"] and subs[1].problems == ()
    ((kind, message),) = subs[0].problems
    assert kind == "duplicate-id" and "2 entries have the id x (x.py, x.py): none was graded" in message
    klass = tmp_path / "class"
    (klass / "alice").mkdir(parents=True)
    (klass / "alice.py").write_text("1\n")
    (klass / "alice" / "hw7_iteration.py").write_text("1\n")
    (sub,) = discover([klass], EXPECTED)
    assert "(alice/, alice.py)" in sub.problems[0][1]


def test_digest_changes_with_content(tmp_path):
    path = tmp_path / "g.py"
    path.write_text("x = 1\n")
    first = discover([path], EXPECTED)[0].digest
    path.write_text("x = 2\n")
    assert discover([path], EXPECTED)[0].digest != first


# --------------------------------------------------------------------------- hostile uploads (issue #12, class 1)

def _one(subs, sid):
    return next(s for s in subs if s.id == sid)


def test_a_symlink_in_a_submission_folder_is_refused_and_never_read(tmp_path):
    secret = tmp_path / "secret_reference.py"
    secret.write_text("def answer():\n    return 42\n")
    klass = tmp_path / "class"
    (klass / "mallory").mkdir(parents=True)
    (klass / "mallory" / "hw7_iteration.py").write_text("from helpers import *\n")
    (klass / "mallory" / "helpers.py").symlink_to(secret)
    (klass / "honest").mkdir()
    (klass / "honest" / "hw7_iteration.py").write_text("x = 1\n")
    subs = discover([klass], EXPECTED)
    mallory = _one(subs, "mallory")
    assert mallory.problems and mallory.problems[0][0] == "symlink"
    assert "helpers.py is a symbolic link" in mallory.problems[0][1]
    assert not any(b"answer" in data for data in mallory.files.values())
    assert not _one(subs, "honest").problems


def test_a_symlinked_main_file_a_symlinked_folder_and_a_fifo_are_refused(tmp_path):
    import os

    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "hw7_iteration.py").write_text("x = 1\n")
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "linked_file.py").symlink_to(target / "hw7_iteration.py")
    (klass / "linked_folder").symlink_to(target)
    (klass / "piped").mkdir()
    (klass / "piped" / "hw7_iteration.py").write_text("x = 1\n")
    os.mkfifo(klass / "piped" / "helpers.py")
    subs = discover([klass], EXPECTED)
    kinds = {s.id: s.problems[0][0] for s in subs}
    assert kinds == {"linked_file": "symlink", "linked_folder": "symlink", "piped": "not-a-file"}
    assert all(not s.files for s in subs)


def test_a_folder_with_too_many_entries_or_bytes_is_refused_with_the_bound(tmp_path):
    from grader import upload_guard

    crowded = tmp_path / "class" / "crowded"
    crowded.mkdir(parents=True)
    (crowded / "hw7_iteration.py").write_text("x = 1\n")
    for i in range(upload_guard.MAX_ENTRIES + 5):
        (crowded / f"junk{i}.txt").write_text("x")
    heavy = tmp_path / "class" / "heavy"
    heavy.mkdir()
    (heavy / "hw7_iteration.py").write_text("x = 1\n")
    chunk = ("# " + "x" * 98 + "\n") * 9_000  # 900 kB of comments per file
    for i in range(7):
        (heavy / f"part{i}.py").write_text(chunk)
    subs = discover([tmp_path / "class"], EXPECTED)
    crowded_sub, heavy_sub = _one(subs, "crowded"), _one(subs, "heavy")
    assert crowded_sub.problems[0][0] == "too-many-files" and str(upload_guard.MAX_ENTRIES) in crowded_sub.problems[0][1]
    assert heavy_sub.problems[0][0] == "too-large" and "together" in heavy_sub.problems[0][1]
    assert not crowded_sub.files and not heavy_sub.files


def test_names_that_are_not_utf8_are_refused_with_the_name_escaped(tmp_path):
    """Such a name reaches Python as lone surrogates, which no JSON, CSV or terminal can write."""
    import os

    (tmp_path / os.fsdecode(b"eve\xfd.py")).write_text("x = 1\n")
    (tmp_path / os.fsdecode(b"dan\xfe")).mkdir()
    (tmp_path / "carol").mkdir()
    (tmp_path / "carol" / "hw7_iteration.py").write_text("x = 1\n")
    (tmp_path / "carol" / os.fsdecode(b"helper\xff.py")).write_text("x = 1\n")
    subs = {s.id: s for s in discover([tmp_path], EXPECTED)}
    assert set(subs) == {"eve\\xfd", "dan\\xfe", "carol"}
    for sub in subs.values():
        ((kind, message),) = sub.problems
        assert kind == "unreadable" and "has a name that is not UTF-8 text; rename it" in message
        message.encode("utf-8")
    assert subs["carol"].problems[0][1].startswith("helper\\xff.py ")


def test_discovery_keeps_paths_not_bytes_and_grading_reads_them_again(tmp_path):
    """A class's sources never all sit in the coordinator's memory: each is read again where it
    is graded, and let go of afterwards (SourceFiles); the digest is the one of the bytes."""
    import pickle

    from grader.submissions import SourceFiles, digest_of, files_read

    (tmp_path / "carol").mkdir()
    (tmp_path / "carol" / "hw7_iteration.py").write_text("x = 1\n")
    (sub,) = discover([tmp_path], EXPECTED)
    files = sub.files
    assert isinstance(files, SourceFiles) and files._data is None
    assert sub.digest == digest_of({"hw7_iteration.py": b"x = 1\n"})          # the store's resume key, unchanged
    travelling = pickle.loads(pickle.dumps(sub))                                # as a worker receives it
    assert travelling.files._data is None and len(pickle.dumps(sub)) < 1000
    with files_read(travelling) as ready:
        assert ready.files["hw7_iteration.py"] == b"x = 1\n" and not ready.problems
    assert travelling.files._data is None                                      # let go of after grading


@pytest.mark.parametrize("change", ["edited", "linked", "removed"])
def test_a_file_that_changed_after_discovery_is_refused_where_it_is_graded(tmp_path, change):
    from grader.submissions import files_read

    folder = tmp_path / "dave"
    folder.mkdir()
    main = folder / "hw7_iteration.py"
    main.write_text("x = 1\n")
    (sub,) = discover([tmp_path], EXPECTED)
    if change == "edited":
        main.write_text("x = 2\n")
    elif change == "linked":                       # swapped for a link to a file the student could not read
        main.unlink()
        main.symlink_to(tmp_path / "secret.py")
        (tmp_path / "secret.py").write_text("x = 1\n")
    else:
        main.unlink()
    with files_read(sub) as ready:
        assert ready.problems and ready.problems[0][0] == "unreadable"
    words = {"edited": "changed on disk", "linked": "symbolic link", "removed": "cannot be read"}[change]
    assert words in ready.problems[0][1]


def test_an_unpacked_zip_is_read_once_and_kept(tmp_path):
    """Intake's unpacked folders are gone when grading starts: their files are pinned."""
    import zipfile

    from grader.intake.gather import gather

    with zipfile.ZipFile(tmp_path / "erin.zip", "w") as zf:
        zf.writestr("hw7_iteration.py", "x = 3\n")
    (sub,) = gather([tmp_path / "erin.zip"], EXPECTED, lambda line: None)
    assert sub.files["hw7_iteration.py"] == b"x = 3\n"                         # the staging folder is gone
    import pickle
    assert pickle.loads(pickle.dumps(sub)).files["hw7_iteration.py"] == b"x = 3\n"
