"""Pairs from an inverted index of fingerprints, so the cost follows the class, not its pairs.

Each kept hash lists the submissions holding it. Hashes of starter code and of the reference
(when the spec asks) are dropped first; so are hashes held by a large part of the class, which
are the assignment's common idiom, not anyone's copy. Only pairs that still share enough
hashes are then measured exactly: the fraction of each side's tokens covered by shared
fingerprints, and the matching regions, each linked to its best partner on the other side.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Sequence

from grader.similarity.fingerprint import Document, covered, spans
from grader.similarity.model import PairResult, Region


@dataclass(frozen=True)
class Options:
    """How pairs are chosen and scored (the spec's ``similarity:`` block sets them)."""

    common_fraction: float = 0.2  # a hash in more than this share of the class is common idiom
    common_min: int = 10  # ... and more than this many (MOSS's default -m), so small classes keep their clusters
    min_shared: int = 3  # a pair must share this many hashes to be measured
    floor: float = 0.1  # pairs scoring below this are not listed


def exclude(docs: Sequence[Document], excluded: set[int], options: Options) -> set[int]:
    """Drop starter, reference and common hashes from every document; return the common ones."""
    holders: Counter[int] = Counter(h for doc in docs for h in {fp.hash for fp in doc.prints})
    limit = max(options.common_min, int(options.common_fraction * len(docs)))
    common = {h for h, n in holders.items() if n > limit}
    gone = excluded | common
    for doc in docs:
        doc.prints = [fp for fp in doc.prints if fp.hash not in gone]
        doc.hashes = {fp.hash for fp in doc.prints}
        doc.own_tokens = covered(spans(doc.prints))
    return common


def candidates(docs: Sequence[Document], options: Options) -> list[tuple[int, int]]:
    """Pairs (by index) sharing at least ``min_shared`` hashes, found through the inverted index."""
    index: dict[int, list[int]] = defaultdict(list)
    for i, doc in enumerate(docs):
        for h in doc.hashes:
            index[h].append(i)
    shared: Counter[tuple[int, int]] = Counter()
    for holders in index.values():
        if len(holders) > 1:
            shared.update(combinations(holders, 2))
    return sorted(pair for pair, n in shared.items() if n >= options.min_shared)


def _regions(doc: Document, stretches: list[tuple[int, int, int]], mine: list[set[int]], other: dict[int, int]) -> list[Region]:
    regions = []
    for (unit_index, start, end), hashes in zip(stretches, mine):
        unit = doc.normalised.units[unit_index]
        lines = [t.line for t in unit.tokens[start:end]]
        votes = Counter(other[h] for h in hashes if h in other)
        partner = votes.most_common(1)[0][0] if votes else -1
        regions.append(Region(unit.file, min(lines), max(lines), end - start, partner))
    return regions


def _side(doc: Document, shared: set[int]) -> tuple[list[tuple[int, int, int]], list[set[int]], dict[int, int]]:
    """One side's matching stretches, the hashes inside each, and which stretch holds each hash."""
    prints = [fp for fp in doc.prints if fp.hash in shared]
    stretches = spans(prints)
    hashes: list[set[int]] = [set() for _ in stretches]
    where: dict[int, int] = {}
    for fp in prints:
        i = next(j for j, (u, s, e) in enumerate(stretches) if u == fp.unit and s <= fp.start < e)
        hashes[i].add(fp.hash)
        where.setdefault(fp.hash, i)
    return stretches, hashes, where


def score(fraction_a: float, fraction_b: float) -> float:
    """A pair's score: the mean of how much of each side the other holds."""
    return (fraction_a + fraction_b) / 2


def _longest(doc: Document, stretches: list[tuple[int, int, int]]) -> tuple[int, int]:
    """Tokens and source lines of a side's longest matching stretch."""
    if not stretches:
        return 0, 0
    unit_index, start, end = max(stretches, key=lambda s: s[2] - s[1])
    lines = [t.line for t in doc.normalised.units[unit_index].tokens[start:end]]
    return end - start, max(lines) - min(lines) + 1


def measure(a: Document, b: Document) -> PairResult:
    """The exact comparison of one pair: how much of each side the other holds, and the longest match."""
    shared = a.hashes & b.hashes
    spans_a = spans(fp for fp in a.prints if fp.hash in shared)
    spans_b = spans(fp for fp in b.prints if fp.hash in shared)
    fraction_a = covered(spans_a) / a.own_tokens if a.own_tokens else 0.0
    fraction_b = covered(spans_b) / b.own_tokens if b.own_tokens else 0.0
    longest = max(_longest(a, spans_a), _longest(b, spans_b))
    return PairResult(a=a.id, b=b.id, score=round(score(fraction_a, fraction_b), 4),
                      fraction_a=round(fraction_a, 4), fraction_b=round(fraction_b, 4),
                      longest_tokens=longest[0], longest_lines=longest[1])


def with_regions(pair: PairResult, a: Document, b: Document) -> PairResult:
    """The pair with its matching regions on both sides, each linked to its best partner (for the HTML)."""
    shared = a.hashes & b.hashes
    spans_a, hashes_a, where_a = _side(a, shared)
    spans_b, hashes_b, where_b = _side(b, shared)
    return replace(pair, regions_a=tuple(_regions(a, spans_a, hashes_a, where_b)),
                   regions_b=tuple(_regions(b, spans_b, hashes_b, where_a)))


def compare(docs: Sequence[Document], options: Options) -> list[PairResult]:
    """Every pair worth listing, highest score first. Only documents of one language meet."""
    results = []
    for i, j in candidates(docs, options):
        a, b = docs[i], docs[j]
        if a.normalised.language != b.normalised.language:
            continue
        # Cheap bound first: shared hashes can cover at most this share of the smaller side.
        if len(a.hashes & b.hashes) < options.floor * min(len(a.hashes), len(b.hashes)):
            continue
        pair = measure(a, b)
        if pair.score >= options.floor:
            results.append(pair)
    return sorted(results, key=lambda p: (-p.score, -p.longest_tokens, p.a, p.b))
