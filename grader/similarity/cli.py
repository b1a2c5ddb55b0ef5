"""``grader similarity``: which submissions of a class share code, with the evidence side by side.

Reads like the pipeline: load spec and its similarity block -> find submissions as ``grader
grade`` does -> normalise, fingerprint, index, compare -> write pairs.csv and the HTML pages ->
show the top pairs.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from grader.cli import command, err, load_spec
from grader.errors import ExitCode, GraderError


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("targets", nargs="+", metavar="TARGET", help="submission files, folders, or folders of submissions")
    p.add_argument("--out", type=Path, default=Path("similarity"), help="output folder (default: similarity)")
    p.add_argument("--threshold", type=float, default=None,
                   help="flag pairs scoring at least this, 0 to 1 (default: the spec's similarity.threshold, else 0.5)")
    p.add_argument("--top", type=int, default=10, help="pairs shown in the terminal (default: 10)")
    p.add_argument("--pages", type=int, default=50, help="pairs given a side-by-side HTML page (default: 50)")


@command("similarity", "find submissions that share code, with side-by-side evidence", _args)
def cmd_similarity(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from grader.similarity.config import load_config
    from grader.similarity.reports import terminal_lines, write_reports
    from grader.similarity.run import run_similarity
    from grader.submissions import discover

    spec = load_spec(args.spec)
    config = load_config(spec)
    if args.threshold is not None:
        if not 0 <= args.threshold <= 1:
            raise GraderError(f"--threshold must be between 0 and 1, not {args.threshold}", exit_code=ExitCode.USAGE)
        config = replace(config, threshold=args.threshold)
    submissions = discover(args.targets, spec.submission_files)
    if len(submissions) < 2:
        raise GraderError(f"found {len(submissions)} submission(s) in {' '.join(args.targets)}; comparing needs two",
                          exit_code=ExitCode.USAGE)
    entry_points = frozenset(name for fn in spec.functions for name in fn.accepted_names) | {"main"}
    err(f"comparing {len(submissions)} submission(s) of {spec.assignment}")
    outcome = run_similarity(submissions, config, entry_points=entry_points, reference=spec.reference,
                             pages=max(0, args.pages))
    written = write_reports(outcome, submissions, args.out)
    for line in terminal_lines(outcome, top=max(0, args.top)):
        print(line)
    err(f"compared {len(outcome.documents)} in {outcome.elapsed_s:.1f} s; reports in {args.out}/ ({len(written)} files)")
    return ExitCode.OK
