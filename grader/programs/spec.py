"""The ``program:`` part of a spec, as the program engine reads it.

Its schema (``$defs/program`` in grader/spec/schema.json) and its typed form
(grader/spec/program.py, ``Spec.program``) belong to the one spec model; this module keeps
the names the engine imports.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from grader.spec.program import LanguageSpec, Penalty, ProgramSpec, program_spec

__all__ = ["LanguageSpec", "Penalty", "ProgramSpec", "program_spec", "of_spec", "reference_path"]


def of_spec(spec: Any) -> ProgramSpec:
    """The program part of a loaded spec."""
    assert spec.program is not None, "not a kind: program spec"
    program: ProgramSpec = spec.program
    return program


def reference_path(spec: Any) -> Path:
    """The reference program of a spec (``reference:`` relative to the spec file)."""
    assert spec.reference is not None, "the spec names no reference"
    return Path(spec.reference)
