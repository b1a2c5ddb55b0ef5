"""Intake: an LMS download, as it comes, becomes one folder per student.

Canvas, Moodle, Blackboard and Gradescope each name and lay out their downloads their own
way (grader.intake.formats, grader.intake.gradescope), and may hand out several uploads of
one student. Intake recognises the layout, maps every entry to the student id the LMS
knows, keeps the latest submission per student (and says which one it took), unpacks zips
(the download itself, or a student's own), and stages the result as ``<id>/<file>``
folders in a private temporary folder that ``grader.submissions.discover`` then reads
like any class folder. A folder of ``<id>.py`` files, or of ``<id>/`` folders, is read as
it is. Nothing is ever written next to the download.

Every name intake makes a path of (a student id from the LMS, the file name an entry gives)
is text the student may have chosen, so each must be one plain name (:func:`id_problem`,
:func:`grader.upload_guard.plain_name_problem`); an entry with one that is not is refused as
that student's problem (:attr:`Intake.refused`), never staged, never dropped in silence.
"""
from __future__ import annotations

import shutil
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Sequence

from grader import upload_guard
from grader.submissions import skipped_in_class

from . import formats, gradescope, unzip
from .formats import Entry

_SKIP_PREFIXES = (".", "_")


@dataclass(frozen=True)
class Refusal:
    """Why (part of) a student's submission was not staged: becomes a problem of that submission."""

    path: Path       # the entry of the download it came from
    message: str


def id_problem(student: str) -> str | None:
    """Why a student id from a download cannot name the student's folder of the stage, or None."""
    problem = upload_guard.plain_name_problem(student)
    if problem is None and skipped_in_class(student):
        problem = ("it starts with _, which marks a private folder" if student.startswith("_")
                   else f"it ends in {Path(student).suffix}, which marks a data file, not a submission")
    return problem


@dataclass
class Intake:
    """What discover reads, and what intake has to tell about each student."""

    targets: list[Path] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    names: dict[str, str] = field(default_factory=dict)   # student id -> name from the download
    warnings: list[str] = field(default_factory=list)      # for the instructor, about the download
    layouts: list[str] = field(default_factory=list)       # e.g. "Canvas download (14 students)"
    refused: dict[str, list[Refusal]] = field(default_factory=lambda: defaultdict(list))  # student id -> why
    stage: Path | None = None

    def refuse(self, student: str, path: Path, message: str) -> None:
        self.refused[student].append(Refusal(path, message))

    def staging(self, label: str) -> Path:
        if self.stage is None:
            self.stage = Path(tempfile.mkdtemp(prefix="grader-intake-"))
        folder = self.stage / f"{len(list(self.stage.iterdir()))}-{label}"
        folder.mkdir()
        return folder

    def close(self) -> None:
        if self.stage is not None:
            shutil.rmtree(self.stage, ignore_errors=True)
            self.stage = None

    def __enter__(self) -> "Intake":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def prepare(targets: Iterable[str | Path], expected: Sequence[str]) -> Intake:
    """Read every target (file, folder, zip) into an :class:`Intake`; the caller closes it."""
    intake = Intake()
    try:
        for target in map(Path, targets):
            _target(intake, target, expected)
    except BaseException:
        intake.close()
        raise
    return intake


def _target(intake: Intake, target: Path, expected: Sequence[str]) -> None:
    if target.is_file() and target.suffix.lower() == ".zip":
        folder = intake.staging("unzipped") / target.stem   # a zip of one submission is that student's
        folder.mkdir()
        try:
            unzip.extract(target, folder)
        except unzip.ZipProblem as exc:
            intake.warnings.append(str(exc))
            return
        _folder(intake, _single_top_folder(folder), expected, origin=target.name)
    elif target.is_dir():
        _folder(intake, target, expected, origin=target.name)
    else:
        intake.targets.append(target)   # a file, or a missing path: discover has the words for it


def _single_top_folder(folder: Path) -> Path:
    """A zip of one folder (``submissions/...``) is that folder."""
    entries = [p for p in folder.iterdir() if not p.name.startswith(_SKIP_PREFIXES)]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else folder


def _entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.startswith(_SKIP_PREFIXES) and p.name != "__MACOSX")


