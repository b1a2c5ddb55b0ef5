"""Python: loaded by the sandbox's own harness, which serves calls; run as ``python3 -u`` as a program.

A program runs under a small launcher (``python_seed.py``, shipped into its scratch folder) that
seeds ``random`` from the case's ``GRADER_SEED``, so a program that deals its own cards deals the
same ones on every grading.
"""
from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path
from typing import TYPE_CHECKING, Collection, ContextManager, Mapping, Sequence

from .base import LEGACY_ENCODINGS, Build, BuildError, FunctionSession, Language, Uncaught, decode_legacy, fill

if TYPE_CHECKING:
    from grader.run.model import IsolationProfile, Limits
    from grader.run.sandbox import Sandbox
    from grader.spec.model import BanPolicy
    from grader.static.bans import Finding
    from grader.static.style import Source


#: The launcher's name in the program's scratch folder (``{seed_launcher}`` in a run command).
SEED_LAUNCHER = "_grader_seed.py"
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")


def syntax_error(name: str, source: bytes | str) -> BuildError | None:
    """A syntax error, found without running anything (compile() only parses)."""
    try:
        compile(source, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return BuildError(f"{type(exc).__name__}: {exc.msg}", exc.lineno, name)
    except ValueError as exc:  # e.g. null bytes
        return BuildError(str(exc), None, name)
    return None


def _read(data: bytes) -> tuple[str, str | None, bool]:
    """(text, encoding, declared) as Python reads a source file: in the encoding its coding
    declaration names (PEP 263), else UTF-8. A file that is neither (an editor saved it in the
    Windows code page) is read in the legacy code page it was most likely saved in, where Python
    itself would refuse it (encoding None: not text in any of them)."""
    try:
        declared, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(declared), declared, declared not in ("utf-8", "utf-8-sig")
    except (SyntaxError, LookupError, UnicodeDecodeError):
        text, page = decode_legacy(data)
        return text, page, False


def _as_utf8(text: str, encoding: str | None, data: bytes) -> bytes:
    """The file as the sandbox's Python loads it: UTF-8 as handed in, else re-encoded."""
    return data if encoding in ("utf-8", "utf-8-sig") else _strip_cookie(text).encode("utf-8")


def _strip_cookie(text: str) -> str:
    """A coding cookie names the old encoding; the file is passed on as UTF-8."""
    lines = text.split("\n")
    for i in range(min(2, len(lines))):
        if _COOKIE.match(lines[i]):
            lines[i] = "# (encoding declaration removed by the grader: the file is passed on as UTF-8)"
    return "\n".join(lines)


class Python(Language):
    name = "python"
    title = "Python"
    suffixes = (".py",)
    serves_functions = True
    runtime_bans = True
    default_run = ("python3", "-u", "{seed_launcher}", "{main}")
    entry_point = re.compile(rb"__name__\s*==\s*['\"]__main__['\"]")
    legacy_encodings = True

    def text_of(self, data: bytes) -> tuple[str, str | None]:
        text, encoding, _ = _read(data)
        return text, encoding

    def encoding_note(self, name: str, data: bytes) -> str | None:
        """A file Python would refuse as it is, graded as read in its code page: the student is told."""
        _, encoding, declared = _read(data)
        if declared or encoding is None or encoding in ("utf-8", "utf-8-sig"):
            return None
        page = LEGACY_ENCODINGS.get(encoding, encoding)
        return (f"{name} is saved in {page}, not UTF-8, and has no encoding declaration: it was graded as "
                f"{page} text, but Python itself refuses the file as it is (save it as UTF-8)")

    def loadable(self, files: Mapping[str, bytes]) -> dict[str, bytes]:
        """The files as the sandbox's Python loads them: a source file in another encoding than
        UTF-8 (declared, or a legacy code page) re-encoded as UTF-8, its declaration removed."""
        out = dict(files)
        for name, data in files.items():
            if self.owns(name):
                text, encoding, _ = _read(data)
                out[name] = _as_utf8(text, encoding, data)
        return out

    def build(self, files: Mapping[str, bytes], main: str, *, command: Sequence[str] = (), run: Sequence[str] = (),
              limits: "Limits | None" = None, profile: "IsolationProfile | None" = None, timeout: float = 60.0,
              libraries: Sequence[Path] = ()) -> Build:
        """Nothing to compile: every file decoded (legacy code pages too) and passed on as UTF-8, with the
        course's libraries and the seeding launcher; a syntax check, so a broken file is reported with its
        line before it runs."""
        sources, encodings = self.own_sources(files)
        runnable = {name: data for name, data in self.loadable(files).items() if name in sources}
        for library in libraries:
            runnable.setdefault(library.name, library.read_bytes())
        runnable[SEED_LAUNCHER] = (Path(__file__).parent / "python_seed.py").read_bytes()
        errors = [e for e in (syntax_error(name, text) for name, text in sources.items()) if e]
        return Build(files=runnable, argv=fill(run or self.default_run, main=main, seed_launcher=SEED_LAUNCHER),
                     main_file=main, errors=errors, sources=sources, encodings=encodings)

    def uncaught(self, stderr: str, sources: Collection[str]) -> Uncaught:
        """A traceback: the innermost frame in the student's files, and its last line (the exception)."""
        line = None
        for match in re.finditer(r'File "([^"]+)", line (\d+)', stderr):
            if match.group(1).split("/")[-1] in sources:
                line = int(match.group(2))
        last = super().uncaught(stderr, sources).exception
        return Uncaught("Traceback (most recent call last)" in stderr, line, last)

    def open_session(self, sandbox: "Sandbox", files: Mapping[str, bytes], main: str,
                     watch: Sequence[str] = (), load_time_limit: float | None = None) -> ContextManager[FunctionSession]:
        if load_time_limit is None:
            return sandbox.session(self.loadable(files), main, watch=watch)
        return sandbox.session(self.loadable(files), main, watch=watch, load_time_limit=load_time_limit)

    def ban_findings(self, source: str, filename: str, policy: "BanPolicy", graded: Mapping[str, Sequence[str]],
                     *, files: Mapping[str, bytes] | None = None) -> "list[Finding]":
        from grader.static.cache import cached_findings

        return cached_findings(source, filename, policy, dict(graded))

    def style_source(self, text: str) -> "Source":
        from grader.static.style import _python_source

        return _python_source(text)


PYTHON = Python()
