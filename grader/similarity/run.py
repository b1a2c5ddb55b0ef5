"""The similarity pipeline: submissions -> normalised units -> fingerprints -> index -> pairs -> clusters.

Nothing here runs student code: every file is only parsed. A submission that cannot be read
or parsed is reported with the reason and left out; the class is compared all the same.
"""
from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from grader.similarity.compare import Options, compare, exclude, with_regions
from grader.similarity.config import SimilarityConfig
from grader.similarity.fingerprint import Document, fingerprint
from grader.similarity.languages import NORMALISERS, language_of
from grader.similarity.model import Normalised, PairResult
from grader.languages import DecodeProblem, Language
from grader.languages import language_of as registered_language
from grader.submissions import Submission

MAX_TOKENS = 200_000  # per submission; beyond this a file is generated or padded, not written


@dataclass(frozen=True)
class Cluster:
    """Three or more submissions joined by flagged pairs."""

    members: tuple[str, ...]
    pairs: tuple[PairResult, ...]


@dataclass
class Outcome:
    """Everything the reports need."""

    documents: list[Document]
    pairs: list[PairResult]
    clusters: list[Cluster]
    threshold: float
    left_out: list[tuple[str, str]] = field(default_factory=list)  # (id, why it was not compared)
    notes: list[tuple[str, str]] = field(default_factory=list)  # (id, caveat about how it was compared)
    common_hashes: int = 0
    elapsed_s: float = 0.0
    pages: set[int] = field(default_factory=set)  # ranks (from 1) of the pairs with regions, for a page each

    @property
    def flagged(self) -> list[PairResult]:
        return [p for p in self.pairs if p.score >= self.threshold]


def _decode(name: str, data: bytes) -> str:
    language = registered_language(name)
    return (language or Language()).decode(name, data)


def read(sub: Submission, entry_points: frozenset[str]) -> tuple[Normalised | None, list[str]]:
    """One submission normalised, with the notes that explain what was left out of it."""
    # Intake already refused links, devices and oversized files; a missing expected name does
    # not matter here: every source file is compared.
    notes = [message for kind, message in sub.problems if kind != "missing-file"]
    by_language: dict[str, dict[str, str]] = defaultdict(dict)
    for name, data in sorted(sub.files.items()):
        language = language_of(name)
        if language is None or any(n.startswith(f"{name} ") for n in notes):
            continue
        try:  # the registered language decides how its files decode
            by_language[language][name] = _decode(name, data)
        except DecodeProblem as exc:
            notes.append(exc.message)
    if not by_language:
        return None, notes or ["no source file in a language the similarity check reads"]
    language = max(by_language, key=lambda lang: sum(len(t) for t in by_language[lang].values()))
    for other in sorted(set(by_language) - {language}):
        notes.append(f"{other} files left out: the submission is mostly {language}")
    try:
        normalised = NORMALISERS[language](by_language[language], entry_points)
    except RecursionError:
        return None, [*notes, "nested too deeply to parse; not compared"]
    notes.extend(normalised.notes)
    if normalised.size > MAX_TOKENS:
        _truncate(normalised)
        notes.append(f"longer than {MAX_TOKENS} tokens; compared on its first {MAX_TOKENS}")
    if normalised.size == 0:
        return None, notes if normalised.notes else [*notes, "no code left to compare (only comments and dead code)"]
    return normalised, notes


def _truncate(normalised: Normalised) -> None:
    budget = MAX_TOKENS
    for unit in normalised.units:
        unit.tokens = unit.tokens[:budget]
        budget -= len(unit.tokens)
    normalised.units = [u for u in normalised.units if u.tokens]


def _excluded_hashes(paths: Sequence[Path], entry_points: frozenset[str]) -> set[int]:
    """Fingerprints of trusted code (starter files, the reference) that are nobody's evidence."""
    hashes: set[int] = set()
    for path in paths:
        language = language_of(path.name)
        if language is None:
            continue
        normalised = NORMALISERS[language]({path.name: path.read_text(encoding="utf-8")}, entry_points)
        hashes |= {fp.hash for fp in fingerprint(str(path), normalised).prints}
    return hashes


def clusters(pairs: Sequence[PairResult], threshold: float) -> list[Cluster]:
    """Connected groups of three or more submissions among the flagged pairs, largest first."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    flagged = [p for p in pairs if p.score >= threshold]
    for pair in flagged:
        parent[root(pair.a)] = root(pair.b)
    groups: dict[str, list[str]] = defaultdict(list)
    for member in parent:
        groups[root(member)].append(member)
    found = [Cluster(tuple(sorted(members)), tuple(p for p in flagged if root(p.a) == key))
             for key, members in groups.items() if len(members) >= 3]
    return sorted(found, key=lambda c: (-len(c.members), c.members))


def run_similarity(submissions: Sequence[Submission], config: SimilarityConfig, *, entry_points: frozenset[str],
                   reference: Path | None = None, pages: int = 50) -> Outcome:
    """Compare a class; per-submission problems are collected, never raised.

    The top ``pages`` pairs, and every pair inside a cluster, carry their matching regions.
    """
    started = time.perf_counter()
    documents: list[Document] = []
    left_out: list[tuple[str, str]] = []
    notes: list[tuple[str, str]] = []
    for sub in submissions:
        normalised, sub_notes = read(sub, entry_points)
        if normalised is None:
            left_out.append((sub.id, "; ".join(sub_notes)))
            continue
        notes.extend((sub.id, note) for note in sub_notes)
        documents.append(fingerprint(sub.id, normalised))
    trusted = [*config.starter, *([reference] if config.exclude_reference and reference else [])]
    options = Options(common_fraction=config.common_fraction)
    common = exclude(documents, _excluded_hashes(trusted, entry_points), options)
    pairs = compare(documents, options)
    rank = {(p.a, p.b): i for i, p in enumerate(pairs, 1)}
    shown = set(range(1, min(pages, len(pairs)) + 1))
    shown |= {rank[(p.a, p.b)] for c in clusters(pairs, config.threshold) for p in c.pairs}
    by_id = {d.id: d for d in documents}
    for i in shown:
        pair = pairs[i - 1]
        pairs[i - 1] = with_regions(pair, by_id[pair.a], by_id[pair.b])
    return Outcome(documents, pairs, clusters(pairs, config.threshold), config.threshold, left_out, notes,
                   len(common), time.perf_counter() - started, shown)
