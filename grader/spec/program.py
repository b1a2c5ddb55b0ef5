"""The typed ``program:`` part of a spec (``kind: program``), built by the loader as ``Spec.program``.

The part says how to build and run a console program and how to score it; what the program
is *about* (how to play it, how to read its output, how to judge a session) is the
assignment's plug-in, a trusted module beside the spec named by ``plugin:``, which declares
the schema of its cases' own keys and of its ``options`` (see grader.programs.plugin).
The part's own schema is ``$defs/program`` in schema.json.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from grader.languages import get_language, language_names


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
    # A language's usual speed against the (Python) reference, unless the spec says otherwise.
    speed = {name: get_language(name).speed_ratios for name in languages if name in language_names()}
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
