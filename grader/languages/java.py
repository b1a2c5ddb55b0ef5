"""Java: compiled by ``javac`` inside the sandbox (cached per sources), run on the JVM as a program.

Students save files in whatever their editor uses (UTF-8 with or without a BOM, Windows-1252,
Greek ISO-8859-7): every source is decoded once and handed to javac as UTF-8. A submission may be
several files (helper classes, packages); the course's libraries (e.g. Princeton's ``StdIn``/``StdOut``)
come from the spec, and a class missing from both is named.

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
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Collection, Mapping, Sequence

from . import java_seed
from .base import Build, BuildError, Language, Uncaught, decode_legacy, fill

if TYPE_CHECKING:
    from grader.run.model import IsolationProfile, Limits
    from grader.static.style import Source


_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)
_TYPE = re.compile(r"\b(?:class|interface|enum|record)\s+(\w+)")
_PUBLIC_TYPE = re.compile(r"^\s*public\s+(?:final\s+|abstract\s+)*(?:class|interface|enum|record)\s+(\w+)", re.M)
_COMPILE_ERROR = re.compile(r"^(?:\S+\.java:\d+: )?error: ", re.M)
_MAIN = re.compile(r"\bstatic\s+(?:final\s+)?(?:public\s+)?void\s+main\s*\(")


def _code(text: str) -> str:
    """Comments and string literals blanked out, so that a word in them is never taken for code."""
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)


def _layout(name: str, text: str) -> tuple[str, str | None]:
    """Where javac wants the file (package folders, <PublicClass>.java) and its package."""
    code = _code(text)
    package = _PACKAGE.search(code)
    public = _PUBLIC_TYPE.search(code)
    file_name = f"{public.group(1)}.java" if public else PurePosixPath(name).name
    folder = package.group(1).replace(".", "/") + "/" if package else ""
    return folder + file_name, package.group(1) if package else None


def _main_class(text: str, package: str | None, fallback: str) -> str:
    """The class that declares ``main``: the nearest type declaration before it."""
    code = _code(text)
    marker = _MAIN.search(code)
    position = marker.start() if marker else -1
    before = [m.group(1) for m in _TYPE.finditer(code) if m.start() < position]
    name = before[-1] if before else fallback
    return f"{package}.{name}" if package else name


def _cache_dir() -> Path:
    root = os.environ.get("GRADER_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "grader")
    return Path(root) / "javac"


def parse_javac(output: str, sources: Mapping[str, str], libraries: Sequence[Path] = ()) -> list[BuildError]:
    """javac's errors in the student's terms (their file names); a missing class is named as a missing library."""
    back = {PurePosixPath(_layout(n, text)[0]).name: n for n, text in sources.items()}
    declared = {m.group(1) for text in sources.values() for m in _TYPE.finditer(_code(text))}
    declared |= {lib.stem for lib in libraries}
    errors: list[BuildError] = []
    missing: list[str] = []
    for match in re.finditer(r"^(\S+?\.java):(\d+): error: (.*)$", output, re.M):
        file = back.get(PurePosixPath(match.group(1)).name, PurePosixPath(match.group(1)).name)
        errors.append(BuildError(match.group(3).strip(), int(match.group(2)), file))
    for symbol in re.findall(r"symbol:\s+variable\s+([A-Z]\w*)", output):
        if symbol not in declared and symbol not in missing:
            missing.append(symbol)
    notes = [BuildError(f"{name} is not part of the submission or the course libraries") for name in missing]
    if notes:
        return notes + errors
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
    default_build = ("javac", "-encoding", "UTF-8", "-cp", "{classpath}")
    entry_point = re.compile(rb"\bstatic\s+(?:final\s+)?(?:public\s+)?void\s+main\s*\(")
    legacy_encodings = True
    speed_ratios = (10.0, 60.0)  # the JVM's start-up and JIT against a Python reference
    default_run = ("java", "-cp", "{classpath}", "{class}")

    def binds(self) -> tuple[str, ...]:
        return (jdk_home(),) if jdk_home() else ()

    def find_main(self, files: Mapping[str, bytes], expected: Sequence[str] = ()) -> str | None:
        """An expected name, else the one file whose code (not a comment) declares ``main``."""
        own = sorted(name for name in files if self.owns(name))
        named = [name for name in expected if name in own]
        if named or len(own) == 1:
            return (named or own)[0]
        starts = [name for name in own if _MAIN.search(_code(decode_legacy(files[name])[0]))]
        return starts[0] if starts else None

    def build(self, files: Mapping[str, bytes], main: str, *, command: Sequence[str] = (), run: Sequence[str] = (),
              limits: "Limits | None" = None, profile: "IsolationProfile | None" = None, timeout: float = 60.0,
              libraries: Sequence[Path] = ()) -> Build:
        """Every source decoded (legacy code pages too) and laid out where javac wants it, compiled with the course's
        libraries (sources, or jars on the classpath) in the sandbox, cached per sources and command; the classes'
        unseeded randomness is sent to ``graderseed.SeededRandom`` (see java_seed). The run argv names the main class."""
        sources, encodings = self.own_sources(files)
        laid_out: dict[str, bytes] = {}
        main_class = ""
        for name, text in sources.items():
            path, package = _layout(name, text)
            laid_out[path] = text.encode("utf-8")
            if name == main:
                main_class = _main_class(text, package, PurePosixPath(path).stem)
        student = {PurePosixPath(p).name for p in laid_out}
        jars = [f"lib/{lib.name}" for lib in libraries if lib.suffix == ".jar"]
        compile_files = {**{lib.name: lib.read_bytes() for lib in libraries if lib.suffix != ".jar" and lib.name not in student},
                         **{f"lib/{lib.name}": lib.read_bytes() for lib in libraries if lib.suffix == ".jar"},
                         **{path: source.read_bytes() for path, source in java_seed.SOURCES.items()}, **laid_out}
        values = {"main": PurePosixPath(_layout(main, sources[main])[0]).name, "class": main_class}
        argv = fill(run or self.default_run, classpath=":".join(["classes", *jars]), **values)
        result = Build({}, argv, main, sources=sources, encodings=encodings)
        command = fill(command or self.default_build, classpath=":".join(jars) or ".", **values)
        outcome = self._javac(command, compile_files, limits=limits, profile=profile, timeout=timeout)
        if isinstance(outcome, str):
            result.output = outcome
            result.errors = parse_javac(outcome, sources, libraries)
            return result
        result.files = {**{f"classes/{n}": java_seed.seed_class(d) for n, d in outcome.items()},
                        **{j: compile_files[j] for j in jars}}
        return result

    def _javac(self, command: list[str], files: Mapping[str, bytes], *, limits: "Limits | None",
               profile: "IsolationProfile | None", timeout: float) -> dict[str, bytes] | str:
        """The compiled classes, or javac's error output; cached on disk per sources and command."""
        from grader.run.model import Limits as _Limits
        from grader.run.process import run as run_in_sandbox

        digest = hashlib.sha256("\0".join(command).encode())
        for name in sorted(files):
            digest.update(name.encode() + b"\0" + files[name] + b"\0")
        cached, failed = _cache_dir() / f"{digest.hexdigest()}.tar", _cache_dir() / f"{digest.hexdigest()}.err"
        if failed.exists():
            return failed.read_text()
        if not cached.exists():
            script = 'mkdir -p classes && "$@" -d classes 1>&2 && tar -C classes -cf - . | base64 -w0'
            sources = [n for n in sorted(files) if n.endswith(".java")]
            result = run_in_sandbox(["/bin/sh", "-c", script, "sh", *command, *sources], files, "",
                                    limits=limits or _Limits(), timeout=timeout, binds=self.binds(), profile=profile)
            cached.parent.mkdir(parents=True, exist_ok=True)
            if result.exit_code != 0 or result.timed_out:
                output = result.stderr or result.killed_reason or "javac failed"
                if _COMPILE_ERROR.search(output) and not result.timed_out and not result.killed_reason:
                    failed.write_text(output)   # the sources' fault, for good; never a JVM that ran out of room
                return output
            cached.write_bytes(base64.b64decode(result.stdout))
        return _untar(cached.read_bytes())

    def uncaught(self, stderr: str, sources: Collection[str]) -> Uncaught:
        """A stack trace: its first frame in the student's files, and the "Exception in thread" line's exception."""
        frames = [m for m in re.finditer(r"\((\w+\.java):(\d+)\)", stderr) if m.group(1) in sources]
        lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
        thrown = next((line.split(" ", 4)[-1] for line in lines if line.startswith("Exception in thread")), "")
        return Uncaught(bool(thrown), int(frames[0].group(2)) if frames else None,
                        thrown[:300] or super().uncaught(stderr, sources).exception)

    def style_source(self, text: str) -> "Source":
        from grader.static.style import _java_source

        return _java_source(text)


JAVA = Java()
