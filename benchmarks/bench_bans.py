"""CPU per submission of the static ban scan over a generated hw7 class, as a worker runs it.

Times ``grader.static.banscan.static_violations`` for every submission (5 rounds, min and
median) with a 200,000-object heap beside it, as a worker holding a spec's cases has: a
first grading (empty findings cache, a fresh folder under a temporary XDG_CACHE_HOME) and a
regrade in another process (findings on disk, none in memory).  ``--distinct`` times each
distinct file once (a class without copies).  Measure CPU, not wall: the machine is shared.

Run: python benchmarks/gen_submissions.py /tmp/static-subs --n 100
     python benchmarks/bench_bans.py /tmp/static-subs [--distinct]
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable

os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="bench-bans-")

from grader.spec.loader import load_spec  # noqa: E402  (after the cache folder is chosen)
from grader.static import banscan, cache  # noqa: E402
from grader.submissions import discover  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--distinct", action="store_true", help="each distinct file once")
    args = parser.parse_args()
    spec = load_spec(ROOT / "specs" / "hw7_iteration.yaml")
    items = [(s.lang, s.source(), s.main, s.files) for s in discover([args.folder], spec.submission_files)
             if s.main is not None]
    if args.distinct:
        items = list({item[1]: item for item in items}.values())
    heap = [{"k": [i, str(i)]} for i in range(200_000)]
    folder = Path(os.environ["XDG_CACHE_HOME"]) / "grader" / "bans"

    def grade_all() -> None:
        for lang, source, main_file, files in items:
            banscan.static_violations(spec, lang, source, main_file, files)

    def timed(prepare: Callable[[], None]) -> str:
        rounds = []
        for _ in range(5):
            prepare()
            started = time.process_time()
            grade_all()
            rounds.append((time.process_time() - started) / len(items) * 1000)
        return f"min {min(rounds):.2f} median {sorted(rounds)[2]:.2f}"

    def first_grading() -> None:
        shutil.rmtree(folder, ignore_errors=True)
        cache._MEMORY.clear()

    grade_all()   # imports and first-use tables out of the figures
    print(f"{len(items)} submissions, {len({item[1] for item in items})} distinct files; ms CPU per submission:")
    print("  first grading:", timed(first_grading))
    print("  regrade (another process: findings on disk):", timed(cache._MEMORY.clear))
    del heap
    shutil.rmtree(os.environ["XDG_CACHE_HOME"], ignore_errors=True)


if __name__ == "__main__":
    main()
