"""LMS downloads as they come: Canvas, Moodle, Blackboard and Gradescope, zips, and a roster."""
from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from conftest import FIXTURES
from grader.intake import formats, prepare, unzip
from grader.intake.gather import gather
from grader.intake.roster import read_roster, student_key

LMS = FIXTURES / "lms"
MINI = FIXTURES / "specs" / "mini.yaml"
EXPECTED = ("mini.py",)
GOOD = "def add(a, b):\n    return a + b\n\ndef divmod2(a, b):\n    return a // b, a % b\n\ndef shout(text):\n    return text.upper() + '!'\n"


def grade(*args: object, tmp_path: Path) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(MINI), *map(str, args), "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc, out


def read_csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


def zip_folder(folder: Path, out: Path) -> Path:
    with zipfile.ZipFile(out, "w") as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(folder.parent).as_posix())
    return out


# ------------------------------------------------------------------ naming formats
@pytest.mark.parametrize("name, student, file, again", [
    ("doejane_123456_7890123_hw3.py", "123456", "hw3.py", 0),
    ("doejane_123456_7890124_hw3-1.py", "123456", "hw3.py", 1),
    ("doejane_LATE_123456_7890124_hw3-12.py", "123456", "hw3.py", 12),
    ("vanderberg2_99_100_my_solution.py", "99", "my_solution.py", 0),
])
def test_canvas_names(name, student, file, again):
    [entry] = formats.canvas(name)
    assert (entry.student, entry.file, entry.revision[0]) == (student, file, again)


def test_moodle_and_blackboard_names():
    [entry] = formats.moodle("Jane Doe_1001_assignsubmission_file_hw3.py")
    assert (entry.student, entry.name, entry.file) == ("1001", "Jane Doe", "hw3.py")
    assert formats.moodle("Jane Doe_1001_assignsubmission_onlinetext_", True) == ()
    assert formats.is_bookkeeping("Jane Doe_1001_assignsubmission_onlinetext_")
    assert formats.moodle_file("hw3 (2).py") == ("hw3.py", 2)
    [entry] = formats.blackboard("Homework 3_jdoe_attempt_2024-03-02-14-22-33_hw3.py")
    assert (entry.student, entry.file, entry.revision) == ("jdoe", "hw3.py", ("2024-03-02-14-22-33",))
    assert formats.blackboard("Homework 3_jdoe_attempt_2024-03-02-14-22-33.txt") == ()
    assert formats.is_bookkeeping("Homework 3_jdoe_attempt_2024-03-02-14-22-33.txt")
    for plain in ("alice.py", "correct_loops.py", "war_off_by_one.py", "bob"):
        assert all(f.parse(plain, False) == () for f in formats.NAMING_FORMATS), plain


# ------------------------------------------------------------------ downloads end to end
def test_a_canvas_download_with_resubmissions_and_a_roster(tmp_path):
    proc, out = grade(LMS / "canvas" / "submissions", "--roster", LMS / "canvas" / "roster.csv", tmp_path=tmp_path)
    assert "Canvas download" in proc.stderr and "2 handed in nothing" in proc.stderr
    grades = read_csv(out / "grades.csv")
    assert [g["id"] for g in grades] == ["123456", "234567", "345678", "456789", "567890", "678901"]
    by_id = {g["id"]: g for g in grades}
    assert by_id["123456"]["name"] == "Doe, Jane" and by_id["123456"]["score"] == "25"   # the resubmission -1 was taken
    assert by_id["456789"]["score"] == "25"                                             # -2 is newer than -1 and the first
    assert by_id["345678"]["score"] == "25"                                             # a zip of a folder, __MACOSX ignored
    assert by_id["567890"]["score"] == by_id["678901"]["score"] == "0"
    assert "no submission" in by_id["567890"]["note"] and by_id["123456"]["note"] == ""
    jane = json.loads((out / "123456.json").read_text())
    notes = [e["message"] for e in jane["errors"] if e["kind"] == "note"]
    assert any("took doejane_123456_7890130_mini-1.py, the latest of 2 uploads of mini.py" in n for n in notes), notes
    assert all(e["kind"] == "note" for e in jane["errors"])
    gradebook = read_csv(out / "gradebook.csv")
    assert [row["SIS User ID"] for row in gradebook] == ["", "S1001", "S1002", "S1003", "S1004", "S1005", "S1006"]
    assert gradebook[0]["Student"].strip() == "Points Possible"
    column = "Mini assignment for tests (4411)"   # Canvas's own column for the assignment gets the total
    assert [row[column] for row in gradebook] == ["25", "25", "25", "25", "25", "0", "0"]
    assert list(gradebook[0])[-3:] == ["mini: add", "mini: divmod2", "mini: shout"]


