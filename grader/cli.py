"""The ``grader`` command line. Every failure reaches the user as a message, never a traceback
(unless ``--debug``), and exit codes follow :class:`grader.errors.ExitCode`.
"""
from __future__ import annotations

import argparse
import os
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from grader.errors import ExitCode, GraderError
from grader.spec.problems import SpecError

if TYPE_CHECKING:
    from grader.plan import Plan
    from grader.run.model import IsolationProfile
    from grader.spec.model import Spec

Command = Callable[[argparse.Namespace], int]
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Command]] = {}


def command(name: str, help: str, arguments: Callable[[argparse.ArgumentParser], None]) -> Callable[[Command], Command]:
    """Register a subcommand: its help line, its arguments and the function that runs it."""

    def register(fn: Command) -> Command:
        COMMANDS[name] = (help, arguments, fn)
        return fn

    return register


def load_spec(path: str | Path) -> "Spec":
    """:func:`grader.spec.loader.load_spec`, imported when a command first needs a spec
    (YAML and the JSON-schema validator take a tenth of a second to import; `--help` needs neither)."""
    from grader.spec.loader import load_spec as load

    return load(path)


def err(*lines: str) -> None:
    """Say something on the terminal, one line an argument. What a message holds is often the
    students' (an id, a file name, a download's entry), so every control character in it, a
    line break too, is shown as an escape: no text can erase, move, colour or add a line."""
    from grader.textsafe import terminal_safe

    for line in lines:
        print(terminal_safe(line), file=sys.stderr)


def resolve_profile(args: argparse.Namespace, *, for_students: bool = False) -> IsolationProfile:
    """Probe the sandbox layers; refuse untrusted code without isolation unless --unsafe."""
    from grader.run.sandbox import probe

    profile = probe()
    if not profile.secure and not for_students and not getattr(args, "unsafe", False):
        raise GraderError(
            f"no sandbox for untrusted code on this machine ({profile.describe()})",
            hint="install bubblewrap (apt-get install bubblewrap), or pass --unsafe to grade without isolation",
            exit_code=ExitCode.NO_ISOLATION,
        )
    return profile


def _hide_secrets(profile: IsolationProfile, spec: Spec, args: argparse.Namespace) -> None:
    """Container profile without Landlock: only file permissions keep sessions from the spec,
    its trusted files, the submissions and the output (see grader/run/container.py)."""
    from grader.run import container

    if "file-permissions" not in profile.layers:
        return
    os.makedirs(args.out, exist_ok=True)
    trusted = [spec.path, spec.reference, spec.generators, spec.validators, args.out, *args.targets]
    try:
        changed = container.hide_secrets(profile, [str(p) for p in trusted if p])
    except OSError as exc:
        raise GraderError(f"cannot hide the grader's files from sandboxed sessions: {exc.strerror}",
                          exit_code=ExitCode.NO_ISOLATION) from None
    if changed:
        err(f"note: no Landlock here, so these were made unreadable to other users (chmod o-rwx): {', '.join(changed)}")


# --------------------------------------------------------------------------- validate

def _validate_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("specs", nargs="+", metavar="SPEC", help="spec files to validate")


@command("validate", "check specs against the schema and their references", _validate_args)
def cmd_validate(args: argparse.Namespace) -> int:
    from grader.spec.checks import deep_problems

    worst = ExitCode.OK
    for path in args.specs:
        try:
            spec = load_spec(path)
        except SpecError as exc:
            for problem in exc.problems:
                print(problem)
            worst = ExitCode.SPEC_INVALID
            continue
        deep = deep_problems(spec)
        if deep:
            for problem in deep:
                print(problem)
            worst = ExitCode.SPEC_INVALID
            continue
        cases = spec.cases()
        hidden = sum(1 for c in cases if c.visibility == "hidden")
        detail = f"{len(spec.functions)} functions, {len(cases)} cases ({hidden} hidden)" if spec.kind == "functions" else "program"
        print(f"{path}: ok ({spec.assignment}: {detail})")
    return worst


# --------------------------------------------------------------------------- grade

def parse_formats(text: str) -> list[str]:
    """Check the --format names before any grading starts, not after an hour of it."""
    from grader.reports import UnknownFormatError, get_reporter

    formats = [f.strip() for f in text.split(",") if f.strip()]
    for name in formats:
        try:
            get_reporter(name)
        except UnknownFormatError as exc:
            raise GraderError(str(exc), exit_code=ExitCode.USAGE) from None
    return formats


