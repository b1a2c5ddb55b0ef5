"""The spec's optional ``similarity:`` block, checked here (the main schema accepts any object)
with every problem located by YAML line and column, then turned into a frozen :class:`SimilarityConfig`.

    similarity:
      starter: [../reference/hw7_starter.py]   # handed-out code: never evidence of copying
      exclude_reference: true                  # the reference's shape is not evidence either
      common_fraction: 0.2                     # code in more than this share of the class is idiom
      threshold: 0.5                           # pairs at or above this are flagged
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from grader.spec.model import Spec
from grader.spec.problems import PositionMap, Problem, SpecError

SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "starter": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "exclude_reference": {"type": "boolean"},
        "common_fraction": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
        "threshold": {"type": "number", "minimum": 0, "maximum": 1},
    },
}


@dataclass(frozen=True)
class SimilarityConfig:
    """What to leave out and where to draw the line; every field has a default."""

    starter: tuple[Path, ...] = ()
    exclude_reference: bool = False
    common_fraction: float = 0.2
    threshold: float = 0.5


def _where(parts: list[Any]) -> str:
    return "similarity" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def load_config(spec: Spec) -> SimilarityConfig:
    """The spec's block as a config; a bad block raises SpecError with located problems."""
    block = spec.raw.get("similarity", {})
    try:
        positions = PositionMap(yaml.compose(spec.path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader))
    except (OSError, yaml.YAMLError):
        positions = PositionMap(None)
    problems = []
    for error in jsonschema.Draft202012Validator(SCHEMA).iter_errors(block):
        where = list(error.absolute_path)
        line, col = positions.locate(["similarity", *where])
        problems.append(Problem(str(spec.path), line, col, f"{_where(where)}: {error.message}"))
    starter = tuple((spec.path.parent / p).resolve() for p in block.get("starter", ()))
    for i, path in enumerate(starter):
        if not path.is_file():
            line, col = positions.locate(["similarity", "starter", i])
            problems.append(Problem(str(spec.path), line, col, f"similarity.starter[{i}]: no such file: {path}"))
    if problems:
        raise SpecError(problems)
    return SimilarityConfig(
        starter=starter,
        exclude_reference=bool(block.get("exclude_reference", False)),
        common_fraction=float(block.get("common_fraction", 0.2)),
        threshold=float(block.get("threshold", 0.5)),
    )
