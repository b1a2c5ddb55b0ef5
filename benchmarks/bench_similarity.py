"""Similarity: time a generated class of hw7 submissions, and score the hand-made corpus.

Prints (1) the wall time of ``grader similarity`` on N generated submissions (default 500)
with the generator's planted copies found and missed, and (2) precision and recall at the
default threshold on tests/similarity_corpus, per assignment.

Run: python benchmarks/bench_similarity.py [--n 500] [--seed 7] [--keep DIR]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

from gen_similarity_class import generate  # noqa: E402

from grader.cli import main as grader  # noqa: E402
from grader.similarity.config import load_config  # noqa: E402
from grader.similarity.run import run_similarity  # noqa: E402
from grader.spec.loader import load_spec  # noqa: E402
from test_similarity_corpus import class_of  # noqa: E402

CORPUS = ROOT / "tests" / "similarity_corpus"
SPECS = {"hw7_iteration": "hw7_iteration", "comp10001go": "comp10001go", "blackjack": "blackjack",
         "hw7_iteration_matlab": "hw7_iteration"}


def family(name: str) -> str:
    return name.removeprefix("indep_").split("_")[0] if name.startswith("indep_") else name.split("_")[0]


def time_class(n: int, seed: int, folder: Path) -> None:
    copied = generate(folder / "class", n, seed)
    out = folder / "out"
    started, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = grader(["similarity", str(ROOT / "specs" / "hw7_iteration.yaml"), str(folder / "class"), "--out", str(out)])
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    rows = (out / "pairs.csv").read_text().splitlines()[1:]
    flagged = {frozenset(r.split(",")[:2]) for r in rows if r.endswith(",yes")}
    planted = {frozenset(p) for p in copied.items()}
    found = len(planted & flagged)
    print(f"{n} generated hw7 submissions: grader similarity took {elapsed:.1f} s wall, {cpu:.1f} s CPU "
          f"(exit {status}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); "
          f"{len(rows)} pairs listed, {len(flagged)} flagged; planted copies found {found}/{len(planted)}, "
          f"other flagged pairs {len(flagged - planted)}")


def score_corpus() -> None:
    for name, spec_name in SPECS.items():
        if not (CORPUS / name).is_dir():
            continue
        spec = load_spec(ROOT / "specs" / f"{spec_name}.yaml")
        config = load_config(spec)
        subs = class_of(name, spec)
        entry = frozenset(x for fn in spec.functions for x in fn.accepted_names) | {"main"}
        outcome = run_similarity(subs, config, entry_points=entry, reference=spec.reference)
        scores = {frozenset((p.a, p.b)): p.score for p in outcome.pairs}
        ids = sorted(d.id for d in outcome.documents)
        pairs = [(a, b) for a, b in itertools.combinations(ids, 2)]
        copy = {frozenset(p) for p in pairs if family(p[0]) == family(p[1])}
        flagged = {frozenset(p) for p in pairs if scores.get(frozenset(p), 0) >= config.threshold}
        tp = len(copy & flagged)
        precision = tp / len(flagged) if flagged else 1.0
        recall = tp / len(copy) if copy else 1.0
        low_copy = min(scores.get(p, 0) for p in copy)
        high_other = max((scores.get(frozenset(p), 0) for p in pairs if frozenset(p) not in copy), default=0)
        print(f"corpus {name}: {len(ids)} submissions, {len(copy)} copy pairs, {len(pairs) - len(copy)} independent pairs; "
              f"threshold {config.threshold}: precision {precision:.2f}, recall {recall:.2f}; "
              f"lowest copy pair {low_copy:.2f}, highest independent pair {high_other:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    args = parser.parse_args()
    score_corpus()
    if args.keep:
        time_class(args.n, args.seed, args.keep)
        return
    with tempfile.TemporaryDirectory() as tmp:
        time_class(args.n, args.seed, Path(tmp))
    print(json.dumps({"note": "time includes discovery, parsing, fingerprinting, comparing and writing every report"}))


if __name__ == "__main__":
    main()
