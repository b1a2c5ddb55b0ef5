"""Python: loaded by the sandbox's own harness, which serves calls; run as ``python3 -u`` as a program."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, ContextManager, Mapping, Sequence

from .base import Build, BuildError, FunctionSession, Language, fill

if TYPE_CHECKING:
    from grader.run.model import IsolationProfile, Limits
    from grader.run.sandbox import Sandbox
    from grader.spec.model import BanPolicy
    from grader.static.bans import Finding
    from grader.static.style import Source


def syntax_error(name: str, source: bytes) -> BuildError | None:
    """A syntax error, found without running anything (compile() only parses)."""
    try:
        compile(source, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return BuildError(f"{type(exc).__name__}: {exc.msg}", exc.lineno)
    except ValueError as exc:  # e.g. null bytes
        return BuildError(str(exc))
    return None


class Python(Language):
    name = "python"
    title = "Python"
    suffixes = (".py",)
    serves_functions = True
    runtime_bans = True
    default_run = ("python3", "-u", "{main}")
    entry_point = re.compile(rb"__name__\s*==\s*['\"]__main__['\"]")

    def build(self, files: Mapping[str, bytes], main: str, *, command: Sequence[str] = (), run: Sequence[str] = (),
              limits: "Limits | None" = None, profile: "IsolationProfile | None" = None, timeout: float = 60.0) -> Build:
        """Nothing to compile: a syntax check, so a broken file is reported with its line before it runs."""
        error = syntax_error(main, files[main])
        return Build(files=dict(files), argv=fill(run or self.default_run, main=main), main_file=main,
                     errors=[error] if error else [])

    def open_session(self, sandbox: "Sandbox", files: Mapping[str, bytes], main: str,
                     watch: Sequence[str] = ()) -> ContextManager[FunctionSession]:
        return sandbox.session(files, main, watch=watch)

    def ban_findings(self, source: str, filename: str, policy: "BanPolicy", graded: Mapping[str, Sequence[str]],
                     *, files: Mapping[str, bytes] | None = None) -> "list[Finding]":
        from grader.static.bans import check_bans

        return check_bans(source, filename, policy, dict(graded))

    def style_source(self, text: str) -> "Source":
        from grader.static.style import _python_source

        return _python_source(text)


PYTHON = Python()