def test_a_moodle_download_zip_with_a_reupload_and_a_grading_worksheet(tmp_path):
    download = zip_folder(LMS / "moodle" / "HW3-mini-1234", tmp_path / "HW3-mini-1234.zip")
    proc, out = grade(download, "--roster", LMS / "moodle" / "grading_worksheet.csv", tmp_path=tmp_path)
    assert "Moodle download" in proc.stderr and "'Identifier'" in proc.stderr
    assert "onlinetext" not in proc.stderr
    grades = read_csv(out / "grades.csv")
    assert [(g["id"], g["name"], g["score"]) for g in grades] == [
        ("1001", "Jane Doe", "25"), ("1002", "Bob Smith", "25"), ("1003", "Ann Lee", "15"),
        ("1004", "Carl Jung", "0"), ("1005", "Dana Scully", "0")]
    notes = [e["message"] for e in json.loads((out / "1001.json").read_text())["errors"]]
    assert any("took mini (1).py, the latest of 2 uploads of mini.py" in n for n in notes), notes
    worksheet = read_csv(out / "gradebook.csv")
    assert [row["Identifier"] for row in worksheet] == [f"Participant {n}" for n in range(1001, 1006)]
    assert [row["Grade"] for row in worksheet] == ["25", "25", "15", "0", "0"]   # the worksheet's own column


def test_a_blackboard_download_keeps_the_latest_attempt(tmp_path):
    proc, out = grade(LMS / "blackboard" / "gradebook_mini", tmp_path=tmp_path)
    assert "Blackboard download" in proc.stderr and "ignored" not in proc.stderr
    assert {g["id"]: g["score"] for g in read_csv(out / "grades.csv")} == {"bsmith": "25", "jdoe": "25"}
    notes = [e["message"] for e in json.loads((out / "jdoe.json").read_text())["errors"]]
    assert any("the attempt of 2026-03-02 08:00:41, the latest of 2 attempts" in n for n in notes), notes


def test_a_gradescope_export_maps_folders_to_students_and_groups(tmp_path):
    proc, out = grade(LMS / "gradescope" / "submissions", tmp_path=tmp_path)
    assert "Gradescope export" in proc.stderr
    assert {g["id"]: g["score"] for g in read_csv(out / "grades.csv")} == {"1001": "25", "1002": "25", "1003": "25"}
    notes = [e["message"] for e in json.loads((out / "1003.json").read_text())["errors"]]
    assert "a group submission with Bob Smith" in notes


# ------------------------------------------------------------------ plain folders and zips
def test_in_a_folder_of_id_files_the_name_is_the_id_not_a_mistake(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "alice.py").write_text(GOOD)
    (klass / "bob.py").write_text(GOOD)
    subs = gather([klass], EXPECTED, lambda _: None)
    assert [(s.id, s.notes) for s in subs] == [("alice", ()), ("bob", ())]
    alone = gather([klass / "alice.py"], EXPECTED, lambda _: None)
    assert alone[0].notes == ("the file is named alice.py; the assignment asks for mini.py",)