def _folder(intake: Intake, folder: Path, expected: Sequence[str], origin: str) -> None:
    if (folder / gradescope.METADATA).is_file():
        _gradescope(intake, folder, origin)
        return
    entries = _entries(folder)
    for naming in formats.NAMING_FORMATS:
        parsed = [(p, naming.parse(p.name, p.is_dir())) for p in entries]
        matched = [(p, readings) for p, readings in parsed if readings]
        if matched and len(matched) * 2 >= len(entries):
            _lms(intake, naming.name, folder, matched, [p for p, readings in parsed if not readings], expected, origin)
            return
    _plain(intake, folder, entries)


def _plain(intake: Intake, folder: Path, entries: list[Path]) -> None:
    """A class folder as the grader always read it; a student's ``<id>.zip`` is unpacked as ``<id>/``."""
    intake.targets.append(folder)
    zips = [p for p in entries if p.is_file() and p.suffix.lower() == ".zip"]
    if not zips:
        return
    stage = intake.staging("zips")
    for archive in zips:
        student = archive.stem
        why = id_problem(student)
        if why:
            intake.refuse(student, archive, f"{archive.name} cannot be read as the submission of {student!r}: {why}; "
                                            "rename it <id>.zip")
            continue
        into = stage / student
        into.mkdir()
        try:
            _unpack_flat(archive, into, intake.notes[student])
            intake.notes[student].append(f"unpacked from {archive.name}")
        except unzip.ZipProblem as exc:
            intake.notes[student].append(str(exc))
    intake.targets.append(stage)


def _unpack_flat(archive: Path, into: Path, notes: list[str]) -> None:
    """A student's own zip: its files side by side (folders inside it are flattened)."""
    for name, data in unzip.members(archive):
        target = into / name.name
        if target.exists():
            notes.append(f"{archive.name} holds two files named {name.name}; the first one is graded")
            continue
        target.write_bytes(data)


def _lms(intake: Intake, layout: str, folder: Path, matched: list[tuple[Path, tuple[Entry, ...]]], strays: list[Path],
         expected: Sequence[str], origin: str) -> None:
    by_student: dict[str, list[tuple[Path, Entry]]] = defaultdict(list)
    for path, readings in matched:
        if len(readings) == 1:
            by_student[readings[0].student].append((path, readings[0]))
        else:
            _ambiguous(intake, layout, origin, path, readings)
    stage = intake.staging(layout.lower())
    for student, items in sorted(by_student.items()):
        why = id_problem(student)
        if why:
            for path, _ in items:
                intake.refuse(student, path, f"the {layout} download gives {path.name!r} to the student {student!r}, "
                                             f"which cannot name a student's folder: {why}; it was not graded")
            continue
        into = stage / student
        into.mkdir()
        intake.names.setdefault(student, items[0][1].name)
        if layout == "Blackboard":
            latest = max(e.revision for _, e in items)
            kept = [(p, e) for p, e in items if e.revision == latest]
            attempts = sorted({e.revision for _, e in items})
            if len(attempts) > 1:
                intake.notes[student].append(
                    f"took {kept[0][1].label}, the latest of {len(attempts)} attempts in the {layout} download")
        else:
            kept = _latest_per_file(items, expected, intake.notes[student], layout)
        for path, entry in kept:
            for message in _stage_entry(path, entry, into, intake.notes[student], layout):
                intake.refuse(student, path, message)
    for stray in strays:
        if formats.is_bookkeeping(stray.name):
            continue
        intake.warnings.append(f"{origin}: ignored {stray.name}: not named the way a {layout} download names files")
    intake.layouts.append(f"{layout} download {origin} ({len(by_student)} students)")
    intake.targets.append(stage)


def _ambiguous(intake: Intake, layout: str, origin: str, path: Path, readings: tuple[Entry, ...]) -> None:
    """An entry whose name reads as more than one student's (a file or display name the student
    chose holds another id): graded as no one's; the instructor, and each candidate, is told."""
    candidates = " or ".join(f"{e.student}'s file {e.file!r}" for e in readings)
    intake.warnings.append(f"{origin}: refused {path.name}: its name reads as {candidates}, and nothing says which; "
                           "it was graded for no one (grade it by hand)")
    for e in readings:   # a student may see this: the entry's name would name the others
        intake.notes[e.student].append(f"an entry of the {layout} download whose name reads as yours or as another "
                                       "student's was graded for no one; your instructor has its name")


