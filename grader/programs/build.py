"""Turn a submission into something runnable: a Python syntax check, or javac in the sandbox.

Compiled classes are cached on disk per (source digest, build command), so a corpus or a
re-grade compiles every distinct Java file once. javac runs inside the sandbox and hands
the classes back as a base64 tar on stdout, which needs nothing from the program API
beyond ``run``.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from . import sandbox
from .spec import LanguageSpec


@dataclass(frozen=True)
class BuildError:
    message: str
    line: int | None = None

    def describe(self, main_file: str) -> str:
        where = f"{main_file}, line {self.line}: " if self.line else f"{main_file}: "
        return f"does not compile: {where}{self.message}"


@dataclass
class BuildResult:
    files: dict[str, bytes]
    argv: list[str]
    main_file: str
    errors: list[BuildError] = field(default_factory=list)
    output: str = ""


def python_syntax_error(name: str, source: bytes) -> BuildError | None:
    """A syntax error, found without running anything (compile() only parses)."""
    try:
        compile(source, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return BuildError(f"{type(exc).__name__}: {exc.msg}", exc.lineno)
    except ValueError as exc:  # e.g. null bytes
        return BuildError(str(exc))
    return None


def _public_class(source: str) -> str | None:
    match = re.search(r"^\s*public\s+(?:final\s+|abstract\s+)*class\s+(\w+)", source, re.M)
    return match.group(1) if match else None


def _main_class(source: str, fallback: str) -> str:
    """The class that declares main: the nearest class declaration before it."""
    position = source.find("static void main")
    classes = [(m.start(), m.group(1)) for m in re.finditer(r"\bclass\s+(\w+)", source)]
    before = [name for start, name in classes if start < position] if position >= 0 else []
    return before[-1] if before else fallback


def _cache_dir() -> Path:
    root = os.environ.get("GRADER_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "grader")
    return Path(root) / "javac"


def _parse_javac(output: str, file_name: str) -> list[BuildError]:
    errors = [BuildError(m.group(2).strip(), int(m.group(1)))
              for m in re.finditer(re.escape(file_name) + r":(\d+): error: (.*)", output)]
    return errors or [BuildError(output.strip().splitlines()[-1] if output.strip() else "javac failed")]


def compile_java(language: LanguageSpec, main_file: str, files: Mapping[str, bytes], *, timeout: float,
                 limits: sandbox.Limits, profile: Any = None) -> BuildResult:
    """javac in the sandbox (cached per source digest); the run argv for the main class."""
    source = files[main_file].decode("utf-8", "replace")
    # javac insists that a public class lives in <Class>.java: accept any file name.
    public = _public_class(source)
    file_name = f"{public}.java" if public else Path(main_file).name
    main_class = _main_class(source, Path(file_name).stem)
    build = [part.replace("{main}", file_name) for part in language.build] or ["javac", "-encoding", "UTF-8", file_name]
    key = hashlib.sha256(files[main_file] + b"\0" + "\0".join(build).encode()).hexdigest()
    cached = _cache_dir() / f"{key}.tar"
    failed = _cache_dir() / f"{key}.err"
    run_argv = [part.replace("{class}", main_class).replace("{main}", file_name) for part in language.run]
    if failed.exists():
        output = failed.read_text()
        return BuildResult({}, run_argv, file_name, _parse_javac(output, file_name), output)
    if not cached.exists():
        script = 'mkdir -p classes && "$@" -d classes 1>&2 && tar -C classes -cf - . | base64 -w0'
        result = sandbox.run(["/bin/sh", "-c", script, "sh", *build], {file_name: files[main_file]}, "",
                             limits=limits, timeout=timeout, binds=sandbox.binds_for("java"), profile=profile)
        cached.parent.mkdir(parents=True, exist_ok=True)
        if result.exit_code != 0 or result.timed_out:
            output = result.stderr or result.killed_reason or "javac failed"
            failed.write_text(output)
            return BuildResult({}, run_argv, file_name, _parse_javac(output, file_name), output)
        cached.write_bytes(base64.b64decode(result.stdout))
    classes: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(cached.read_bytes())) as archive:
        for member in archive.getmembers():
            if member.isfile():
                data = archive.extractfile(member)
                if data is not None:
                    classes[os.path.normpath(member.name)] = data.read()
    return BuildResult(classes, run_argv, file_name)
