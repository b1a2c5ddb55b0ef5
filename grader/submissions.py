"""Find submissions in the command line's targets and read them safely.

A target is a submission file, a folder holding one submission's files, or a folder of
such submissions (one per student). Problems with a submission's files never stop the
batch: they travel with the submission and become its errors.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from grader import upload_guard
from grader.errors import ExitCode, GraderError

SOURCE_SUFFIXES = (".py", ".java")
# Files that sit next to submissions in a corpus and are never part of one.
IGNORED_SUFFIXES = (".yaml", ".yml", ".json", ".md", ".txt", ".csv", ".class")


@dataclass(frozen=True)
class Submission:
    id: str
    path: Path
    files: dict[str, bytes] = field(default_factory=dict)  # name -> content, as handed in
    main: str | None = None  # the file to import or run
    problems: tuple[tuple[str, str], ...] = ()  # (kind, message) found while reading
    notes: tuple[str, ...] = ()

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for name in sorted(self.files):
            h.update(name.encode() + b"\0" + self.files[name] + b"\0")
        return h.hexdigest()[:16]

    def source(self) -> str:
        """The main file as text (only called when ``problems`` is empty)."""
        assert self.main is not None
        return self.files[self.main].decode("utf-8")


def text_problem(name: str, data: bytes) -> tuple[str, str] | None:
    if not data.strip():
        return ("empty", f"{name} is empty")
    if b"\0" in data:
        return ("binary", f"{name} is a binary file, not source code")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if name.endswith(".java"):
            return None   # legacy code pages (Windows-1252, ISO-8859-7) are decoded by grader.programs.toolchain
        return ("encoding", f"{name} is not UTF-8 text (byte {exc.start} cannot be decoded); save it as UTF-8")
    return None


_ENTRY_POINT = re.compile(rb"\bstatic\s+(?:final\s+)?(?:public\s+)?void\s+main\s*\(|__name__\s*==\s*['\"]__main__['\"]")


def _entry_points(files: dict[str, bytes]) -> list[str]:
    """The files that start a program (Java ``main``, Python ``if __name__ == "__main__"``)."""
    return [name for name, data in files.items() if _ENTRY_POINT.search(data)]


def _is_source(path: Path) -> bool:
    return path.suffix in SOURCE_SUFFIXES and not path.name.startswith(".")


def from_file(path: Path, expected: Sequence[str]) -> Submission:
    data, problem = upload_guard.read_regular(path)
    problem = problem or text_problem(path.name, data)
    name = path.name
    notes: tuple[str, ...] = ()
    if len(expected) == 1 and path.name not in expected and Path(expected[0]).suffix == path.suffix:
        # A lone file is graded whatever its name; the student is told what it should be called.
        notes = (f"the file is named {path.name}; the assignment asks for {expected[0]}",)
    return Submission(id=path.stem, path=path, files={name: data}, main=name, problems=(problem,) if problem else (), notes=notes)


def from_folder(path: Path, expected: Sequence[str]) -> Submission:
    scan = upload_guard.scan_folder(path)
    files, refused = {}, list(scan.problems)
    for p in scan.files:
        if _is_source(p):
            files[p.name], problem = upload_guard.read_regular(p)
            refused += [problem] if problem else []
    too_big = upload_guard.bounded_total(files)
    refused += [too_big] if too_big else []
    if refused:  # nothing of a folder with a link, a device or too much in it is graded
        return Submission(id=path.name, path=path, files={}, problems=tuple(refused))
    main = next((name for name in expected if name in files), None)
    notes: tuple[str, ...] = ()
    if main is None and len(files) == 1:
        main = next(iter(files))
        if expected:
            notes = (f"the folder holds {main}; the assignment asks for {' or '.join(expected)}",)
    elif main is None and len(_entry_points(files)) == 1:
        main = _entry_points(files)[0]   # a program with its helper classes: the file that starts it
    if main is None:
        found = ", ".join(sorted(files)) or "no source files"
        wanted = " or ".join(expected) or "a source file"
        return Submission(id=path.name, path=path, files=files, problems=(("missing-file", f"the folder has no {wanted} (found: {found})"),))
    problems = tuple(p for p in (text_problem(n, d) for n, d in files.items()) if p)
    return Submission(id=path.name, path=path, files=files, main=main, problems=problems, notes=notes)


def _holds_one_submission(folder: Path, expected: Sequence[str]) -> bool:
    if any((folder / name).is_file() for name in expected):
        return True
    has_sub_folders = any(p.is_dir() and not p.name.startswith((".", "_")) for p in folder.iterdir())
    sources = [p for p in folder.iterdir() if p.is_file() and _is_source(p)]
    if has_sub_folders or not sources:
        return False
    if not expected:
        return True
    # one program and its helper classes (e.g. Game.java with StdIn.java): one entry point, several files
    return len(sources) > 1 and len(_entry_points({p.name: upload_guard.read_regular(p)[0] for p in sources})) == 1


def _refused(child: Path) -> Submission | None:
    """A class folder's entry that is a link, device or pipe: a submission refused with a reason."""
    problem = upload_guard.entry_problem(child)
    if problem is None:
        return None
    return Submission(id=child.stem if child.suffix in SOURCE_SUFFIXES else child.name, path=child, problems=(problem,))


def discover(targets: Iterable[str | Path], expected: Sequence[str]) -> list[Submission]:
    """Every submission in the targets, in a stable order, with unique ids."""
    found: list[Submission] = []
    for target in map(Path, targets):
        if not target.exists():
            raise GraderError(f"no such file or folder: {target}", exit_code=ExitCode.USAGE)
        if target.is_file():
            found.append(from_file(target, expected))
        elif _holds_one_submission(target, expected):
            found.append(from_folder(target, expected))
        else:
            for child in sorted(target.iterdir()):
                if child.name.startswith((".", "_")) or child.suffix in IGNORED_SUFFIXES:
                    continue
                refused = _refused(child)
                if refused is not None:
                    found.append(refused)
                elif child.is_dir():
                    found.append(from_folder(child, expected))
                elif child.is_file() and (child.suffix in SOURCE_SUFFIXES or not child.suffix):
                    found.append(from_file(child, expected))
    ids = [s.id for s in found]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise GraderError(f"two submissions share the id {', '.join(duplicates)}", hint="ids come from file stems and folder names; rename one")
    return found
