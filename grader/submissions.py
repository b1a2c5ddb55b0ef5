"""Find submissions in the command line's targets and read them safely.

A target is a submission file, a folder holding one submission's files, or a folder of
such submissions (one per student). Which files are source files, which one is the main
file and how it decodes is each language's business (grader.languages); this module only
walks folders. Problems with a submission's files never stop the batch: they travel with
the submission and become its errors.
"""
from __future__ import annotations

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Sequence, cast

from grader import upload_guard
from grader.errors import ExitCode, GraderError
from grader.judge.verdict import ErrorKind
from grader.languages import DecodeProblem, Language, get_language, language_of, languages as all_languages

# Files that sit next to submissions in a corpus and are never part of one.
IGNORED_SUFFIXES = (".yaml", ".yml", ".json", ".md", ".txt", ".csv", ".class")


def skipped_in_class(name: str) -> bool:
    """An entry of a class folder that is never read as a submission: hidden, ``_private``, or data."""
    return name.startswith((".", "_")) or Path(name).suffix in IGNORED_SUFFIXES


def digest_of(files: Mapping[str, bytes]) -> str:
    """The one digest of a submission: every file's name and bytes (the store's resume key)."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode() + b"\0" + files[name] + b"\0")
    return h.hexdigest()[:16]


class SubmissionChanged(GraderError):
    """A file of a submission is not what discovery read: graded as that submission's problem."""


class SourceFiles(Mapping[str, bytes]):
    """A submission's files as discovery found them on disk: their paths and digest, read
    again (through the same guard) by the process that grades them, when it first needs
    them, and let go after.  So a class's sources never all sit in the coordinator's memory
    (1,000 hw7 students held 14 MB of them there, and a worker's copy was sent down its pipe),
    and what is graded is what discovery counted: a file that changed since is refused.

    ``pin`` keeps the bytes for good: files in a folder that goes away before the grading
    (intake's unpacked zips) are read once, at discovery."""

    def __init__(self, paths: Mapping[str, Path], data: Mapping[str, bytes]):
        self.paths = dict(paths)
        self.digest = digest_of(data)
        self._data: dict[str, bytes] | None = None
        self._pinned = False

    def __getitem__(self, name: str) -> bytes:
        return self.load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)

    def __contains__(self, name: object) -> bool:
        return name in self.paths

    def load(self) -> dict[str, bytes]:
        """The bytes, read now if not yet; SubmissionChanged when they are not the ones discovered."""
        if self._data is None:
            data: dict[str, bytes] = {}
            for name, path in self.paths.items():
                data[name], problem = upload_guard.read_regular(path)
                if problem:
                    raise SubmissionChanged(f"{problem[1]} (it was readable when the class was listed)")
            if digest_of(data) != self.digest:
                raise SubmissionChanged("its files changed on disk while the class was being graded; grade it again")
            self._data = data
        return self._data

    def pin(self) -> None:
        self.load()
        self._pinned = True

    def release(self) -> None:
        if not self._pinned:
            self._data = None

    def __getstate__(self) -> dict[str, object]:
        """Sent to a worker as paths, unless pinned (its folder may be gone by then)."""
        return {**self.__dict__, "_data": self._data if self._pinned else None}

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SourceFiles):
            return self.paths == other.paths and self.digest == other.digest
        return Mapping.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]  # a mapping, as dict


def _kept(paths: Mapping[str, Path], data: Mapping[str, bytes]) -> Mapping[str, bytes]:
    """What a discovered submission holds of its files (see SourceFiles)."""
    return SourceFiles(paths, data) if data else dict(data)


@contextmanager
def files_read(submission: Submission) -> Iterator[Submission]:
    """The submission with its files readable for the time it is graded: re-read from disk
    (see SourceFiles) and let go of afterwards; refused with a problem if they changed."""
    files = submission.files
    if not isinstance(files, SourceFiles) or submission.problems:
        yield submission
        return
    try:
        files.load()
    except SubmissionChanged as exc:
        yield replace(submission, problems=(("unreadable", exc.message),))
        return
    try:
        yield submission
    finally:
        files.release()


