"""Winnowing (Schleimer, Wilkerson and Aiken 2003, the algorithm behind MOSS) over normalised tokens.

Every k consecutive tokens of a unit hash to one k-gram; of every w consecutive k-grams the
smallest is kept. Two submissions that share a run of at least k + w - 1 tokens are sure to
share a kept fingerprint, and a submission keeps only about 2/(w+1) of its k-grams, so the
index stays small. Units are fingerprinted apart, so no k-gram spans two functions and the
order of functions does not matter.
"""
from __future__ import annotations

import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import Iterable

from grader.similarity.model import Normalised, Unit

K = 12  # tokens per k-gram: about two lines of code
W = 8  # k-grams per window
MIN_UNIT = 6  # a shorter unit (`DEBUG = False`) is everyone's, never evidence


@dataclass(frozen=True)
class Fingerprint:
    """A kept k-gram: its hash and the tokens it covers (unit index, first token, how many)."""

    hash: int
    unit: int
    start: int
    length: int


@dataclass
class Document:
    """A submission ready to compare: its units, kept fingerprints and the set of their hashes."""

    id: str
    normalised: Normalised
    prints: list[Fingerprint]
    hashes: set[int] = field(default_factory=set)
    own_tokens: int = 0  # tokens covered by fingerprints that survive the exclusions


def spans(prints: Iterable[Fingerprint]) -> list[tuple[int, int, int]]:
    """Merge fingerprints, in the order a document keeps them (by unit, then position), into
    (unit, start, end) stretches of covered tokens."""
    merged: list[tuple[int, int, int]] = []
    for fp in prints:
        end = fp.start + fp.length
        if merged and merged[-1][0] == fp.unit and fp.start <= merged[-1][2]:
            unit, start, old_end = merged[-1]
            merged[-1] = (unit, start, max(old_end, end))
        else:
            merged.append((fp.unit, fp.start, end))
    return merged


def covered(intervals: list[tuple[int, int, int]]) -> int:
    return sum(end - start for _, start, end in intervals)


def _token_id(label: str, cache: dict[str, int]) -> int:
    value = cache.get(label)
    if value is None:
        value = cache[label] = zlib.crc32(label.encode("utf-8"))
    return value


def _winnow(grams: list[int], w: int) -> list[int]:
    """Positions of the kept k-grams: the rightmost minimum of every window, each kept once."""
    if len(grams) <= w:
        return [min(range(len(grams)), key=lambda i: (grams[i], -i))] if grams else []
    kept: list[int] = []
    window: deque[int] = deque()
    for i, h in enumerate(grams):
        while window and grams[window[-1]] >= h:
            window.pop()
        window.append(i)
        if window[0] <= i - w:
            window.popleft()
        if i >= w - 1 and (not kept or kept[-1] != window[0]):
            kept.append(window[0])
    return kept


def unit_prints(unit: Unit, index: int, cache: dict[str, int], k: int = K, w: int = W) -> list[Fingerprint]:
    """The kept fingerprints of one unit; a unit shorter than k is one fingerprint of itself."""
    ids = [_token_id(t.label, cache) for t in unit.tokens]
    if len(ids) < MIN_UNIT:
        return []
    if len(ids) < k:
        return [Fingerprint(hash(tuple(ids)), index, 0, len(ids))]
    grams = [hash(tuple(ids[i:i + k])) for i in range(len(ids) - k + 1)]
    return [Fingerprint(grams[i], index, i, k) for i in _winnow(grams, w)]


def fingerprint(doc_id: str, normalised: Normalised, k: int = K, w: int = W) -> Document:
    """A normalised submission's fingerprints, unit by unit."""
    cache: dict[str, int] = {}
    prints = [fp for i, unit in enumerate(normalised.units) for fp in unit_prints(unit, i, cache, k, w)]
    return Document(doc_id, normalised, prints, {fp.hash for fp in prints}, covered(spans(prints)))
