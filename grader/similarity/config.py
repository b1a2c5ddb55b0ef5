"""The spec's optional ``similarity:`` part, as grader similarity reads it.

    similarity:
      starter: [../reference/hw7_starter.py]   # handed-out code: never evidence of copying
      exclude_reference: true                  # the reference's shape is not evidence either
      common_fraction: 0.2                     # code in more than this share of the class is idiom
      threshold: 0.5                           # pairs at or above this are flagged

Its schema (``$defs/similarity``) and typed form (``Spec.similarity``) belong to the one spec
model: the loader checks it, with every problem at its line and column.
"""
from __future__ import annotations

from grader.spec.model import SimilaritySpec as SimilarityConfig
from grader.spec.model import Spec

__all__ = ["SimilarityConfig", "load_config"]


def load_config(spec: Spec) -> SimilarityConfig:
    """The spec's similarity part (defaults when it has none)."""
    return spec.similarity
