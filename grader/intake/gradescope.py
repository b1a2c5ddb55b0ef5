"""Gradescope's "Export Submissions": ``submission_<id>/`` folders and ``submission_metadata.yml``.

The metadata maps each folder to its submitters (name, sid, email) and the time it was
made; YAML keys carry Ruby's leading colon (``:submitters:``). A group submission belongs to
every member. The student id is the sid when the course set one, else the email.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

METADATA = "submission_metadata.yml"


@dataclass(frozen=True)
class Submitted:
    folder: str
    student: str
    name: str
    created: str
    group: tuple[str, ...]   # the other members' names


class MetadataProblem(Exception):
    """submission_metadata.yml cannot be read; the message is for the instructor."""


def _get(record: dict, key: str):
    return record.get(f":{key}", record.get(key))


def read_metadata(folder: Path) -> list[Submitted]:
    try:
        data = yaml.safe_load((folder / METADATA).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise MetadataProblem(f"{folder / METADATA} cannot be read ({exc})") from None
    if not isinstance(data, dict):
        raise MetadataProblem(f"{folder / METADATA} does not map submission folders to submitters")
    found = []
    for sub_folder, record in data.items():
        if not isinstance(record, dict):
            continue
        people = _get(record, "submitters") or []
        names = [str(_get(p, "name") or "") for p in people if isinstance(p, dict)]
        for person in people:
            if not isinstance(person, dict):
                continue
            student = str(_get(person, "sid") or "").strip() or str(_get(person, "email") or "").strip()
            if not student:
                continue
            name = str(_get(person, "name") or student)
            others = tuple(n for n in names if n != name)
            found.append(Submitted(str(sub_folder), student, name, str(_get(record, "created_at") or ""), others))
    return found