def test_a_students_zip_in_a_class_folder_is_unpacked_and_a_broken_one_reported(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "alice.py").write_text(GOOD)
    with zipfile.ZipFile(klass / "bob.zip", "w") as zf:
        zf.writestr("bob_hw/mini.py", GOOD)
    (klass / "carol.zip").write_bytes(b"not a zip at all")
    proc, out = grade(klass, tmp_path=tmp_path)
    assert {g["id"]: g["score"] for g in read_csv(out / "grades.csv")} == {"alice": "25", "bob": "25", "carol": "0"}
    carol = json.loads((out / "carol.json").read_text())
    assert any("carol.zip is not a readable zip file" in e["message"] for e in carol["errors"])


def test_zips_cannot_escape_or_explode(tmp_path):
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("../../outside.py", "x = 1\n")
        zf.writestr("/abs.py", "x = 1\n")
        zf.writestr("ok/mini.py", GOOD)
    into = tmp_path / "into"
    into.mkdir()
    assert unzip.extract(evil, into) == 1
    assert [p.relative_to(into).as_posix() for p in into.rglob("*") if p.is_file()] == ["ok/mini.py"]
    assert not (tmp_path / "outside.py").exists()
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mini.py", b"0" * (unzip.MAX_MEMBER_BYTES + 10))
    with pytest.raises(unzip.ZipProblem, match="more than"):
        unzip.extract(bomb, into)


def test_intake_leaves_nothing_behind(tmp_path):
    with prepare([LMS / "canvas" / "submissions"], EXPECTED) as intake:
        stage = intake.stage
        assert stage is not None and stage.is_dir()
        assert sorted(p.name for p in intake.targets[0].iterdir()) == ["123456", "234567", "345678", "456789"]
    assert not stage.exists()


# ------------------------------------------------------------------ roster
def test_the_roster_id_column_is_found_by_matching_or_named(tmp_path):
    roster = read_roster(LMS / "canvas" / "roster.csv", ["123456", "234567"])
    assert roster.id_column == "ID"
    assert read_roster(LMS / "canvas" / "roster.csv", ["S1001"]).id_column == "SIS User ID"
    assert read_roster(LMS / "canvas" / "roster.csv", [], id_column="SIS Login ID").id_column == "SIS Login ID"
    assert student_key("Participant 1004") == "1004"
    from grader.errors import GraderError
    with pytest.raises(GraderError, match="no column"):
        read_roster(LMS / "canvas" / "roster.csv", ["nobody"])
    with pytest.raises(GraderError, match="no column 'Email'"):
        read_roster(LMS / "canvas" / "roster.csv", [], id_column="Email")


def test_a_link_in_a_zip_is_never_made(tmp_path):
    archive = tmp_path / "links.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        link = zipfile.ZipInfo("mini.py")
        link.external_attr = (0o120777) << 16   # a symlink to the grader's secrets
        zf.writestr(link, "/etc/shadow")
        zf.writestr("helper.py", "x = 1\n")
    assert [name.as_posix() for name, _ in unzip.members(archive)] == ["helper.py"]


def test_a_zip_of_one_submission_is_named_by_the_zip(tmp_path):
    archive = tmp_path / "alice.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("mini.py", GOOD)
    subs = gather([archive], EXPECTED, lambda _: None)
    assert [(s.id, s.main, s.problems) for s in subs] == [("alice", "mini.py", ())]


def test_moodle_folders_with_or_without_the_trailing_underscore():
    for name in ("Jane Doe_1001_assignsubmission_file_", "Jane Doe_1001_assignsubmission_file"):
        [entry] = formats.moodle(name, True)
        assert (entry.student, entry.file) == ("1001", "")


# ------------------------------------------------------------------ names the student controls
def gradescope_export(tmp_path: Path, sid: str) -> Path:
    """The fixture export, with the group member Ann Lee's sid replaced by ``sid``."""
    export = tmp_path / "export"
    shutil.copytree(LMS / "gradescope" / "submissions", export)
    metadata = export / "submission_metadata.yml"
    metadata.write_text(metadata.read_text().replace(":sid: '1003'", f":sid: {json.dumps(sid)}"))
    return export


