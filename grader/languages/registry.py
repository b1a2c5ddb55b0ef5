"""The one place that lists the languages: the built-in ones, then every installed plug-in.

A course adds a language without editing grader/: a package declares an entry point in the
group ``grader.languages`` whose value is a :class:`~grader.languages.base.Language`
instance (or a class to instantiate), e.g. in its pyproject.toml::

    [project.entry-points."grader.languages"]
    octave = "my_course.octave:OCTAVE"

An installed package reaches every machine that grades (Dask workers, Gradescope's image)
the same way the grader does, which a file next to the spec would not.
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import PurePath
from typing import Mapping

from .base import Language

ENTRY_POINT_GROUP = "grader.languages"

#: Languages shipped with the grader: name -> "module:attribute".
BUILTIN: Mapping[str, str] = {
    "python": "grader.languages.python:PYTHON",
    "java": "grader.languages.java:JAVA",
    "matlab": "grader.languages.matlab:MATLAB",
}


class UnknownLanguage(LookupError):
    def __init__(self, name: str, known: tuple[str, ...]):
        super().__init__(f"unknown language {name!r} (known: {', '.join(known)})")
        self.name = name
        self.known = known


def _resolve(target: object, origin: str) -> Language:
    language = target() if isinstance(target, type) else target
    if not isinstance(language, Language) or not language.name or not language.suffixes:
        raise TypeError(f"{origin} is not a grader Language with a name and suffixes")
    return language


@lru_cache(maxsize=None)
def _builtin(name: str) -> Language:
    module, _, attribute = BUILTIN[name].partition(":")
    return _resolve(getattr(importlib.import_module(module), attribute), BUILTIN[name])


@lru_cache(maxsize=1)
def _registry() -> dict[str, Language]:
    from importlib.metadata import entry_points   # slow to import: only when a plug-in may be asked for

    found: dict[str, Language] = {name: _builtin(name) for name in BUILTIN}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in found:
            continue  # a plug-in never replaces a built-in language
        language = _resolve(entry.load(), f"entry point {entry.name} = {entry.value}")
        found[language.name] = language
    return found


def languages() -> tuple[Language, ...]:
    """Every known language, built-ins first."""
    return tuple(_registry().values())


def language_names() -> tuple[str, ...]:
    return tuple(_registry())


def get_language(name: str) -> Language:
    """The language registered under ``name``, or :class:`UnknownLanguage`.

    A built-in name is resolved alone (a plug-in never replaces a built-in): grading a
    Python assignment imports neither the other languages nor the entry-point metadata."""
    if name in BUILTIN:
        return _builtin(name)
    try:
        return _registry()[name]
    except KeyError:
        raise UnknownLanguage(name, language_names()) from None


def language_of(filename: str, among: tuple[Language, ...] | None = None) -> Language | None:
    """The language a file belongs to, by its suffix (among ``among``, default all)."""
    suffix = PurePath(filename).suffix
    return next((lang for lang in (among or languages()) if suffix in lang.suffixes), None)


def refresh() -> None:
    """Forget the registry, so newly installed plug-ins are found (tests)."""
    _registry.cache_clear()