def _plan_or_none(spec: "Spec") -> "Plan | None":
    """The grading plan, made once and used by validation and grading alike; None when the
    reference fails on a case (validation then says where, at the spec's line) or the spec
    is not one of functions."""
    if spec.kind != "functions":
        return None
    from grader.plan import make_plan

    try:
        return make_plan(spec)
    except GraderError:
        return None


def _probe_in_background(keep: bool = False) -> None:
    """Start the sandbox probe (a real bubblewrap start) in a thread: it mostly waits on its
    subprocess, so it overlaps the parent's own work; ``resolve_profile`` waits for it.
    ``keep``: its sandbox stays open for the one slot a self-check grades in."""
    import threading

    from grader.run.sandbox import probe, probe_and_hold

    threading.Thread(target=probe_and_hold if keep else probe, name="grader-probe", daemon=True).start()


def _calibration_note(spec) -> str:
    """The factor this machine's speed applies to the spec's absolute time limits, if it states one."""
    from grader.calibration import calibrate

    calibration = calibrate(spec.calibration_s)
    if calibration is None:
        return ""
    return (f"; absolute time limits x{calibration.factor:.2f} (calibration workload {calibration.measured_s:.3f} s here, "
            f"{calibration.stated_s:g} s where the limits were set)")


def _grade_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("targets", nargs="+", metavar="TARGET", help="submission files, folders, or folders of submissions")
    p.add_argument("--out", default="results", type=Path, help="output folder (default: results)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="submissions graded in parallel (default: the number of cores)")
    p.add_argument("--regrade", action="store_true", help="grade again even when the store holds a current result")
    p.add_argument("--format", default="json,csv", help="report formats, comma separated (json, csv, gradescope, junit, markdown, html)")
    p.add_argument("--id-column", help="name of the student id column in the LMS gradebook CSV (default: SIS User ID)")
    p.add_argument("--roster", type=Path, metavar="CSV", help="the class roster: the gradebook gets one row per student on it")
    p.add_argument("--roster-id", metavar="COLUMN", help="the roster's column of student ids (default: the one that matches the submissions)")
    p.add_argument("--unsafe", action="store_true", help="grade without a sandbox when none is available (trusted code only)")
    p.add_argument("--executor", choices=("local", "dask"), default="local",
                   help="grade on this machine (default) or on a Dask cluster (pip install 'grader[dask]')")
    p.add_argument("--scheduler", metavar="ADDRESS", help="the Dask scheduler, e.g. tcp://10.0.0.5:8786 (with --executor dask)")


@command("grade", "grade submissions and write reports", _grade_args)
def cmd_grade(args: argparse.Namespace) -> int:
    from grader.batch import BatchOptions
    from grader.calibration import measure_in_background
    from grader.executors import run as run_executor
    from grader.progress import Progress
    from grader.reports import write_reports
    from grader.intake.gather import gather, with_roster
    from grader.intake.roster import read_roster
    from grader.spec.checks import deep_problems

    spec = load_spec(args.spec)
    if spec.calibration_s is not None:
        measure_in_background()     # overlaps the reference's run below
    _probe_in_background()          # bubblewrap's first start overlaps it too
    plan = _plan_or_none(spec)
    problems = deep_problems(spec, plan)  # a wrong pin or a ban that bans nothing must not grade a class
    if problems:
        raise SpecError(problems)
    profile = resolve_profile(args)
    _hide_secrets(profile, spec, args)
    submissions = gather(args.targets, spec.submission_files, err, languages=spec.languages)
    roster = read_roster(args.roster, [s.id for s in submissions], args.roster_id) if args.roster else None
    if not submissions:
        raise GraderError(f"no submissions found in {' '.join(args.targets)}", exit_code=ExitCode.USAGE)
    formats = parse_formats(args.format)
    where = f"on the Dask cluster at {args.scheduler}" if args.executor == "dask" else f"with {max(1, args.jobs)} job(s)"
    err(f"grading {len(submissions)} submission(s) of {spec.assignment} {where}; {profile.describe()}{_calibration_note(spec)}")
    options = BatchOptions(out_dir=args.out, jobs=max(1, args.jobs), regrade=args.regrade, profile=profile,
                           plan=plan if args.executor == "local" else None)
    with Progress(len(submissions)) as progress:
        outcome = run_executor(args.executor, spec, submissions, options, scheduler=args.scheduler, on_result=progress.advance)
    report_options = {"skip_existing": True, **({"id_column": args.id_column} if args.id_column else {}),
                      **({"roster": roster} if roster else {})}
    results = with_roster(outcome.results, spec, roster, err) if roster else outcome.results
    written = write_reports(results, spec, args.out, formats, options=report_options)
    err(f"graded {outcome.graded}, reused {outcome.skipped} unchanged, in {outcome.elapsed_s:.1f} s; reports in {args.out}/ ({len(written)} files)")
    return ExitCode.OK


# --------------------------------------------------------------------------- check

def _check_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("file", metavar="FILE", help="your submission: a file, or a folder of its files")


@command("check", "run the public cases on your own file", _check_args)
def cmd_check(args: argparse.Namespace) -> int:
    from grader.calibration import measure_in_background

    # A student waits for this command: the calibration overlaps loading the spec, or one
    # measured on this machine in the last hour stands in.
    measure_in_background(reuse_recent=True)
    _probe_in_background(keep=True)      # its sandbox is the one the check's session runs in
    from grader.check import run_check

    return run_check(args.spec, args.file)


# --------------------------------------------------------------------------- bans

def _bans_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("file", metavar="FILE")


@command("bans", "list uses of banned functions in a file, without running it", _bans_args)
def cmd_bans(args: argparse.Namespace) -> int:
    from grader.static.bans import format_findings
    from grader.static.banscan import findings_that_apply
    from grader.submissions import from_file, from_folder
    from grader.textsafe import terminal_safe

    spec = load_spec(args.spec)
    path = Path(args.file)
    read = from_folder if path.is_dir() else from_file   # a folder: one submission of several files (.m)
    sub = read(path, spec.submission_files, languages=spec.languages)
    if sub.problems:
        raise GraderError(sub.problems[0][1], exit_code=ExitCode.CHECK_FAILED)
    findings = findings_that_apply(spec, sub.lang, sub.source(), args.file if path.is_file() else sub.main or "", files=sub.files)
    if not findings:
        print(f"{terminal_safe(args.file)}: no banned functions found ({_banned_summary(spec)})")
        return ExitCode.OK
    print(format_findings(findings, color=sys.stdout.isatty()))
    return ExitCode.CHECK_FAILED


def _banned_summary(spec: "Spec") -> str:
    """What the spec bans, where: ``builtins.sum, ... in scrabbleScore``."""
    parts = [", ".join(spec.bans.names)] if spec.bans.names else []
    by_names: dict[tuple[str, ...], list[str]] = {}
    for fn in spec.functions:
        extra = tuple(n for n in fn.bans.names if n not in spec.bans.names)
        if extra:
            by_names.setdefault(extra, []).append(fn.name)
    parts += [f"{', '.join(names)} in {', '.join(fns)}" for names, fns in by_names.items()]
    return "; ".join(parts) or "nothing is banned"


# --------------------------------------------------------------------------- main

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="grader", description="Sandboxed autograder driven by YAML specs.")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks for errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help_text, arguments, _) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show Python tracebacks for errors")
        arguments(p)
    return parser


