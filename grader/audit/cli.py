"""``grader audit SPEC``: how many plausible bugs the spec's cases would catch."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from grader.cli import command
from grader.errors import ExitCode, GraderError



def _audit_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--suggest", type=int, default=0, metavar="N",
                   help="print up to N new cases per function (YAML) that kill surviving mutants")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="worker processes (default: the number of cores)")
    p.add_argument("--samples", type=int, default=200, metavar="S",
                   help="fresh generator inputs per function that tell survivors from equivalent mutants (default 200)")
    p.add_argument("--function", action="append", default=[], metavar="NAME", help="audit only this function (repeatable)")
    p.add_argument("--equivalent", action="store_true", help="also list the mutants presumed equivalent")
    p.add_argument("--corpus", type=Path, metavar="DIR",
                   help="sample submissions with *.expected.yaml (default: submissions/<assignment> beside the spec's folder)")
    p.add_argument("--no-corpus", action="store_true", help="skip grading the corpus's known-bug submissions")


@command("audit", "measure how many mutants of the reference the spec's cases kill", _audit_args)
def cmd_audit(args: argparse.Namespace) -> int:
    # Imported here, not at the top: every `grader` command imports this module to list it.
    from grader.spec.loader import load_spec

    from .corpus import full_marks_on_known_bugs
    from .report import TARGET, render, scores
    from .run import run_audit

    spec = load_spec(args.spec)
    if spec.kind != "functions" or spec.reference is None:
        raise GraderError(f"{args.spec}: grader audit needs a function spec with a reference", exit_code=ExitCode.USAGE)
    unknown = sorted(set(args.function) - {fn.name for fn in spec.functions})
    if unknown:
        raise GraderError(f"no function {', '.join(unknown)} in {args.spec}", exit_code=ExitCode.USAGE)
    audit = run_audit(spec, jobs=args.jobs, samples=args.samples, functions=args.function)
    print(render(audit, suggest_n=args.suggest, show_equivalent=args.equivalent))
    if not args.no_corpus:
        corpus = args.corpus or spec.path.resolve().parent.parent / "submissions" / spec.assignment
        if corpus.is_dir():
            print()
            print(full_marks_on_known_bugs(spec, corpus, jobs=args.jobs))
    return ExitCode.OK if all(s.value >= TARGET for s in scores(audit)) else ExitCode.CHECK_FAILED