@dataclass(frozen=True)
class Submission:
    id: str
    path: Path
    files: Mapping[str, bytes] = field(default_factory=dict)  # name -> content, as handed in
    main: str | None = None  # the file to import or run
    problems: tuple[tuple[ErrorKind, str], ...] = ()  # (kind, message) found while reading
    notes: tuple[str, ...] = ()
    language: str | None = None  # the registered language of the main file

    @property
    def digest(self) -> str:
        """The one digest of a submission: every file's name and bytes (the store's resume key)."""
        return self.files.digest if isinstance(self.files, SourceFiles) else digest_of(self.files)

    @property
    def lang(self) -> Language:
        """The :class:`Language` of the main file (only when ``problems`` is empty)."""
        assert self.language is not None
        return get_language(self.language)

    def source(self) -> str:
        """The main file as text (only called when ``problems`` is empty)."""
        assert self.main is not None
        return self.lang.decode(self.main, self.files[self.main])


def _accepted(names: Sequence[str] | None) -> tuple[Language, ...]:
    return tuple(get_language(n) for n in names) if names else all_languages()


def _is_source(path: Path) -> bool:
    return language_of(path.name) is not None and not path.name.startswith(".")


def _read_sources(files: dict[str, bytes], accepted: tuple[Language, ...]
                  ) -> tuple[tuple[tuple[ErrorKind, str], ...], tuple[str, ...]]:
    """(problems, notes): the files that cannot be read as source text, and what the student is
    told about how the others were read (a file in a legacy code page)."""
    problems: list[tuple[ErrorKind, str]] = []
    notes: list[str] = []
    for name, data in files.items():
        language = language_of(name, accepted)
        if language is None:
            continue
        try:
            language.decode(name, data)
        except DecodeProblem as exc:
            problems.append((exc.kind, exc.message))
            continue
        note = language.encoding_note(name, data)
        notes += [note] if note else []
    return tuple(problems), tuple(notes)


def wrong_language(name: str, accepted: Sequence[Language]) -> str:
    """``this assignment is written in Python: hand in a .py file, not Mini.java``."""
    titles = " or ".join(lang.title for lang in accepted)
    suffixes = " or ".join(suffix for lang in accepted for suffix in lang.suffixes)
    return f"this assignment is written in {titles}: hand in a {suffixes} file, not {name}"


def _wrong_language(name: str, accepted: tuple[Language, ...]) -> tuple[ErrorKind, str]:
    return ("wrong-language", wrong_language(name, accepted))


def from_file(path: Path, expected: Sequence[str], *, languages: Sequence[str] | None = None) -> Submission:
    """A lone file handed in: graded whatever its name, in whichever accepted language it is."""
    accepted = _accepted(languages)
    data, unreadable = upload_guard.read_regular(path)
    name = path.name
    language = language_of(name, accepted)
    notes: tuple[str, ...] = ()
    if len(expected) == 1 and name not in expected and Path(expected[0]).suffix == path.suffix:
        # A lone file is graded whatever its name; the student is told what it should be called.
        notes = (f"the file is named {name}; the assignment asks for {expected[0]}",)
    problems: tuple[tuple[ErrorKind, str], ...] = ()
    if unreadable:
        problems = (cast(tuple[ErrorKind, str], unreadable),)
    elif language is None:
        problems = (_wrong_language(name, accepted),)
    else:
        problems, read_notes = _read_sources({name: data}, accepted)
        notes += read_notes
    return Submission(id=path.stem, path=path, files=_kept({name: path}, {name: data}) if not unreadable else {name: data},
                      main=name, problems=problems, notes=notes, language=language.name if language else None)


def _main_of(files: dict[str, bytes], expected: Sequence[str], accepted: tuple[Language, ...]) -> tuple[str | None, Language | None]:
    """The main file: an expected name first, then the first accepted language that has files."""
    for name in expected:
        language = language_of(name, accepted)
        if name in files and language is not None:
            return name, language
    for language in accepted:
        main = language.find_main(files, expected)
        if main is not None:
            return main, language
    return None, None


def from_folder(path: Path, expected: Sequence[str], *, languages: Sequence[str] | None = None) -> Submission:
    """A folder holding one submission's source files."""
    accepted = _accepted(languages)
    scan = upload_guard.scan_folder(path)
    files: dict[str, bytes] = {}
    paths: dict[str, Path] = {}
    refused = list(scan.problems)
    for p in scan.files:
        if _is_source(p):
            files[p.name], unreadable = upload_guard.read_regular(p)
            paths[p.name] = p
            refused += [unreadable] if unreadable else []
    too_big = upload_guard.bounded_total(files)
    refused += [too_big] if too_big else []
    if refused:  # nothing of a folder with a link, a device or too much in it is graded
        return Submission(id=path.name, path=path, files={}, problems=tuple(cast(list[tuple[ErrorKind, str]], refused)))
    main, language = _main_of(files, expected, accepted)
    notes: tuple[str, ...] = ()
    if main is not None and expected and main not in expected and Path(main).suffix in {Path(e).suffix for e in expected}:
        notes = (f"the folder holds {main}; the assignment asks for {' or '.join(expected)}",)
    if main is None or language is None:
        found = ", ".join(sorted(files)) or "no source files"
        wanted = " or ".join(expected) or "a source file"
        missing: tuple[ErrorKind, str] = ("missing-file", f"the folder has no {wanted} (found: {found})")
        if files and not expected:
            missing = _wrong_language(sorted(files)[0], accepted)
        return Submission(id=path.name, path=path, files=files, problems=(missing,))
    problems, read_notes = _read_sources(files, accepted)
    return Submission(id=path.name, path=path, files=_kept(paths, files), main=main, problems=problems,
                      notes=notes + read_notes, language=language.name)


