"""The one interface every language a submission may be written in implements.

A language answers six questions, as check50's ``c.py`` and ``py.py`` do on one ``run``
chain: which files are its own, how they decode, how a submission is built, how a child
is started that loads it and serves calls (function assignments) or runs it as a program,
and how bans and style are analysed. Nothing outside ``grader/languages/`` asks which
language a submission is written in; it asks the submission's :class:`Language`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Collection, ContextManager, Mapping, Protocol, Sequence

if TYPE_CHECKING:
    from grader.judge.verdict import ErrorKind
    from grader.run.model import CallResult, IsolationProfile, Limits, LoadResult
    from grader.run.process import Program
    from grader.run.sandbox import Sandbox
    from grader.spec.model import BanPolicy
    from grader.static.bans import Finding
    from grader.static.style import Source


#: Code pages a legacy source file may be saved in (Windows Western, Greek, ISO Latin-9), as students know them.
LEGACY_ENCODINGS = {"cp1252": "Windows-1252", "iso8859_7": "ISO-8859-7", "cp1253": "Windows-1253",
                    "iso8859_15": "ISO-8859-15"}


def decode_legacy(data: bytes) -> tuple[str, str | None]:
    """(text, encoding): UTF-8 (a BOM is dropped), else the best legacy code page; encoding None
    when no code page reads the bytes as text (a binary file), the text then Windows-1252's."""
    import charset_normalizer

    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", "replace"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    best = charset_normalizer.from_bytes(data, cp_isolation=list(LEGACY_ENCODINGS)).best()
    if best is None:    # too short to tell a code page (or not text at all): Windows-1252 unless binary
        return data.decode("cp1252", "replace"), None if _looks_binary(data) else "cp1252"
    encoding = best.encoding
    text = data.decode(encoding, "replace")
    if encoding == "cp1253" and data.decode("iso8859_7", "replace") == text:
        encoding = "iso8859_7"   # identical for this text: name the common Linux Greek code page
    return text, encoding


_CONTROL_BYTES = bytes(b for b in range(32) if b not in b"\t\n\v\f\r")


def _looks_binary(data: bytes) -> bool:
    """Control bytes no editor writes into source text, more than a stray one or two: in random
    bytes (a compiled file, an image) one in ten is one."""
    controls = len(data) - len(data.translate(None, _CONTROL_BYTES))
    return controls >= 3 and controls * 100 >= len(data)


class DecodeProblem(ValueError):
    """A file that cannot be read as source text; ``kind`` is one of the submission error kinds."""

    def __init__(self, kind: "ErrorKind", message: str):
        super().__init__(message)
        self.kind = kind
        self.message = message


class NotSupported(NotImplementedError):
    """The language cannot do what was asked (e.g. serve function calls); the message says so."""


@dataclass(frozen=True)
class BuildError:
    message: str
    line: int | None = None
    file: str = ""      # the student's file it is in, when not the main file ("": none, or the main file)

    def describe(self, main_file: str = "") -> str:
        file = self.file or main_file
        where = f"{file}, line {self.line}: " if self.line and file else (f"{file}: " if file else "")
        return f"does not compile: {where}{self.message}"


@dataclass
class Build:
    """What a build hands the runner: the files of the scratch folder and the command that runs them."""

    files: dict[str, bytes]
    argv: list[str]
    main_file: str
    errors: list[BuildError] = field(default_factory=list)
    output: str = ""
    #: The student's files as the text they wrote (decoded once; what style checks and feedback read).
    sources: dict[str, str] = field(default_factory=dict)
    #: File -> code page, for the files that were not UTF-8 (shown in the feedback).
    encodings: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Uncaught:
    """A program's error output read by its language (see :meth:`Language.uncaught`)."""

    raised: bool            # an uncaught exception ended the program
    line: int | None        # the line of the student's file it points at
    exception: str          # the exception and its message (else the last line of the output)


