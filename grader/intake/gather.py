"""The grade command's intake: targets in, submissions out, with what intake has to say.

Used as ``submissions = gather(targets, spec.submission_files, say, languages=...)`` where discover used to
be called, and ``results = with_roster(results, spec, roster)`` before the reports.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterable, Mapping, Sequence

from grader.judge.verdict import ErrorKind, SubmissionResult
from grader.spec.model import Spec

from . import Refusal, prepare
from .roster import Roster, join


def gather(targets: Iterable[str | Path], expected: Sequence[str], say: Callable[[str], None], *,
           languages: Sequence[str] | None = None) -> list:
    """Every submission in the targets, LMS downloads and zips understood, notes attached."""
    from grader.submissions import SourceFiles, check_ids, discover

    targets = [Path(t) for t in targets]
    with prepare(targets, expected) as intake:
        found = discover(intake.targets, expected, languages=languages)
        if intake.stage is not None:        # unpacked here, gone when this returns: read now, kept
            for sub in found:
                if isinstance(sub.files, SourceFiles) and sub.path.is_relative_to(intake.stage):
                    sub.files.pin()
        for layout in intake.layouts:
            say(f"read a {layout}")
        for warning in intake.warnings:
            say(f"warning: {warning}")
        subs = [_with_notes(sub, intake.notes.get(sub.id, ()), named_by_id=sub.path not in targets and sub.path.is_file())
                for sub in found]
        checked = check_ids(_with_refusals(subs, intake.refused, intake.notes))
        for group in case_clashes(sub.id for sub in checked):
            say(f"warning: the ids {' and '.join(group)} differ only in case: their report files are distinct "
                "here, but one overwrites the other on a case-insensitive file system (macOS, Windows) if the "
                "results are copied there")
        return checked


def case_clashes(ids: Iterable[str]) -> list[tuple[str, ...]]:
    """Groups of ids that differ only in case (``Alice``, ``alice``)."""
    by_folded: dict[str, list[str]] = {}
    for i in ids:
        by_folded.setdefault(i.casefold(), []).append(i)
    return [tuple(sorted(group)) for group in by_folded.values() if len(group) > 1]


def _with_refusals(subs: list, refused: Mapping[str, Sequence[Refusal]], notes: Mapping[str, Sequence[str]]) -> list:
    """A student with an entry intake refused is graded on nothing: the refusal is their problem,
    in place of what discover found in the folder it left incomplete (a student it left with no
    folder at all gets a submission of their own)."""
    from grader.submissions import Submission

    if not refused:
        return subs
    problems: dict[str, tuple[tuple[ErrorKind, str], ...]] = {
        student: tuple(("unreadable", r.message) for r in refusals) for student, refusals in refused.items()}
    out = [replace(sub, files={}, main=None, language=None, problems=problems[sub.id])
           if sub.id in problems else sub for sub in subs]
    seen = {sub.id for sub in subs}
    out += [Submission(id=student, path=refused[student][0].path, problems=problems[student],
                       notes=tuple(notes.get(student, ()))) for student in sorted(problems) if student not in seen]
    return out


def _with_notes(sub, notes: Iterable[str], *, named_by_id: bool):
    """In a folder of ``<id>.py`` files the file's name is the student's id, not a mistake: that
    note goes, the others (how a file was read) stay."""
    kept = tuple(n for n in sub.notes if not n.startswith(f"the file is named {sub.main};")) if named_by_id else sub.notes
    return replace(sub, notes=tuple(kept) + tuple(notes))


def with_roster(results: Sequence[SubmissionResult], spec: Spec, roster: Roster, say: Callable[[str], None]) -> list[SubmissionResult]:
    """One result per roster student (those who handed in nothing score 0), then the rest."""
    joined, strays = join(roster, results, spec)
    missing = len(joined) - len(results)
    say(f"roster {roster.path.name}: {len({i for i in roster.ids if i})} students by {roster.id_column!r}; "
        f"{missing} handed in nothing")
    if strays:
        say(f"warning: {len(strays)} submission(s) match no roster row: {', '.join(strays[:10])}")
    return joined