def _load_plugins(argv: Sequence[str]) -> None:
    """Commands that live with their feature register themselves on import: imported unless
    the command line names a command of this module (a student's ``grader check`` waits
    for every import; ``grader --help`` lists them all)."""
    named = next((a for a in argv if not a.startswith("-")), None)
    if named in COMMANDS:
        return
    for module in ("grader.tournament.cli", "grader.integrations.cli", "grader.similarity.cli", "grader.audit.cli"):
        try:
            __import__(module)
        except ModuleNotFoundError as exc:
            # Only a missing feature module is tolerated, never a broken import inside one.
            if not (exc.name and module.startswith(exc.name)):
                raise


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    _load_plugins(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return ExitCode.USAGE
    _, _, run = COMMANDS[args.command]
    try:
        return int(run(args))
    except SpecError as exc:
        for problem in exc.problems:
            err(*str(problem).splitlines())   # the spec's own lines, the instructor's text
        return ExitCode.SPEC_INVALID
    except GraderError as exc:
        if args.debug:
            traceback.print_exc()
        err(f"grader: error: {exc.message}", *([f"  hint: {exc.hint}"] if exc.hint else []))
        return exc.exit_code
    except KeyboardInterrupt:
        err("grader: interrupted; every submission finished so far is saved (rerun to continue)")
        return ExitCode.INTERRUPTED
    except Exception as exc:  # the last line of defence: a message, not a traceback
        if args.debug:
            traceback.print_exc()
        else:
            err(f"grader: internal error: {type(exc).__name__}: {exc}", "  (rerun with --debug for the traceback)")
        return ExitCode.GRADER_ERROR


if __name__ == "__main__":
    # Run as `python -m grader.cli`, this file is the module `__main__`, while feature plug-ins register
    # their commands on `grader.cli`: start that module's main so every sub-command is offered.
    from grader.cli import main as package_main

    sys.exit(package_main())
