"""``grader check``: a student runs the public cases on their own file, on their own machine.

Hidden cases are never planned, so they are never run, timed or printed: the only thing a
student learns about them is that they exist.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from grader.errors import ExitCode, GraderError
from grader.judge.verdict import SubmissionResult
from grader.batch import grader_factory
from grader.run.sandbox import probe
from grader.session import GradingSession
from grader.spec.loader import load_spec
from grader.spec.model import Spec
from grader.submissions import from_file, from_folder


def public_only(spec: Spec) -> Spec:
    """The spec as a student may see it: public cases carry each function's points."""
    functions = tuple(
        replace(fn, cases=public)
        for fn in spec.functions
        if (public := tuple(c for c in fn.cases if c.is_public))
    )
    return replace(spec, functions=functions)


def check_result(spec_path: str, file: str) -> tuple[SubmissionResult, Spec]:
    return check_loaded(load_spec(spec_path), file)


def check_loaded(spec: Spec, file: str) -> tuple[SubmissionResult, Spec]:
    """The self-check of ``file`` against an already loaded spec."""
    path = Path(file)
    if not path.exists():
        raise GraderError(f"no such file or folder: {file}", hint=f"give your {' or '.join(spec.submission_files) or 'submission file'}, "
                          "or the folder that holds it", exit_code=ExitCode.USAGE)
    # A folder is one submission of several files (a MATLAB student's .m files).
    read = from_folder if path.is_dir() else from_file
    submission = read(path, spec.submission_files, languages=spec.languages)
    if submission.language and not submission.problems:
        submission.lang.require()
    profile = probe()
    if not profile.secure:
        print(f"note: running your code with limited isolation ({profile.describe()}); time limits still apply", file=sys.stderr)
    if spec.kind == "functions":
        spec = public_only(spec)
    grader, close = grader_factory(spec, profile=profile, public_only=True)(0)
    try:
        with GradingSession(spec) as session:  # the same path after the judge as a class, with no store
            return session.grade(grader, submission), spec
    finally:
        close()


def run_check(spec_path: str, file: str) -> int:
    from rich.console import Console

    from grader.reports.terminal import render_check

    full = load_spec(spec_path)
    result, spec = check_loaded(full, file)
    hidden = 0 if full.kind == "program" else len(full.cases("hidden"))
    Console(highlight=False).print(render_check(result, spec, hidden_cases=hidden))
    public = [t for t in result.tests if t.visibility == "public"]
    ok = all(t.passed for t in public) and not any(not e.is_note for e in result.errors)
    return ExitCode.OK if ok else ExitCode.CHECK_FAILED
