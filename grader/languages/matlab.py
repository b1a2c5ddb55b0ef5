"""MATLAB: .m submissions graded through GNU Octave, one Octave per submission serving the calls.

The pieces, one concern each:
- :mod:`grader.languages.matlab_files`: which functions a submission's .m files define
  and how Octave finds them (one file per function, or a single file split up);
- :mod:`grader.languages.matlab_values`: values both ways, exactly as MATLAB sees them;
- :mod:`grader.languages.matlab_session`: the Octave process in the sandbox, calls,
  CPU time and crashes measured from outside;
- :mod:`grader.languages.matlab_bans`: banned functions found statically in the .m files;
  the runtime tripwire lives in ``matlab_m/server/grader_trip_.m``;
- ``matlab_m/compat``: functions MATLAB has and Octave 7 lacks, on every submission's path.
"""
from __future__ import annotations

import contextlib
import dataclasses
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from grader.errors import ExitCode, GraderError

from . import matlab_bans, matlab_files
from .base import Language

if TYPE_CHECKING:
    from .matlab_session import OctaveSession
    from grader.run.model import CallResult, LoadResult
    from grader.run.sandbox import Sandbox
    from grader.spec.model import BanPolicy
    from grader.static.bans import Finding

INSTALL_HINT = "grading .m files needs GNU Octave: run ./install.sh --matlab (or apt-get install octave)"


def octave_path() -> str | None:
    """Where GNU Octave is (the session's module is imported only when MATLAB is graded)."""
    from .matlab_session import octave_path as find

    return find()


def require_octave() -> None:
    """Stop with what to install when Octave is missing: a machine's problem, never a student's grade."""
    if octave_path() is None:
        raise GraderError("GNU Octave is not installed", hint=INSTALL_HINT, exit_code=ExitCode.USAGE)


class MatlabSession:
    """The language's face of an :class:`OctaveSession`: file names and lines as the student wrote them."""

    def __init__(self, octave: OctaveSession, layout: matlab_files.Layout):
        self.octave = octave
        self.layout = layout

    @property
    def load(self) -> "LoadResult":
        return self.octave.load

    #: call_many takes ``batch=True``: several (public) cases in one request; hidden ones go one by one.
    batches = True

    def call_many(self, function: str, calls: Sequence[tuple[Sequence[Any], float]], *,
                  watch: bool | Sequence[bool] = False, expected: Sequence[Any] | None = None,
                  stop: Any = None, batch: bool = False) -> "list[CallResult]":
        results = self.octave.call_many(function, calls, watch=watch, expected=expected, stop=stop, batch=batch)
        return [self._student_terms(r) for r in results]

    def _student_terms(self, result: "CallResult") -> "CallResult":
        """Errors, tripwire hits and parse errors point at the file the student wrote."""
        exc = result.exception
        hits = tuple({**h, **dict(zip(("file", "line"), self.layout.where(h.get("file", ""), h.get("line"))))}
                     for h in result.watch_hits)
        if exc and exc.get("file"):
            file, line = self.layout.where(exc["file"], exc.get("lineno"))
            message = self._source_terms(exc.get("message", ""))
            exc = {**exc, "file": file, "lineno": line, "message": f"{message} ({file}" + (f", line {line})" if line else ")"),
                   "line": None}
        elif exc:
            exc = {**exc, "message": self._source_terms(exc.get("message", ""))}
        return dataclasses.replace(result, exception=exc, watch_hits=hits)

    def _source_terms(self, message: str) -> str:
        """Octave's messages name scratch paths (/w/war.m): keep only the student's file names."""
        for generated, original in self.layout.origin.items():
            message = message.replace(f"/w/{generated}", original)
        return message.replace("/w/", "")


class Matlab(Language):
    name = "matlab"
    title = "MATLAB"
    suffixes = (".m",)
    serves_functions = True
    runtime_bans = True
    #: call_many needs the reference's answers: nargout, and the shape to read matrices in.
    wants_expected = True
    folder_submissions = True

    def require(self) -> None:
        require_octave()

    def find_main(self, files: Mapping[str, bytes], expected: Sequence[str] = ()) -> str | None:
        """A MATLAB submission has no main file: any of its .m files stands for it."""
        own = sorted(name for name in files if self.owns(name))
        return own[0] if own else None

    @contextlib.contextmanager
    def open_session(self, sandbox: "Sandbox", files: Mapping[str, bytes], main: str,
                     watch: Sequence[str] = (), load_time_limit: float | None = None) -> Iterator[MatlabSession]:
        require_octave()
        layout = matlab_files.layout(files)
        banned = sorted(matlab_bans.matlab_names(watch))
        from .matlab_session import OctaveSession

        octave = OctaveSession(layout.files, sorted(layout.callable), banned, limits=sandbox.limits,
                               profile=sandbox.profile, slot=sandbox.slot)
        try:
            yield MatlabSession(octave, layout)
        finally:
            octave.close()

    def encoding_note(self, name: str, data: bytes) -> str | None:
        """A file named like the grader's own Octave functions is not loaded (it would shadow them): say so."""
        return matlab_files.reserved_note(name)

    def policy_name(self, banned: str, names: Sequence[str]) -> str | None:
        """Octave's tripwire reports the MATLAB function (``sum``): the policy name it stands for."""
        return matlab_bans.matlab_names(names).get(banned)

    def ban_findings(self, source: str, filename: str, policy: "BanPolicy",
                     graded: Mapping[str, Sequence[str]], files: Mapping[str, bytes] | None = None) -> "list[Finding]":
        every = dict(files) if files is not None else {filename: source.encode("utf-8")}
        layout = matlab_files.layout(every)
        found_as = {fn: next((n for n in names if n in layout.callable), names[0]) for fn, names in graded.items()}
        return matlab_bans.findings(every, layout, policy.names, found_as, policy.scope)


MATLAB = Matlab()