def refused(subs, student: str) -> str:
    [sub] = [s for s in subs if s.id == student]
    assert not sub.files and sub.main is None and [k for k, _ in sub.problems] == ["unreadable"], sub
    return sub.problems[0][1]


@pytest.mark.parametrize("sid", ["../../../escaped", "{tmp}/planted/usercustomize", ".", "..", "_private", "x.json"])
def test_a_gradescope_sid_that_is_no_plain_name_is_refused_as_that_students_problem(tmp_path, monkeypatch, sid):
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))   # ../../../ from the stage is tmp_path
    sid = sid.format(tmp=tmp_path)
    export = gradescope_export(tmp_path, sid)
    subs = gather([export], EXPECTED, lambda _: None)
    assert not (tmp_path / "escaped").exists() and not (tmp_path / "planted").exists()
    assert {s.id: bool(s.files) for s in subs} == {"1001": True, "1002": True, sid: False}
    message = refused(subs, sid)
    assert "Gradescope export gives submission_303 to the submitter 'Ann Lee'" in message
    assert "cannot name a student's folder" in message and "correct the SID in Gradescope" in message


@pytest.mark.parametrize("file", ["..", "."])
def test_an_lms_entry_whose_file_is_a_folder_name_is_refused_not_an_internal_error(tmp_path, file):
    download = tmp_path / "canvas"
    shutil.copytree(LMS / "canvas" / "submissions", download)
    (download / "smithbob_LATE_234567_7890125_mini.py").rename(download / f"smithbob_LATE_234567_7890125_{file}")
    archive = zip_folder(download, tmp_path / "canvas.zip")
    for target in (download, archive):
        subs = gather([target], EXPECTED, lambda _: None)
        message = refused(subs, "234567")
        assert f"gives its file the name {file!r}, which cannot be a file's name" in message
        assert all(s.files for s in subs if s.id != "234567")


def test_a_blackboard_username_that_is_no_plain_name_is_refused(tmp_path):
    download = tmp_path / "blackboard"
    shutil.copytree(LMS / "blackboard" / "gradebook_mini", download)
    (download / "Mini assignment_.._attempt_2026-03-03-10-00-00_mini.py").write_text(GOOD)
    subs = gather([download], EXPECTED, lambda _: None)
    assert "to the student '..', which cannot name a student's folder: it is .., which means the folder above" in refused(subs, "..")
    assert sorted(s.id for s in subs if s.files) == ["bsmith", "jdoe"]


def test_a_students_zip_that_a_class_folder_would_skip_is_refused_not_lost(tmp_path):
    klass = tmp_path / "class"
    klass.mkdir()
    (klass / "alice.py").write_text(GOOD)
    with zipfile.ZipFile(klass / "bob.json.zip", "w") as zf:
        zf.writestr("mini.py", GOOD)
    subs = gather([klass], EXPECTED, lambda _: None)
    assert "bob.json.zip cannot be read as the submission of 'bob.json': it ends in .json" in refused(subs, "bob.json")


@pytest.mark.parametrize("name, why", [
    ("hw7.py", None), ("jane.doe@example.edu", None), ("Jane Doe", None),
    ("", "empty"), (".", "the folder itself"), ("..", "the folder above"), ("a/b", "a path"), ("a\\b", "a path"),
    ("/usr/lib", "a path"), (".hidden", "hides it"), ("a\x1b[2Kb", "control characters"), ("a\nb", "control characters"),
    ("x" * 256, "longer than 255 bytes"), ("a\udcffb", "not UTF-8"),
])
def test_plain_name_problem(name, why):
    from grader.upload_guard import plain_name_problem

    problem = plain_name_problem(name)
    assert (problem is None) if why is None else (problem is not None and why in problem), problem


# ------------------------------------------------------------------ names that read as two students'
SHE = "2026-03-02-10-00-00"
LATER = "2026-12-31-23-59-59"


