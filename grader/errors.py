"""Errors meant for the user, and the exit codes the CLI promises."""
from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    OK = 0  #: the job completed (whatever the students scored), or a check passed
    CHECK_FAILED = 1  #: `grader check`/`bans`: some public case failed or a ban was found
    USAGE = 2  #: bad command line
    SPEC_INVALID = 3  #: a spec failed validation
    NO_ISOLATION = 4  #: no sandbox available for untrusted code and --unsafe not given
    GRADER_ERROR = 5  #: the grader itself failed (a bug or an environment problem)
    INTERRUPTED = 130  #: stopped by Ctrl-C; everything finished so far is saved


class GraderError(Exception):
    """A problem reported to the user in their terms, with an optional hint, never a traceback."""

    exit_code = ExitCode.GRADER_ERROR

    def __init__(self, message: str, *, hint: str = "", exit_code: ExitCode | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        if exit_code is not None:
            self.exit_code = exit_code

    def __str__(self) -> str:
        return self.message + (f"\n  hint: {self.hint}" if self.hint else "")
