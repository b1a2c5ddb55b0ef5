"""Java: compiled by ``javac`` inside the sandbox (cached per source), run on the JVM as a program.

javac runs in the sandbox like the student's code and hands the classes back as a base64
tar on stdout, so a build needs nothing from the sandbox beyond ``run``. Compiled classes
are cached on disk per (source digest, build command): a corpus or a regrade compiles
every distinct file once.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import shutil
import tarfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from .base import Build, BuildError, Language, fill

if TYPE_CHECKING:
    from grader.run.model import IsolationProfile, Limits
    from grader.static.style import Source


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


def parse_javac(output: str, file_name: str) -> list[BuildError]:
    """javac's errors as (message, line) pairs; its last line when none has a line."""
    errors = [BuildError(m.group(2).strip(), int(m.group(1)))
              for m in re.finditer(re.escape(file_name) + r":(\d+): error: (.*)", output)]
    return errors or [BuildError(output.strip().splitlines()[-1] if output.strip() else "javac failed")]


@lru_cache(maxsize=1)
def jdk_home() -> str:
    """The JDK's folder, from the javac on PATH (bound read-only into the sandbox)."""
    javac = shutil.which("javac")
    return str(Path(os.path.realpath(javac)).parent.parent) if javac else ""


def _untar(data: bytes) -> dict[str, bytes]:
    classes: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        for member in archive.getmembers():
            if member.isfile():
                handle = archive.extractfile(member)
                if handle is not None:
                    classes[os.path.normpath(member.name)] = handle.read()
    return classes


class Java(Language):
    name = "java"
    title = "Java"
    suffixes = (".java",)
    default_build = ("javac", "-encoding", "UTF-8", "{main}")
    entry_point = re.compile(rb"\bstatic\s+(?:final\s+)?(?:public\s+)?void\s+main\s*\(")
    legacy_encodings = True
    speed_ratios = (10.0, 60.0)  # the JVM's start-up and JIT against a Python reference
    default_run = ("java", "-cp", ".", "{class}")

    def binds(self) -> tuple[str, ...]:
        return (jdk_home(),) if jdk_home() else ()

    def build(self, files: Mapping[str, bytes], main: str, *, command: Sequence[str] = (), run: Sequence[str] = (),
              limits: "Limits | None" = None, profile: "IsolationProfile | None" = None, timeout: float = 60.0) -> Build:
        """javac in the sandbox (cached per source digest); the run argv names the main class."""
        from grader.run.model import Limits as _Limits
        from grader.run.process import run as run_in_sandbox

        source = files[main].decode("utf-8", "replace")
        # javac insists that a public class lives in <Class>.java: accept any file name.
        public = _public_class(source)
        file_name = f"{public}.java" if public else Path(main).name
        main_class = _main_class(source, Path(file_name).stem)
        build = fill(command or self.default_build, main=file_name)
        argv = fill(run or self.default_run, main=file_name, **{"class": main_class})
        key = hashlib.sha256(files[main] + b"\0" + "\0".join(build).encode()).hexdigest()
        cached, failed = _cache_dir() / f"{key}.tar", _cache_dir() / f"{key}.err"
        if failed.exists():
            output = failed.read_text()
            return Build({}, argv, file_name, parse_javac(output, file_name), output)
        if not cached.exists():
            script = 'mkdir -p classes && "$@" -d classes 1>&2 && tar -C classes -cf - . | base64 -w0'
            result = run_in_sandbox(["/bin/sh", "-c", script, "sh", *build], {file_name: files[main]}, "",
                                    limits=limits or _Limits(), timeout=timeout, binds=self.binds(), profile=profile)
            cached.parent.mkdir(parents=True, exist_ok=True)
            if result.exit_code != 0 or result.timed_out:
                output = result.stderr or result.killed_reason or "javac failed"
                failed.write_text(output)
                return Build({}, argv, file_name, parse_javac(output, file_name), output)
            cached.write_bytes(base64.b64decode(result.stdout))
        return Build(_untar(cached.read_bytes()), argv, file_name)

    def style_source(self, text: str) -> "Source":
        from grader.static.style import _java_source

        return _java_source(text)


JAVA = Java()
