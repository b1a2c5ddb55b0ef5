"""The typed form of an assignment spec, built once by the loader and then read-only.

Everything downstream (static checks, runner, judge, reports) takes these objects,
never the raw YAML, so that a spec is validated in exactly one place.
"""
from __future__ import annotations

from functools import cached_property
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Mapping

if TYPE_CHECKING:
    from .program import ProgramSpec

Visibility = Literal["public", "hidden"]
Penalty = Literal["zero", "deduct", "warn"]
BanScope = Literal["file", "reachable"]
DynamicCodePolicy = Literal["flag", "violation"]
RuntimeMonitor = Literal["auto", "always", "off"]

class _Missing:
    """Marks a case without a pinned expected value (``None`` is a legal expected value)."""

    _instance: "_Missing | None" = None

    def __new__(cls) -> "_Missing":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


@dataclass(frozen=True)
class Compare:
    """How a student's value is judged against the reference's (see grader.judge.compare)."""

    mode: str = "exact"
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TimeLimit:
    """A per-case limit: absolute ``seconds``, or ``factor`` x the reference's time, never below ``floor``.

    When both are given the more lenient applies, so an instructor's absolute limit is
    never tightened by a fast reference.
    """

    seconds: float | None = None
    factor: float | None = None
    floor: float = 0.5

    def resolve(self, reference_time: float | None, scale: float = 1.0) -> float:
        """The limit in seconds; ``scale`` (the machine's calibration factor) scales the absolute parts."""
        candidates = []
        if self.seconds is not None:
            candidates.append(self.seconds * scale)
        if self.factor is not None and reference_time is not None:
            candidates.append(self.factor * reference_time)
        limit = max(candidates) if candidates else 2.0 * scale
        return max(limit, self.floor * scale)


@dataclass(frozen=True)
class BanPolicy:
    """Banned callables by qualified name (``builtins.sum``, ``numpy.cumsum``) and what a use costs."""

    names: tuple[str, ...] = ()
    penalty: Penalty = "zero"
    deduct: float = 0.0
    scope: BanScope = "reachable"
    dynamic_code: DynamicCodePolicy = "flag"
    runtime: RuntimeMonitor = "auto"

    def __bool__(self) -> bool:
        return bool(self.names)


@dataclass(frozen=True)
class Case:
    """One call of one function. ``args`` are plain values; ``expected`` is a pin, or MISSING."""

    name: str
    function: str
    args: tuple[Any, ...]
    visibility: Visibility = "hidden"
    weight: float = 1.0
    expected: Any = MISSING
    origin: str = "listed"  # "listed" or "generator:<name>#<seed>"
    time_limit: TimeLimit | None = None

    @property
    def is_public(self) -> bool:
        return self.visibility == "public"


@dataclass(frozen=True)
class FunctionSpec:
    name: str
    params: tuple[str, ...]
    points: float
    compare: Compare
    time_limit: TimeLimit
    bans: BanPolicy
    cases: tuple[Case, ...]
    aliases: tuple[str, ...] = ()
    extra_credit: bool = False
    description: str = ""
    stop_after_timeouts: int = 2  # cases in a row that time out before the rest are skipped; 0: never
    # "fresh": each case runs in a new session, so module-level state never carries over
    # from one unrelated case to the next (a game player that remembers its game).
    state: Literal["shared", "fresh"] = "shared"

    @property
    def accepted_names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    @cached_property
    def total_weight(self) -> float:
        """The sum of the cases' weights (asked once per judged case: summed once)."""
        return sum(c.weight for c in self.cases)


@dataclass(frozen=True)
class TournamentSpec:
    """The ``tournament:`` part: how many games, how players are timed and rated. The game's own
    rules, referee and bots are its plug-in beside the spec (``game``), with its ``options``."""

    game: Path | None = None
    games: int | Literal["auto"] = 100
    max_games: int = 2000
    seed: int = 0
    move_time_limit: float = 1.0
    game_time_limit: float = 10.0
    bots: tuple[str, ...] | None = None  # None: the game's default bots
    rating_model: str = "plackett-luce"
    rating_interval: float = 0.95
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SimilaritySpec:
    """The ``similarity:`` part: what is never evidence of copying, and where pairs are flagged."""

    starter: tuple[Path, ...] = ()  # handed-out code, resolved beside the spec
    exclude_reference: bool = False
    common_fraction: float = 0.2  # code in more than this share of the class is idiom
    threshold: float = 0.5  # pairs at or above this are flagged


@dataclass(frozen=True)
class LeaderboardColumn:
    """One column of a Gradescope leaderboard: ``key`` names a value of the verdict (or ``score``)."""

    name: str
    key: str
    order: Literal["asc", "desc"] | None = None


@dataclass(frozen=True)
class Spec:
    """A validated assignment spec. ``path`` anchors every relative path inside it."""

    path: Path
    assignment: str
    title: str
    kind: Literal["functions", "program"]
    languages: tuple[str, ...]  # registered names (grader.languages), in the spec's order
    submission_files: tuple[str, ...]
    reference: Path | None
    functions: tuple[FunctionSpec, ...]
    bans: BanPolicy
    handout: str = ""
    notes: str = ""
    digest: str = ""
    # CPU seconds the grader's calibration workload took where the absolute limits were set.
    calibration_s: float | None = None
    frozen: bool = False  # a student bundle: expected values are the pins, there is no reference
    # The validated YAML, for grader.spec.loader.document() alone: everything else reads the fields above.
    _document: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    generators: Path | None = None  # the course's case generators, beside the spec
    validators: Path | None = None  # the course's validators module, beside the spec
    leaderboard: tuple[LeaderboardColumn, ...] = ()
    tournament: TournamentSpec | None = None
    similarity: SimilaritySpec = field(default_factory=SimilaritySpec)
    program: ProgramSpec | None = None  # the part of a kind: program spec

    @property
    def max_score(self) -> float:
        """The points of the body, whatever the kind: regular functions, or a program's criteria."""
        if self.program is not None:
            return self.program.max_score
        return sum(f.points for f in self.functions if not f.extra_credit)

    def function(self, name: str) -> FunctionSpec:
        for fn in self.functions:
            if fn.name == name:
                return fn
        raise KeyError(name)

    def cases(self, visibility: Visibility | None = None) -> list[Case]:
        return [
            case
            for fn in self.functions
            for case in fn.cases
            if visibility is None or case.visibility == visibility
        ]
