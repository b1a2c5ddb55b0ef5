"""The course's toolchain: read sources in their real encoding, find the main program, build it.

Students save files in whatever their editor uses: UTF-8 with or without a BOM, Windows-1252
(curly quotes in comments), Greek ISO-8859-7 / Windows-1253. Every source is decoded once here
(charset-normalizer among the course's code pages) and handed to the compiler as UTF-8, so the
text the student wrote is the text javac compiles and the feedback shows. A submission may be
several files (helper classes); the course's own libraries (e.g. Princeton's ``StdIn``/``StdOut``)
come from the spec. javac runs in the sandbox, cached per sources and command.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Mapping

from grader.languages.base import decode_legacy

from . import sandbox
from .spec import LanguageSpec

#: Legacy code pages the course's students use, tried when a file is not UTF-8.
LEGACY_ENCODINGS = ["cp1252", "iso8859_7", "cp1253", "iso8859_15"]
SUFFIXES = {".py": "python", ".java": "java"}
SEED_LAUNCHER = "_grader_seed.py"


decode_source = decode_legacy  # decoding is each language's business (grader.languages.base)


@dataclass(frozen=True)
class BuildError:
    message: str
    line: int | None = None
    file: str = ""

    def describe(self) -> str:
        where = f"{self.file}, line {self.line}: " if self.line else (f"{self.file}: " if self.file else "")
        return f"does not compile: {where}{self.message}"


@dataclass
class Build:
    """A runnable program: files for the sandbox, the command, and what the grader found on the way."""

    language: str
    main_file: str
    files: dict[str, bytes]
    argv: list[str]
    sources: dict[str, str] = field(default_factory=dict)     # the student's files as text
    encodings: dict[str, str] = field(default_factory=dict)   # file -> encoding, for the files that are not UTF-8
    errors: list[BuildError] = field(default_factory=list)
    output: str = ""


def detect(files: Mapping[str, bytes], languages: Mapping[str, LanguageSpec]) -> tuple[str, str] | None:
    """(language, main file) of a submission: the file that declares the program's entry point."""
    for suffix, language in SUFFIXES.items():
        names = sorted(n for n in files if n.endswith(suffix))
        if not names or language not in languages:
            continue
        entry = _java_main_marker if language == "java" else _python_main_marker
        with_main = [n for n in names if entry.search(decode_source(files[n])[0])]
        return language, (with_main or names)[0]
    return None


_java_main_marker = re.compile(r"\bstatic\s+(?:final\s+)?(?:public\s+)?void\s+main\s*\(")
_python_main_marker = re.compile(r"__name__\s*==\s*['\"]__main__['\"]")


def _python_main(names: list[str], sources: Mapping[str, str]) -> str:
    marked = [n for n in names if _python_main_marker.search(sources[n])]
    return (marked or names)[0]


def _strip_cookie(text: str) -> str:
    """A coding cookie names the old encoding; the file is UTF-8 from now on."""
    lines = text.split("\n")
    for i in range(min(2, len(lines))):
        if re.match(r"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+", lines[i]):
            lines[i] = "# (encoding declaration removed by the grader: the file is passed on as UTF-8)"
    return "\n".join(lines)


def python_syntax_error(name: str, text: str) -> BuildError | None:
    """A syntax error, found without running anything (compile() only parses)."""
    try:
        compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return BuildError(f"{type(exc).__name__}: {exc.msg}", exc.lineno, name)
    except ValueError as exc:  # e.g. null bytes
        return BuildError(str(exc), None, name)
    return None


def _decoded(files: Mapping[str, bytes], suffix: str) -> tuple[dict[str, str], dict[str, str]]:
    sources: dict[str, str] = {}
    encodings: dict[str, str] = {}
    for name in sorted(files):
        if name.endswith(suffix):
            text, encoding = decode_source(files[name])
            sources[name] = text
            if encoding not in ("utf-8", "utf-8-sig"):
                encodings[name] = encoding
    return sources, encodings


def build(language: LanguageSpec, files: Mapping[str, bytes], *, timeout: float, limits: sandbox.Limits,
          profile: Any = None) -> Build:
    """Decode, check and compile a submission (with the course's libraries) for ``language``."""
    if language.name == "java":
        return _build_java(language, files, timeout=timeout, limits=limits, profile=profile)
    sources, encodings = _decoded(files, ".py")
    main = _python_main(sorted(sources), sources)
    runnable = {name: _strip_cookie(text).encode("utf-8") for name, text in sources.items()}
    for library in language.libraries:
        runnable.setdefault(library.name, library.read_bytes())
    runnable[SEED_LAUNCHER] = (Path(__file__).parent / "seed_random.py").read_bytes()
    errors = [e for e in (python_syntax_error(n, sources[n]) for n in sorted(sources)) if e]
    argv = _command(language.run, main, "", ".")
    return Build("python", main, runnable, argv, sources, encodings, errors)


# ----------------------------------------------------------------------------- Java

_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)
_TYPE = re.compile(r"\b(?:class|interface|enum|record)\s+(\w+)")
_PUBLIC_TYPE = re.compile(r"^\s*public\s+(?:final\s+|abstract\s+)*(?:class|interface|enum|record)\s+(\w+)", re.M)


def _java_code(text: str) -> str:
    """Comments and string literals blanked out, so that a word in them is never taken for code."""
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)


