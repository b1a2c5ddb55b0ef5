"""``grader check``: a student runs the public cases on their own file, on their own machine.

Hidden cases are never planned, so they are never run, timed or printed: the only thing a
student learns about them is that they exist.
"""
from __future__ import annotations

import sys
from pathlib import Path

from grader.errors import ExitCode, GraderError
from grader.judge.verdict import SubmissionResult
from grader.plan import make_plan
from grader.run.sandbox import Sandbox, probe
from grader.spec.loader import load_spec
from grader.submissions import from_file


def check_result(spec_path: str, file: str) -> tuple[SubmissionResult, object]:
    spec = load_spec(spec_path)
    path = Path(file)
    if not path.is_file():
        raise GraderError(f"no such file: {file}", exit_code=ExitCode.USAGE)
    submission = from_file(path, spec.submission_files)
    profile = probe()
    if not profile.secure:
        print(f"note: running your code with limited isolation ({profile.describe()}); time limits still apply", file=sys.stderr)
    if spec.kind == "program":
        from grader.batch import ProgramGrader

        return ProgramGrader(spec, profile=profile).grade(submission), spec
    from grader.pipeline import FunctionGrader

    plan = make_plan(spec, visibility="public")
    with Sandbox(profile) as sandbox:
        return FunctionGrader(plan, sandbox).grade(submission), spec


def run_check(spec_path: str, file: str) -> int:
    from rich.console import Console

    from grader.reports.terminal import render_check

    result, spec = check_result(spec_path, file)
    Console(highlight=False).print(render_check(result, spec))
    public = [t for t in result.tests if t.visibility == "public"]
    ok = all(t.passed for t in public) and not any(e.kind != "note" for e in result.errors)
    return ExitCode.OK if ok else ExitCode.CHECK_FAILED
