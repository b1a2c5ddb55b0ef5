"""Reading a zip handed in or downloaded, without trusting it.

Only regular files come out, under names that stay inside the folder they are written to
(no absolute paths, no ``..``, no links), within a bound on members and on bytes, so a zip
bomb or a crafted name costs an error message, not the disk or the grader's own files.
"""
from __future__ import annotations

import stat
import zipfile
from pathlib import Path, PurePosixPath
from typing import Iterator

MAX_MEMBERS = 20_000
MAX_MEMBER_BYTES = 50 * 1024 * 1024
MAX_TOTAL_BYTES = 500 * 1024 * 1024
_JUNK = ("__MACOSX",)


class ZipProblem(Exception):
    """A zip that cannot be read as one; the message is for the instructor."""


def _safe_name(raw: str) -> PurePosixPath | None:
    path = PurePosixPath(raw.replace("\\", "/"))
    parts = [p for p in path.parts if p not in ("", ".")]
    if not parts or path.is_absolute() or ".." in parts or parts[0] in _JUNK:
        return None
    if any(p.startswith(".") for p in parts):
        return None
    return PurePosixPath(*parts)


def members(path: Path) -> Iterator[tuple[PurePosixPath, bytes]]:
    """Every regular file of the zip as (relative name, bytes); raises ZipProblem."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ZipProblem(f"{path.name} is not a readable zip file ({exc})") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_MEMBERS:
            raise ZipProblem(f"{path.name} holds {len(infos)} entries, more than {MAX_MEMBERS}")
        total = 0
        for info in infos:
            kind = stat.S_IFMT(info.external_attr >> 16)   # 0 when the zip was not made on Unix
            if info.is_dir() or (kind and kind != stat.S_IFREG):
                continue   # folders are made as needed; links and devices are never made
            name = _safe_name(info.filename)
            if name is None:
                continue
            try:
                with archive.open(info) as member:
                    data = member.read(MAX_MEMBER_BYTES + 1)
            except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as exc:
                raise ZipProblem(f"{path.name}: {info.filename} cannot be read ({exc})") from None
            if len(data) > MAX_MEMBER_BYTES:
                raise ZipProblem(f"{path.name}: {info.filename} unpacks to more than {MAX_MEMBER_BYTES // 2**20} MB")
            total += len(data)
            if total > MAX_TOTAL_BYTES:
                raise ZipProblem(f"{path.name} unpacks to more than {MAX_TOTAL_BYTES // 2**20} MB")
            yield name, data


def extract(path: Path, into: Path) -> int:
    """Write the zip's files under ``into``, keeping their folders; the count written."""
    count = 0
    for name, data in members(path):
        target = into.joinpath(*name.parts)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        except OSError:
            continue  # a file and a folder of the same name: the first one stays
        count += 1
    return count