def _latest_per_file(items: list[tuple[Path, Entry]], expected: Sequence[str], notes: list[str],
                     layout: str) -> list[tuple[Path, Entry]]:
    """Per file name, the most recent upload; a "-1" that names no other file is the student's own name."""
    names = {e.as_named for _, e in items} | set(expected)
    groups: dict[str, list[tuple[Path, Entry]]] = defaultdict(list)
    for path, entry in items:
        restored = entry.file if (entry.revision[0] == 0 or entry.file in names) else entry.as_named
        groups[restored].append((path, entry))
    kept = []
    for file, group in sorted(groups.items()):
        group.sort(key=lambda item: item[1].revision)
        path, entry = group[-1]
        kept.append((path, replace(entry, file=file)))
        if len(group) > 1:
            older = ", ".join(e.label for _, e in group[:-1])
            notes.append(f"took {group[-1][1].label}, the latest of {len(group)} uploads of {file or 'the submission'} "
                         f"in the {layout} download (older: {older})")
    return kept


def _stage_entry(path: Path, entry: Entry, into: Path, notes: list[str], layout: str) -> list[str]:
    """Copy one entry's files into the student's folder; why any of them was refused."""
    if path.is_dir():   # Moodle's folder per student: its files, re-uploads resolved the same way
        files = [p for p in _entries(path) if p.is_file()]
        by_name: dict[str, list[tuple[int, Path]]] = defaultdict(list)
        for p in files:
            name, again = formats.moodle_file(p.name)
            by_name[name if again == 0 or any(q.name == name for q in files) else p.name].append((again, p))
        refused = []
        for name, uploads in sorted(by_name.items()):
            uploads.sort()
            refused += _stage_file(uploads[-1][1], into, name, notes, layout)
            if len(uploads) > 1:
                notes.append(f"took {uploads[-1][1].name}, the latest of {len(uploads)} uploads of {name} in the {layout} download")
        return refused
    return _stage_file(path, into, entry.file, notes, layout)


def _stage_file(source: Path, into: Path, name: str, notes: list[str], layout: str) -> list[str]:
    """``source`` as ``into/name`` (a zip: its files); why not, when ``name`` is no plain file name."""
    if source.suffix.lower() == ".zip":
        try:
            _unpack_flat(source, into, notes)
            notes.append(f"unpacked from {source.name}")
        except unzip.ZipProblem as exc:
            notes.append(str(exc))
        return []
    why = upload_guard.plain_name_problem(name)
    if why:
        return [f"the {layout} download's entry {source.name!r} gives its file the name {name!r}, which cannot be "
                f"a file's name: {why}; it was not graded (upload it again under the name the assignment asks for)"]
    if not source.is_symlink():
        shutil.copyfile(source, into / name)
    return []


def _gradescope(intake: Intake, folder: Path, origin: str) -> None:
    try:
        submitted = gradescope.read_metadata(folder)
    except gradescope.MetadataProblem as exc:
        intake.warnings.append(str(exc))
        intake.targets.append(folder)
        return
    latest: dict[str, gradescope.Submitted] = {}
    count: dict[str, int] = defaultdict(int)
    for s in submitted:
        count[s.student] += 1
        if s.student not in latest or s.created > latest[s.student].created:
            latest[s.student] = s
    stage = intake.staging("gradescope")
    for student, s in sorted(latest.items()):
        source = folder / s.folder
        if upload_guard.plain_name_problem(s.folder) or not source.is_dir() or source.is_symlink():
            intake.warnings.append(f"{origin}: {gradescope.METADATA} names {s.folder}, which is not a folder of the download")
            continue
        why = id_problem(student)
        if why:
            intake.refuse(student, source, f"{gradescope.METADATA} of the Gradescope export gives {s.folder} to the "
                                           f"submitter {s.name!r} with the id {student!r}, which cannot name a student's "
                                           f"folder: {why}; it was not graded (correct the SID in Gradescope)")
            continue
        into = stage / student
        shutil.copytree(source, into, symlinks=True, ignore=lambda d, names: [n for n in names if (Path(d) / n).is_symlink()])
        intake.names.setdefault(student, s.name)
        if count[student] > 1:
            intake.notes[student].append(f"took {s.folder} of {s.created}, the latest of {count[student]} in the Gradescope export")
        if s.group:
            intake.notes[student].append(f"a group submission with {', '.join(s.group)}")
    intake.layouts.append(f"Gradescope export {origin} ({len(latest)} students)")
    intake.targets.append(stage)
