"""The similarity corpus: independent solutions of each shipped assignment and disguised copies.

A file ``indep_<family>.*`` (or folder) is an independent solution; ``<family>_<disguise>.*`` is a
disguised copy of it (see tests/similarity_corpus/README.md). Every pair inside a family must
score above every pair across families, and the default threshold must separate them.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from grader.similarity.config import load_config
from grader.similarity.run import Outcome, run_similarity
from grader.spec.loader import load_spec
from grader.spec.model import Spec
from grader.submissions import Submission, discover

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "similarity_corpus"
CLASSES = {"hw7_iteration": "hw7_iteration", "comp10001go": "comp10001go", "blackjack": "blackjack",
           "hw7_iteration_matlab": "hw7_iteration"}
DISGUISES = ("renamed", "reordered", "comments", "literals", "deadcode", "while", "combined")


def family(submission_id: str) -> str:
    return submission_id.removeprefix("indep_").split("_")[0] if submission_id.startswith("indep_") else submission_id.split("_")[0]


def class_of(folder: str, spec: Spec) -> list[Submission]:
    """The corpus folder's submissions, found as ``grader grade`` finds them (a MATLAB folder of ``.m`` files is one)."""
    return discover([CORPUS / folder], spec.submission_files)


def compare_class(folder: str) -> Outcome:
    spec = load_spec(ROOT / "specs" / f"{CLASSES[folder]}.yaml")
    submissions = class_of(folder, spec)
    entry_points = frozenset(n for fn in spec.functions for n in fn.accepted_names) | {"main"}
    return run_similarity(submissions, load_config(spec), entry_points=entry_points, reference=spec.reference)


def all_scores(outcome: Outcome) -> dict[tuple[str, str], float]:
    listed = {frozenset((p.a, p.b)): p.score for p in outcome.pairs}
    ids = sorted(d.id for d in outcome.documents)
    return {(a, b): listed.get(frozenset((a, b)), 0.0) for a, b in itertools.combinations(ids, 2)}


def present() -> list[str]:
    return [name for name in CLASSES if (CORPUS / name).is_dir()]


@pytest.fixture(scope="module", params=present())
def outcome(request) -> tuple[str, Outcome]:
    return request.param, compare_class(request.param)


def test_the_corpus_covers_every_shipped_assignment_and_language():
    assert set(CLASSES) == set(present())


def test_every_disguise_alone_and_combined_is_in_the_corpus():
    for name in present():
        ids = {p.stem for p in (CORPUS / name).iterdir() if not p.name.endswith(".md")}
        independent = [i for i in ids if i.startswith("indep_")]
        assert len(independent) >= 3, f"{name}: several independent solutions"
        disguised = {i.split("_", 1)[1] for i in ids if not i.startswith("indep_")}
        assert "combined" in disguised, name
    for name in ("hw7_iteration", "hw7_iteration_matlab"):
        assert {f"loops_{d}" for d in DISGUISES} <= {p.stem for p in (CORPUS / name).iterdir()}


def test_every_disguised_pair_ranks_above_every_independent_pair(outcome):
    name, result = outcome
    assert not result.left_out, result.left_out
    scores = all_scores(result)
    copies = {pair: s for pair, s in scores.items() if family(pair[0]) == family(pair[1])}
    independent = {pair: s for pair, s in scores.items() if family(pair[0]) != family(pair[1])}
    assert copies and independent
    weakest_copy = min(copies, key=copies.get)
    strongest_independent = max(independent, key=independent.get)
    assert copies[weakest_copy] > independent[strongest_independent], (name, weakest_copy, strongest_independent)


def test_the_default_threshold_flags_every_copy_and_no_independent_pair(outcome):
    name, result = outcome
    flagged = {frozenset((p.a, p.b)) for p in result.flagged}
    for (a, b), _ in all_scores(result).items():
        assert (frozenset((a, b)) in flagged) == (family(a) == family(b)), (name, a, b)


def test_families_of_three_or_more_are_clusters(outcome):
    name, result = outcome
    families: dict[str, set[str]] = {}
    for doc in result.documents:
        families.setdefault(family(doc.id), set()).add(doc.id)
    expected = sorted(tuple(sorted(m)) for m in families.values() if len(m) >= 3)
    assert sorted(c.members for c in result.clusters) == expected
