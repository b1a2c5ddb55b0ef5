"""Inside the simulated container (tests/container_sim.py): grade folders in one batch and pickle
the results for the test outside.  ``python container_grade.py SPEC OUT RESULTS FOLDER...``"""
from __future__ import annotations

import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_corpus import grade_batch  # noqa: E402

from grader.run.sandbox import probe  # noqa: E402


def main() -> None:
    spec, out, results = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    graded, elapsed = grade_batch(spec, [Path(p) for p in sys.argv[4:]], out)
    profile = probe()
    with results.open("wb") as f:
        pickle.dump({"results": graded, "elapsed": elapsed, "profile": profile}, f)


if __name__ == "__main__":
    main()
