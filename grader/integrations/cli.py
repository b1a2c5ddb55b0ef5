"""``grader gradescope`` and ``grader export-student`` (registered when grader.cli loads plugins)."""
from __future__ import annotations

import argparse
from pathlib import Path

from grader.cli import command, err
from grader.errors import ExitCode


def _gradescope_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--out", default=Path("autograder.zip"), type=Path, help="the zip to write (default: autograder.zip)")
    p.add_argument("--allow-unsafe", action="store_true",
                   help="if Gradescope's machine cannot run the sandbox, grade with resource limits only "
                        "(default: refuse, and say so in every results.json)")
    p.add_argument("--timeout", type=float, default=1200, metavar="SECONDS",
                   help="give up grading one submission after this long (default: 1200)")


@command("gradescope", "build the autograder zip to upload to Gradescope", _gradescope_args)
def cmd_gradescope(args: argparse.Namespace) -> int:
    from grader.integrations.gradescope_zip import build_gradescope_zip

    summary = build_gradescope_zip(args.spec, args.out, allow_unsafe=args.allow_unsafe, timeout_s=args.timeout)
    print(f"wrote {summary.path} ({summary.files} files, {summary.bytes / 1024:.0f} KiB): "
          f"{summary.spec_inside}, {summary.cases} cases ({summary.hidden} hidden)")
    err("upload it unchanged as the assignment's autograder (Gradescope: Configure Autograder > Zip file upload)")
    return ExitCode.OK


def _export_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--out", required=True, type=Path, metavar="DIR", help="folder to write the bundle to")


@command("export-student", "write a self-check bundle of the public cases for students", _export_args)
def cmd_export_student(args: argparse.Namespace) -> int:
    from grader.integrations.student_bundle import export_student_bundle

    summary = export_student_bundle(args.spec, args.out)
    print(f"wrote {summary.spec_path} and {summary.out_dir / 'README.txt'}: {summary.functions} functions, "
          f"{summary.public_cases} public cases ({summary.hidden_cases_left_out} hidden cases left out)")
    if summary.functions_left_out:
        err(f"note: no public cases, so not in the bundle: {', '.join(summary.functions_left_out)}")
    return ExitCode.OK