def _holds_one_submission(folder: Path, expected: Sequence[str]) -> bool:
    if any((folder / name).is_file() for name in expected):
        return True
    has_sub_folders = any(p.is_dir() and not p.name.startswith((".", "_")) for p in folder.iterdir())
    sources = [p for p in folder.iterdir() if p.is_file() and _is_source(p)]
    kinds = {language_of(p.name) for p in sources}
    if not has_sub_folders and sources and all(kind is not None and kind.folder_submissions for kind in kinds):
        return True  # e.g. a folder of .m files: one MATLAB submission, not one per file
    return not has_sub_folders and not expected and bool(sources)


def _refused(child: Path) -> Submission | None:
    """A class folder's entry that is a link, device or pipe: a submission refused with a reason."""
    problem = upload_guard.entry_problem(child)
    if problem is None:
        return None
    return Submission(id=child.stem if _is_source(child) else child.name, path=child,
                      problems=(cast(tuple[ErrorKind, str], problem),))


def _shared_id(subs: list[Submission]) -> Submission:
    entries = ", ".join(upload_guard.shown_name(s.path.name) + ("/" if s.path.is_dir() else "") for s in subs)
    return Submission(id=subs[0].id, path=subs[0].path, problems=(("duplicate-id", (
        f"{len(subs)} entries have the id {subs[0].id} ({entries}): none was graded, since its grade "
        "could go to the wrong one; ids come from file stems and folder names, so rename all but one"),),))


def discover(targets: Iterable[str | Path], expected: Sequence[str], *, languages: Sequence[str] | None = None) -> list[Submission]:
    """Every submission in the targets, in a stable order, with unique ids.

    ``languages`` are the names of the languages the assignment accepts (default: any known one).
    """
    found: list[Submission] = []
    for target in map(Path, targets):
        if not target.exists():
            raise GraderError(f"no such file or folder: {target}", exit_code=ExitCode.USAGE)
        if target.is_file():
            found.append(from_file(target, expected, languages=languages))
        elif _holds_one_submission(target, expected):
            found.append(from_folder(target, expected, languages=languages))
        else:
            for child in sorted(target.iterdir()):
                if skipped_in_class(child.name):
                    continue
                refused = _refused(child)
                if refused is not None:
                    found.append(refused)
                elif child.is_dir():
                    found.append(from_folder(child, expected, languages=languages))
                elif child.is_file() and (language_of(child.name) is not None or not child.suffix):
                    found.append(from_file(child, expected, languages=languages))
    # An id comes from a name on disk: one that is not UTF-8 is shown escaped (its files were refused).
    found = [sub if upload_guard.shown_name(sub.id) == sub.id else replace(sub, id=upload_guard.shown_name(sub.id))
             for sub in found]
    return check_ids(found)


def check_ids(found: list[Submission]) -> list[Submission]:
    """``found`` with one submission per id: the entries that share an id (``x.py`` beside a
    folder ``x/``) become one refused submission, since a grade could go to the wrong one, and
    the rest of the batch goes on.  Ids whose report files would still clash (their names'
    hashes collide) are a GraderError before anything is graded or written."""
    from grader.reports._atomic import clashing_ids   # the reports' import, only for a batch

    by_id: dict[str, list[Submission]] = {}
    for sub in found:
        by_id.setdefault(sub.id, []).append(sub)
    found = [subs[0] if len(subs) == 1 else _shared_id(subs) for subs in by_id.values()]
    ids = [s.id for s in found]
    clashes = clashing_ids(ids)
    if clashes:
        raise GraderError(f"two submissions would share report files: {'; '.join(' and '.join(map(repr, c)) for c in clashes)}",
                          hint="their names differ only where a file name cannot hold them, and their hashes collide; rename one")
    return found