def _java_layout(name: str, text: str) -> tuple[str, str | None]:
    """Where javac wants the file (package folders, <PublicClass>.java) and its package."""
    code = _java_code(text)
    package = _PACKAGE.search(code)
    public = _PUBLIC_TYPE.search(code)
    file_name = f"{public.group(1)}.java" if public else PurePosixPath(name).name
    folder = package.group(1).replace(".", "/") + "/" if package else ""
    return folder + file_name, package.group(1) if package else None


def _java_main_class(text: str, package: str | None, fallback: str) -> str:
    """The class that declares ``main``: the nearest type declaration before it."""
    code = _java_code(text)
    marker = _java_main_marker.search(code)
    position = marker.start() if marker else -1
    before = [m.group(1) for m in _TYPE.finditer(code) if m.start() < position]
    name = before[-1] if before else fallback
    return f"{package}.{name}" if package else name


def _cache_dir() -> Path:
    root = os.environ.get("GRADER_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "grader")
    return Path(root) / "javac"


def _library_files(language: LanguageSpec, student: set[str]) -> tuple[dict[str, bytes], list[str]]:
    """Course library sources (unless the student handed in the same class) and jars."""
    files: dict[str, bytes] = {}
    jars: list[str] = []
    for library in language.libraries:
        if library.suffix == ".jar":
            files[f"lib/{library.name}"] = library.read_bytes()
            jars.append(f"lib/{library.name}")
        elif library.name not in student:
            files[library.name] = library.read_bytes()
    return files, jars


def _build_java(language: LanguageSpec, files: Mapping[str, bytes], *, timeout: float, limits: sandbox.Limits,
                profile: Any) -> Build:
    sources, encodings = _decoded(files, ".java")
    laid_out: dict[str, bytes] = {}
    main_name, main_class = "", ""
    for name, text in sources.items():
        path, package = _java_layout(name, text)
        laid_out[path] = text.encode("utf-8")
        if not main_name and _java_main_marker.search(_java_code(text)):
            main_name, main_class = name, _java_main_class(text, package, PurePosixPath(path).stem)
    if not main_name:
        main_name = sorted(sources)[0]
        main_class = PurePosixPath(_java_layout(main_name, sources[main_name])[0]).stem
    libraries, jars = _library_files(language, {PurePosixPath(p).name for p in laid_out})
    classpath = ":".join(["classes", *jars])
    compile_files = {**libraries, **laid_out}
    argv = _command(language.run, main_name, main_class, classpath)
    result = Build("java", main_name, {}, argv, sources, encodings)
    command = _command(language.build or ("javac", "-encoding", "UTF-8"), main_name, main_class, ":".join(jars) or ".")
    outcome = _javac(command, compile_files, timeout=timeout, limits=limits, profile=profile)
    if isinstance(outcome, str):
        result.output = outcome
        result.errors = parse_javac(outcome, sources, laid_out, language)
        return result
    result.files = {**{f"classes/{n}": d for n, d in outcome.items()}, **{j: libraries[j] for j in jars}}
    return result


def _javac(command: list[str], files: Mapping[str, bytes], *, timeout: float, limits: sandbox.Limits,
           profile: Any) -> dict[str, bytes] | str:
    """The compiled classes, or javac's error output; cached per sources and command."""
    digest = hashlib.sha256("\0".join(command).encode())
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    key = digest.hexdigest()
    cached, failed = _cache_dir() / f"{key}.tar", _cache_dir() / f"{key}.err"
    if failed.exists():
        return failed.read_text()
    if not cached.exists():
        sources = [n for n in sorted(files) if n.endswith(".java")]
        script = 'mkdir -p classes && "$@" -d classes 1>&2 && tar -C classes -cf - . | base64 -w0'
        run = sandbox.run(["/bin/sh", "-c", script, "sh", *command, *sources], files, "", limits=limits,
                          timeout=timeout, binds=sandbox.binds_for("java"), profile=profile)
        cached.parent.mkdir(parents=True, exist_ok=True)
        if run.exit_code != 0 or run.timed_out:
            output = run.stderr or run.killed_reason or "javac failed"
            failed.write_text(output)
            return output
        cached.write_bytes(base64.b64decode(run.stdout))
    classes: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(cached.read_bytes())) as archive:
        for member in archive.getmembers():
            data = archive.extractfile(member) if member.isfile() else None
            if data is not None:
                classes[os.path.normpath(member.name)] = data.read()
    return classes


def parse_javac(output: str, sources: Mapping[str, str], laid_out: Mapping[str, bytes],
                language: LanguageSpec) -> list[BuildError]:
    """javac's errors in the student's terms; a missing class is named as a missing library."""
    back = {PurePosixPath(path).name: name for name, path in
            ((n, _java_layout(n, sources[n])[0]) for n in sources)}
    declared = {m.group(1) for text in sources.values() for m in _TYPE.finditer(_java_code(text))}
    declared |= {lib.stem for lib in language.libraries}
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


def _command(template: tuple[str, ...] | list[str], main: str, main_class: str, classpath: str) -> list[str]:
    return [part.replace("{main}", main).replace("{class}", main_class).replace("{classpath}", classpath)
            .replace("{seed_launcher}", SEED_LAUNCHER) for part in template]
