"""The ``program:`` block of a spec (``kind: program``): schema and typed form.

The block says how to build and run a console program and how to score it; what the
program is *about* (how to play it, how to read its output, how to judge a session)
is the assignment's plug-in, a trusted module beside the spec named by ``plugin:``.
The plug-in declares the schema of its cases and options (see :mod:`grader.programs.plugin`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

PROGRAM_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "program block of a kind: program spec",
    "type": "object",
    "required": ["plugin", "languages", "cases"],
    "additionalProperties": False,
    "properties": {
        "plugin": {"type": "string", "description": "the assignment's program plug-in, relative to the spec file"},
        "options": {"type": "object", "description": "options of the plug-in (its OPTIONS_SCHEMA)"},
        "languages": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {"$ref": "#/$defs/language"},
        },
        "limits": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "step_s": {"type": "number", "exclusiveMinimum": 0,
                           "description": "longest CPU-bound stretch without output, input or exit"},
                "session_s": {"type": "number", "exclusiveMinimum": 0},
                "compile_s": {"type": "number", "exclusiveMinimum": 0},
                "memory_mb": {"type": "integer", "minimum": 16},
                "output_kb": {"type": "integer", "minimum": 1},
                "inputs": {"type": "integer", "minimum": 1, "description": "most answers one session may need"},
            },
        },
        "scoring": {
            "type": "object",
            "description": "points per criterion: the plug-in's criteria, speed and style",
            "additionalProperties": {"type": "number", "minimum": 0},
        },
        "on_compile_error": {"$ref": "#/$defs/penalty"},
        "on_crash": {"$ref": "#/$defs/penalty"},
        "rules": {
            "type": "object",
            "description": "what breaking one of the plug-in's rules costs (e.g. unfair_deals)",
            "additionalProperties": {"$ref": "#/$defs/penalty"},
        },
        "speed": {"type": "object", "additionalProperties": {"$ref": "#/$defs/speed"}},
        "style": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "min_comment_density": {"type": "number", "minimum": 0, "maximum": 1},
                "max_main_lines": {"type": "integer", "minimum": 1},
                "min_functions": {"type": "integer", "minimum": 0},
                "handout_names": {"type": "array", "items": {"type": "string"},
                                  "description": "names the handout's own code uses: never a finding"},
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
                "run": {"$ref": "#/$defs/command",
                        "description": "{main}: main file, {class}: main class, {classpath}, {seed_launcher}"},
                "memory_mb": {"type": "integer", "minimum": 16, "description": "address-space limit (the JVM reserves a lot)"},
                "libraries": {"type": "array", "items": {"type": "string"},
                              "description": "course libraries (sources or jars) beside the spec, on the classpath"},
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
        "case": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {"type": "string", "pattern": "^[A-Za-z0-9_\\-]+$"},
                "visibility": {"enum": ["public", "hidden"]},
                "weight": {"type": "number", "exclusiveMinimum": 0},
                "seed": {"type": "integer", "description": "seeds the program's own randomness where the language allows"},
                "timed": {"type": "boolean", "description": "counts towards the speed score (default true)"},
            },
        },
    },
}


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    run: tuple[str, ...]
    build: tuple[str, ...] = ()
    memory_mb: int = 0
    libraries: tuple[Path, ...] = ()


@dataclass(frozen=True)
class Penalty:
    score: float = 0.0
    scope: str = "submission"   # submission: the whole score is at most `score`


@dataclass(frozen=True)
class ProgramSpec:
    """The validated program block, with defaults filled in and paths resolved."""

    plugin: Path
    languages: Mapping[str, LanguageSpec]
    cases: tuple[Mapping[str, Any], ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    step_s: float = 5.0
    session_s: float = 60.0
    compile_s: float = 60.0
    memory_mb: int = 512
    output_kb: int = 256
    inputs: int = 4000
    weights: Mapping[str, float] = field(default_factory=dict)
    on_compile_error: Penalty = Penalty()
    on_crash: Penalty = Penalty()
    rules: Mapping[str, Penalty] = field(default_factory=dict)
    speed: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    style: Mapping[str, Any] = field(default_factory=dict)

    @property
    def max_score(self) -> float:
        return float(sum(self.weights.values()))


def program_spec(raw: Mapping[str, Any], spec_dir: Path) -> ProgramSpec:
    """Typed form of a (schema-valid) ``program:`` mapping; paths are relative to ``spec_dir``."""
    languages = {
        name: LanguageSpec(name, tuple(lang["run"]), tuple(lang.get("build", ())), int(lang.get("memory_mb", 0)),
                           tuple((spec_dir / lib).resolve() for lib in lang.get("libraries", ())))
        for name, lang in raw["languages"].items()
    }
    limits = raw.get("limits", {})
    speed = {"python": (3.0, 30.0), "java": (10.0, 60.0)}
    speed.update({k: (float(v["full"]), float(v["zero"])) for k, v in raw.get("speed", {}).items()})
    return ProgramSpec(
        plugin=(spec_dir / raw["plugin"]).resolve(),
        languages=languages,
        cases=tuple(raw["cases"]),
        options=dict(raw.get("options", {})),
        step_s=float(limits.get("step_s", 5.0)),
        session_s=float(limits.get("session_s", 60.0)),
        compile_s=float(limits.get("compile_s", 60.0)),
        memory_mb=int(limits.get("memory_mb", 512)),
        output_kb=int(limits.get("output_kb", 256)),
        inputs=int(limits.get("inputs", 4000)),
        weights={k: float(v) for k, v in raw.get("scoring", {}).items()},
        on_compile_error=Penalty(**raw.get("on_compile_error", {})),
        on_crash=Penalty(**raw.get("on_crash", {})),
        rules={name: Penalty(**p) for name, p in raw.get("rules", {}).items()},
        speed=speed,
        style=dict(raw.get("style", {})),
    )


def of_spec(spec: Any) -> ProgramSpec:
    """The program block of a loaded spec."""
    return program_spec(spec.raw["program"], Path(spec.path).resolve().parent)


def reference_path(spec: Any) -> Path:
    """The reference program of a spec (``reference:`` relative to the spec file)."""
    if getattr(spec, "reference", None):
        return Path(spec.reference)
    return (Path(spec.path).parent / spec.raw["reference"]).resolve()
