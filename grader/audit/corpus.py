"""Known-bug submissions of the corpus that the spec still gives full marks.

A corpus submission's ``<name>.expected.yaml`` says, per function, the grade it deserves;
a function expected below its points (a number, or a range whose ``max`` is below them)
holds a known bug. If grading gives that function full marks, the spec's cases miss it.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from grader.spec.model import Spec


def known_bugs(corpus: Path, spec: Spec) -> dict[str, list[str]]:
    """Submission id -> the functions its expected file says are wrong."""
    points = {fn.name: fn.points for fn in spec.functions}
    bugs: dict[str, list[str]] = {}
    for path in sorted(corpus.glob("*.expected.yaml")):
        expected: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        wrong = []
        for name, want in (expected.get("functions") or {}).items():
            top = want.get("max") if isinstance(want, dict) else want
            if name in points and top is not None and float(top) < points[name] - 1e-9:
                wrong.append(name)
        if wrong:
            bugs[path.name.removesuffix(".expected.yaml")] = wrong
    return bugs


def full_marks_on_known_bugs(spec: Spec, corpus: Path, *, jobs: int = 2) -> str:
    """Grade the corpus in the sandbox and say which known bugs still get full marks."""
    from grader.batch import BatchOptions, run_batch
    from grader.run.sandbox import probe
    from grader.submissions import discover

    bugs = known_bugs(corpus, spec)
    corpus = Path(os.path.relpath(corpus)) if Path.cwd() in corpus.resolve().parents else corpus
    if not bugs:
        return f"corpus {corpus}: no submission with a known bug (an expected grade below full marks)"
    profile = probe()
    if not profile.secure:
        return f"corpus {corpus}: not graded (no sandbox on this machine: {profile.describe()})"
    submissions = [s for s in discover([corpus], spec.submission_files) if s.id in bugs]
    with tempfile.TemporaryDirectory(prefix="grader-audit-") as out:
        outcome = run_batch(spec, submissions, BatchOptions(out_dir=Path(out), jobs=jobs, regrade=True, profile=profile))
    missed = []
    for result in outcome.results:
        for name in bugs.get(result.submission, []):
            fn = result.functions.get(name)
            if fn is not None and fn.score >= fn.max_score - 1e-9:
                missed.append(f"  {result.submission}: full marks on {name}")
    head = f"corpus {corpus}: {len(submissions)} submission(s) with known bugs in {sum(map(len, bugs.values()))} function(s)"
    if not missed:
        return head + "; every known bug loses marks"
    return head + f"; {len(missed)} still get full marks:\n" + "\n".join(missed)