def test_a_name_holding_another_students_id_reads_both_ways_or_one_by_construction():
    eve, victim = formats.blackboard(f"Homework 7_eve_attempt_{SHE}_x_victim_attempt_{LATER}_hw7.py")
    assert (eve.student, eve.file) == ("eve", f"x_victim_attempt_{LATER}_hw7.py")
    assert (victim.student, victim.file) == ("victim", "hw7.py")
    flat = formats.moodle("Eve_1001_assignsubmission_file_x_1009_assignsubmission_file_hw7.py")
    assert [(e.student, e.file) for e in flat] == [("1001", "x_1009_assignsubmission_file_hw7.py"), ("1009", "hw7.py")]
    # A folder's name ends at its id: a display name holding another id cannot move it.
    [folder] = formats.moodle("Eve_1001_assignsubmission_file_x_1009_assignsubmission_file_", True)
    assert (folder.student, folder.name) == ("1009", "Eve_1001_assignsubmission_file_x")
    # A Canvas login name has no underscore: the id always follows the first one.
    [canvas] = formats.canvas("eve_1009_7890123_x_123456_7890124_mini.py")
    assert (canvas.student, canvas.file) == ("1009", "x_123456_7890124_mini.py")
    # One student's two readings are that student's: the leftmost is taken.
    [same] = formats.moodle("Jane_1001_assignsubmission_file_x_1001_assignsubmission_file_hw7.py")
    assert (same.student, same.file) == ("1001", "x_1001_assignsubmission_file_hw7.py")


def test_a_blackboard_upload_named_for_another_student_is_graded_for_no_one(tmp_path):
    download = tmp_path / "blackboard"
    shutil.copytree(LMS / "blackboard" / "gradebook_mini", download)
    forged = download / "Mini assignment_bsmith_attempt_2026-03-01-22-40-12_x_jdoe_attempt_2026-12-31-23-59-59_mini.py"
    forged.write_text("def add(a, b):\n    return 'forged'\n")
    said: list[str] = []
    subs = {s.id: s for s in gather([download], EXPECTED, said.append)}
    jdoe = (download / "Mini assignment_jdoe_attempt_2026-03-02-08-00-41_mini.py").read_bytes()
    assert subs["jdoe"].files["mini.py"] == jdoe
    assert [w for w in said if w.startswith("warning:")] == [
        f"warning: blackboard: refused {forged.name}: its name reads as bsmith's file "
        "'x_jdoe_attempt_2026-12-31-23-59-59_mini.py' or jdoe's file 'mini.py', and nothing says which; "
        "it was graded for no one (grade it by hand)"]
    for student in ("bsmith", "jdoe"):
        assert any("whose name reads as yours or as another student's was graded for no one" in n
                   for n in subs[student].notes), subs[student].notes


def test_a_moodle_display_name_holding_another_id_moves_no_folder_and_a_flat_file_so_named_is_refused(tmp_path):
    download = tmp_path / "moodle"
    shutil.copytree(LMS / "moodle" / "HW3-mini-1234", download)
    eve = download / "Eve_1001_assignsubmission_file_x_1009_assignsubmission_file_"
    eve.mkdir()
    (eve / "mini.py").write_text("def add(a, b):\n    return 'eve'\n")
    (download / "Eve_1001_assignsubmission_file_x_1010_assignsubmission_file_mini.py").write_text("x = 1\n")
    said: list[str] = []
    subs = {s.id: s for s in gather([download], EXPECTED, said.append)}
    assert subs["1009"].files["mini.py"] == (eve / "mini.py").read_bytes()
    jane = download / "Jane Doe_1001_assignsubmission_file_"
    assert subs["1001"].files["mini.py"] == (jane / "mini (1).py").read_bytes()
    assert "1010" not in subs
    assert any("refused Eve_1001_assignsubmission_file_x_1010_assignsubmission_file_mini.py: its name reads as "
               "1001's file 'x_1010_assignsubmission_file_mini.py' or 1010's file 'mini.py'" in w for w in said), said
