"""Validators: checks for functions with many right answers, where equality with the reference is wrong.

A validator is course code and lives beside its spec: the spec names a trusted module
(``validators: ../reference/x_validators.py``) whose ``VALIDATORS`` maps a name to a function
``(expected, actual, options, context) -> Judgement``; ``compare: {mode: validator, name: NAME}``
picks one. ``expected`` is the reference's own answer, ``actual`` the student's plain value,
``options`` the rest of the ``compare:`` mapping, ``context`` the case's inputs and the reference.
"""
from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Mapping

from .compare import JudgeContext, Judgement

Validator = Callable[[Any, Any, Mapping[str, Any], JudgeContext], Judgement]


class ValidatorError(LookupError):
    """A validators module that does not declare its validators as it should."""


def validators_of(module: ModuleType) -> dict[str, Validator]:
    """The module's ``VALIDATORS`` mapping, checked: names to callables."""
    declared = getattr(module, "VALIDATORS", None)
    if not isinstance(declared, Mapping):
        raise ValidatorError("it defines no VALIDATORS mapping (name -> function)")
    bad = sorted(str(name) for name, fn in declared.items() if not isinstance(name, str) or not callable(fn))
    if bad:
        raise ValidatorError(f"VALIDATORS entries that are not name -> function: {', '.join(bad)}")
    return dict(declared)


def load_validators(path: Path | None) -> dict[str, Validator]:
    """The validators a spec names (none without a ``validators:`` module). Trusted code, parent only."""
    if path is None:
        return {}
    from grader.spec.loader import load_trusted_module

    return validators_of(load_trusted_module(path, "validators"))