class FunctionSession(Protocol):
    """A child that has loaded one submission and serves calls to its functions (see grader.run.session)."""

    @property
    def load(self) -> "LoadResult": ...

    def call_many(self, function: str, calls: Sequence[tuple[Sequence[Any], float]], *,
                  watch: bool | Sequence[bool] = False) -> "list[CallResult]":
        """One result per (args, time limit); a language with ``wants_expected`` also takes ``expected=[...]``."""
        ...


def fill(template: Sequence[str], **values: str) -> list[str]:
    """A command template with ``{main}``, ``{class}``... filled in."""
    out = []
    for part in template:
        for key, value in values.items():
            part = part.replace("{" + key + "}", value)
        out.append(part)
    return out


class Language:
    """Base class of a language: subclass it and override what differs from plain text source files."""

    name: str = ""
    title: str = ""
    suffixes: tuple[str, ...] = ()
    #: The child can load a submission and serve calls to its functions.
    serves_functions: bool = False
    #: The child can confirm bans at run time (a monitor inside the sandbox).
    runtime_bans: bool = False
    #: ``call_many`` also takes ``expected=[...]``, the reference's answers (parent side only: the
    #: session uses their shape, e.g. how many outputs to ask for; they never reach the child).
    wants_expected: bool = False
    #: What marks the file that starts a program (several files, none with an expected name).
    entry_point: re.Pattern[bytes] | None = None
    #: Old course files arrive in legacy code pages (Windows-1252, ISO-8859-7): decode them rather than refuse.
    legacy_encodings: bool = False
    #: A submission is a folder of this language's files, never one file each (MATLAB: war.m, goFish.m, ...).
    folder_submissions: bool = False
    #: A program's time against the reference's: full speed points up to the first ratio, none from the second.
    speed_ratios: tuple[float, float] = (3.0, 30.0)
    #: How a program of this language is run when the spec gives no ``run:`` command.
    default_run: tuple[str, ...] = ()
    #: How it is built when the spec gives no ``build:`` command (empty: nothing to build).
    default_build: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"<language {self.name}>"

    def __reduce__(self) -> Any:
        # Languages are registry entries: they travel (to Dask workers) by name.
        from grader.languages.registry import get_language

        return (get_language, (self.name,))

    # ---------------------------------------------------------------- files
    def owns(self, filename: str) -> bool:
        """Whether a file of this name is a source file of this language."""
        return PurePath(filename).suffix in self.suffixes and not PurePath(filename).name.startswith(".")

    def find_main(self, files: Mapping[str, bytes], expected: Sequence[str] = ()) -> str | None:
        """The file to load or run among a submission's files: an expected name, else its only file.

        None when it cannot tell (several files, none with an expected name).
        """
        own = sorted(name for name in files if self.owns(name))
        named = [name for name in expected if name in own]
        if named:
            return named[0]
        if len(own) == 1:
            return own[0]
        # A program with its helper files: the one file that starts it.
        starts = [name for name in own if self.entry_point is not None and self.entry_point.search(files[name])]
        return starts[0] if len(starts) == 1 else None

    def text_of(self, data: bytes) -> tuple[str, str | None]:
        """(text, encoding) of a source file's bytes, as this language's own tools would read
        them: UTF-8, else the legacy code page it was most likely saved in (None: not text)."""
        return decode_legacy(data)

    def policy_name(self, banned: str, names: Sequence[str]) -> str | None:
        """Which of a ban policy's ``names`` a run-time hit on ``banned`` counts as (None: none).
        The child reports a hit in its own terms; Python's are the policy's names themselves."""
        return banned if banned in names else None

    def encoding_note(self, name: str, data: bytes) -> str | None:
        """What the student is told about how a readable file was read (None: nothing to say)."""
        return None

    def decode(self, name: str, data: bytes) -> str:
        """The file as text, or :class:`DecodeProblem` saying in the student's terms why not."""
        if not data.strip():
            raise DecodeProblem("empty", f"{name} is empty")
        if b"\0" in data:
            raise DecodeProblem("binary", f"{name} is a binary file, not source code")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            readable = self.text_of(data) if self.legacy_encodings else None
            if readable is None or readable[1] is None:
                also = " nor in any code page an editor saves in" if self.legacy_encodings else ""
                raise DecodeProblem("encoding", f"{name} is not UTF-8 text (byte {exc.start} cannot be decoded){also}; "
                                                "save it as UTF-8") from None
            return readable[0]
        return self.text_of(data)[0] if self.legacy_encodings else text

    # ---------------------------------------------------------------- build and run
    def own_sources(self, files: Mapping[str, bytes]) -> tuple[dict[str, str], dict[str, str]]:
        """The language's own files as text (legacy code pages too) and, for those not in UTF-8, the code page
        they were read in: every build decodes the same way, so feedback can name a file's encoding."""
        sources: dict[str, str] = {}
        encodings: dict[str, str] = {}
        for name in sorted(n for n in files if self.owns(n)):
            sources[name], encoding = self.text_of(files[name])
            if encoding not in ("utf-8", "utf-8-sig"):
                encodings[name] = encoding or "cp1252"
        return sources, encodings

    def build(self, files: Mapping[str, bytes], main: str, *, command: Sequence[str] = (), run: Sequence[str] = (),
              limits: "Limits | None" = None, profile: "IsolationProfile | None" = None, timeout: float = 60.0,
              libraries: Sequence[Path] = ()) -> Build:
        """Make the submission runnable (with the course's ``libraries``); the default runs the main file as it is.

        A program's randomness: the engine puts ``GRADER_SEED`` (one number per case) in every program's
        environment; a language that can seed its programs' random numbers from it does so in its build.
        """
        runnable = {**{lib.name: lib.read_bytes() for lib in libraries}, **files}
        return Build(files=runnable, argv=fill(run or self.default_run, main=main), main_file=main,
                     sources={name: self.text_of(data)[0] for name, data in files.items() if self.owns(name)})

    def program_main(self, files: Mapping[str, bytes]) -> str | None:
        """The file that starts a console program among a submission's files (None: none of this language).

        The one :meth:`find_main` names, else the first of the language's files by name.
        """
        own = sorted(name for name in files if self.owns(name))
        return (self.find_main(files) or own[0]) if own else None

    def require(self) -> None:
        """Raise a GraderError saying what to install when this machine cannot run the language (default: it can)."""

    def binds(self) -> tuple[str, ...]:
        """Extra folders the sandbox binds read-only for this language's toolchain."""
        return ()

    def spawn(self, build: Build, *, limits: "Limits", env: Mapping[str, str] | None = None,
              profile: "IsolationProfile | None" = None, files: Mapping[str, bytes] | None = None) -> "Program":
        """Start the built program in the sandbox (``files`` are added to its scratch folder)."""
        from grader.run.process import spawn

        return spawn(build.argv, {**build.files, **(files or {})}, limits=limits, binds=self.binds(), env=env, profile=profile)

    def uncaught(self, stderr: str, sources: Collection[str]) -> Uncaught:
        """What a program's error output says: an uncaught exception?, the student's line, the exception.

        The default knows no exception format: no exception, no line, the last line of the output.
        """
        lines = [line.strip() for line in stderr.strip().splitlines() if line.strip()]
        return Uncaught(False, None, lines[-1][:300] if lines else "")

    def open_session(self, sandbox: "Sandbox", files: Mapping[str, bytes], main: str,
                     watch: Sequence[str] = (), load_time_limit: float | None = None) -> ContextManager[FunctionSession]:
        """A child that loads the submission and serves function calls (``load_time_limit``:
        seconds of CPU time for loading it, when not the language's own default)."""
        raise NotSupported(f"{self.title} submissions cannot be graded function by function")

    # ---------------------------------------------------------------- static analysis
    def ban_findings(self, source: str, filename: str, policy: "BanPolicy", graded: Mapping[str, Sequence[str]],
                     *, files: Mapping[str, bytes] | None = None) -> "list[Finding]":
        """Uses of banned functions in the main file (``files``: all of the submission's), without running anything."""
        return []

    def style_source(self, text: str) -> "Source":
        """The facts the style checks read (lines, comments, names, functions)."""
        raise NotSupported(f"no style checks for {self.title}")
