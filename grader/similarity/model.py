"""The values the similarity pipeline passes along: a normalised submission and a compared pair.

A submission is normalised into *units* (one per function or method, one for the code around
them), each a sequence of tokens that keep only what survives a disguise: the shape of the
syntax tree, with the student's own names, literal values, comments and layout gone. Units are
fingerprinted separately, so reordering functions changes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Token:
    """One normalised syntax element and the source line it came from (for highlighting)."""

    label: str
    line: int


@dataclass
class Unit:
    """A function, a method, or the statements around them, in one file."""

    file: str
    name: str
    tokens: list[Token] = field(default_factory=list)


@dataclass
class Normalised:
    """A submission after its language's normaliser: units, plus notes for the instructor."""

    language: str
    units: list[Unit]
    notes: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(len(u.tokens) for u in self.units)


@dataclass(frozen=True)
class Region:
    """A stretch of one side that matches the other side: its file and lines, and the region it links to."""

    file: str
    first_line: int
    last_line: int
    tokens: int
    partner: int  # index of the best-matching region on the other side (-1: none)


@dataclass(frozen=True)
class PairResult:
    """Two submissions compared: how much of each side is found in the other, and where."""

    a: str
    b: str
    score: float
    fraction_a: float
    fraction_b: float
    longest_tokens: int
    longest_lines: int
    regions_a: tuple[Region, ...] = ()
    regions_b: tuple[Region, ...] = ()
