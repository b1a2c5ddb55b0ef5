"""The ``program:`` block of a spec (``kind: program``): schema and typed form.

The lead's loader validates ``spec.raw["program"]`` against :data:`PROGRAM_SCHEMA`;
:func:`program_spec` turns the validated mapping into a :class:`ProgramSpec`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

_STRATEGY_NAMES = ["hit_until", "always_stand", "double_on_11", "surrender_16_vs_10", "random"]

PROGRAM_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "program block of a kind: program spec",
    "type": "object",
    "required": ["languages", "cases"],
    "additionalProperties": False,
    "properties": {
        "languages": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": False,
            "properties": {
                "python": {"$ref": "#/$defs/language"},
                "java": {"$ref": "#/$defs/language"},
            },
        },
        "limits": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "step_s": {"type": "number", "exclusiveMinimum": 0},
                "session_s": {"type": "number", "exclusiveMinimum": 0},
                "compile_s": {"type": "number", "exclusiveMinimum": 0},
                "memory_mb": {"type": "integer", "minimum": 16},
                "output_kb": {"type": "integer", "minimum": 1},
            },
        },
        "scoring": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "games": {"type": "number", "minimum": 0},
                "wording": {"type": "number", "minimum": 0},
                "speed": {"type": "number", "minimum": 0},
                "style": {"type": "number", "minimum": 0},
            },
        },
        "on_compile_error": {"$ref": "#/$defs/penalty"},
        "on_crash": {"$ref": "#/$defs/penalty"},
        "speed": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "python": {"$ref": "#/$defs/speed"},
                "java": {"$ref": "#/$defs/speed"},
            },
        },
        "style": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "min_comment_density": {"type": "number", "minimum": 0, "maximum": 1},
                "max_main_lines": {"type": "integer", "minimum": 1},
                "min_functions": {"type": "integer", "minimum": 0},
            },
        },
        "cases": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/case"}},
    },
    "$defs": {
        "command": {"type": "array", "minItems": 1, "items": {"type": "string"}},
        "language": {
            "type": "object",
            "required": ["run"],
            "additionalProperties": False,
            "properties": {
                "build": {"$ref": "#/$defs/command"},
                "run": {"$ref": "#/$defs/command"},
                "deck_env": {"type": "string", "pattern": "^[A-Z_][A-Z0-9_]*$"},
                "memory_mb": {"type": "integer", "minimum": 16, "description": "address-space limit (the JVM reserves a lot)"},
            },
        },
        "penalty": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "score": {"type": "number", "minimum": 0},
                "scope": {"enum": ["submission", "case"]},
            },
        },
        "speed": {
            "type": "object",
            "required": ["full", "zero"],
            "additionalProperties": False,
            "properties": {
                "full": {"type": "number", "exclusiveMinimum": 0},
                "zero": {"type": "number", "exclusiveMinimum": 0},
            },
        },
        "card": {"type": "string", "pattern": "^(Ace|King|Queen|Jack|10|[2-9]) of (Clubs|Diamonds|Hearts|Spades)$"},
        "case": {
            "type": "object",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "pattern": "^[A-Za-z0-9_\\-]+$"},
                "visibility": {"enum": ["public", "hidden"]},
                "weight": {"type": "number", "exclusiveMinimum": 0},
                "games": {"type": "integer", "minimum": 1, "maximum": 50},
                "stakes": {"type": "array", "minItems": 1, "items": {"type": "number", "exclusiveMinimum": 0}},
                "insure": {"type": "boolean"},
                "seed": {"type": "integer"},
                "stdin": {"type": "array", "minItems": 1, "items": {"type": ["string", "number"]}},
                "strategy": {
                    "oneOf": [
                        {"enum": _STRATEGY_NAMES},
                        {
                            "type": "object",
                            "required": ["name"],
                            "properties": {"name": {"enum": _STRATEGY_NAMES}, "threshold": {"type": "integer"}},
                            "additionalProperties": False,
                        },
                    ]
                },
                "decks": {
                    "description": "deck prefixes, one list per game; each is completed with the unused cards in order",
                    "type": "array",
                    "items": {"type": "array", "items": {"$ref": "#/$defs/card"}, "maxItems": 52},
                },
                "timed": {"type": "boolean", "description": "counts towards the speed score (default true)"},
            },
            "oneOf": [{"required": ["stdin"]}, {"required": ["strategy"]}],
        },
    },
}


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    run: tuple[str, ...]
    build: tuple[str, ...] = ()
    deck_env: str = ""
    memory_mb: int = 0


@dataclass(frozen=True)
class Penalty:
    score: float = 0.0
    scope: str = "submission"   # submission: the whole score becomes `score`; case: only the crashed case


@dataclass(frozen=True)
class ProgramSpec:
    """The validated program block, with defaults filled in."""

    languages: Mapping[str, LanguageSpec]
    cases: tuple[Mapping[str, Any], ...]
    step_s: float = 5.0
    session_s: float = 60.0
    compile_s: float = 60.0
    memory_mb: int = 512
    output_kb: int = 256
    weights: Mapping[str, float] = field(default_factory=lambda: {"games": 60, "wording": 10, "speed": 15, "style": 15})
    on_compile_error: Penalty = Penalty()
    on_crash: Penalty = Penalty()
    speed: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    style: Mapping[str, Any] = field(default_factory=dict)

    @property
    def max_score(self) -> float:
        return float(sum(self.weights.values()))


def program_spec(raw: Mapping[str, Any]) -> ProgramSpec:
    """Typed form of a (schema-valid) ``program:`` mapping."""
    languages = {
        name: LanguageSpec(name, tuple(lang["run"]), tuple(lang.get("build", ())), lang.get("deck_env", ""),
                           int(lang.get("memory_mb", 0)))
        for name, lang in raw["languages"].items()
    }
    limits = raw.get("limits", {})
    weights = {"games": 60.0, "wording": 10.0, "speed": 15.0, "style": 15.0}
    weights.update({k: float(v) for k, v in raw.get("scoring", {}).items()})
    speed = {"python": (3.0, 30.0), "java": (10.0, 60.0)}
    speed.update({k: (float(v["full"]), float(v["zero"])) for k, v in raw.get("speed", {}).items()})
    return ProgramSpec(
        languages=languages,
        cases=tuple(raw["cases"]),
        step_s=float(limits.get("step_s", 5.0)),
        session_s=float(limits.get("session_s", 60.0)),
        compile_s=float(limits.get("compile_s", 60.0)),
        memory_mb=int(limits.get("memory_mb", 512)),
        output_kb=int(limits.get("output_kb", 256)),
        weights=weights,
        on_compile_error=Penalty(**raw.get("on_compile_error", {})),
        on_crash=Penalty(**raw.get("on_crash", {})),
        speed=speed,
        style=dict(raw.get("style", {})),
    )


def spec_decks(case: Mapping[str, Any], seed_default: int = 0) -> list[list[str]]:
    """The fixed decks a case gives deck-aware programs: listed prefixes, else seeded shuffles."""
    import random

    from .transcript import ALL_CARDS

    games = int(case.get("games", 3))
    prefixes = case.get("decks")
    if prefixes:
        return [list(p) + [c for c in ALL_CARDS if c not in p] for p in prefixes]
    rng = random.Random(case.get("seed", seed_default))
    decks = []
    for _ in range(max(games, 1)):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        decks.append(deck)
    return decks


def reference_path(spec: Any) -> Path:
    """The reference program of a spec (``reference:`` relative to the spec file)."""
    if getattr(spec, "reference", None):
        return Path(spec.reference)
    return (Path(spec.path).parent / spec.raw["reference"]).resolve()
