"""A wheel of the running grader, so a student bundle installs with one ``pip install``.

Built from the installed package itself (no build tools, no network): the package's files,
its dependencies read from ``pyproject.toml`` beside it (or from the installed metadata),
and the ``grader`` command and pytest plugin as entry points. Reproducible: fixed dates,
sorted members.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import zipfile
from pathlib import Path

import grader

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    tomllib = None  # type: ignore[assignment]

_DATE = (2020, 1, 1, 0, 0, 0)
_ENTRY_POINTS = "[console_scripts]\ngrader = grader.cli:main\n\n[pytest11]\ngrader = grader.pytest_plugin\n"


def _project() -> tuple[str, list[str]]:
    """(version, dependencies) of the running grader."""
    pyproject = Path(grader.__file__).resolve().parent.parent / "pyproject.toml"
    if tomllib is not None and pyproject.is_file():
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == "grader":
            return str(project.get("version", "0.0.0")), list(project.get("dependencies", []))
    try:
        requires = [r for r in (importlib.metadata.requires("grader") or []) if "extra ==" not in r]
        return importlib.metadata.version("grader"), requires
    except importlib.metadata.PackageNotFoundError:
        return "0.0.0", ["PyYAML>=6.0", "jsonschema>=4.18", "rich>=13.0"]


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(out_dir: Path) -> Path:
    """Write ``grader-<version>-py3-none-any.whl`` into ``out_dir``; its path."""
    version, requires = _project()
    package = Path(grader.__file__).resolve().parent
    info = f"grader-{version}.dist-info"
    members: list[tuple[str, bytes]] = []
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo"):
            members.append(("grader/" + path.relative_to(package).as_posix(), path.read_bytes()))
    metadata = "".join([f"Metadata-Version: 2.1\nName: grader\nVersion: {version}\nRequires-Python: >=3.10\n",
                        *(f"Requires-Dist: {r}\n" for r in requires)])
    members += [(f"{info}/METADATA", metadata.encode()),
                (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: grader export-student\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
                (f"{info}/entry_points.txt", _ENTRY_POINTS.encode())]
    record = "\n".join([*(_record_line(n, d) for n, d in members), f"{info}/RECORD,,"]) + "\n"
    members.append((f"{info}/RECORD", record.encode()))
    out = Path(out_dir) / f"grader-{version}-py3-none-any.whl"
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            entry = zipfile.ZipInfo(name, date_time=_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            zf.writestr(entry, data)
    return out
