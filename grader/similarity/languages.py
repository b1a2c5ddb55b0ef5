"""Which normaliser reads which language, keyed by the language registry's names.

A file's language is the registry's (grader.languages, by suffix); a registered language
gains similarity checking by an entry here (a parser-backed function from the submission's
files to units of tokens). A file in a language with no entry is not compared, and the
submission says so.
"""
from __future__ import annotations

from functools import partial
from pathlib import PurePath
from typing import Callable

from grader.languages import language_of as registered_language
from grader.similarity import python_lang
from grader.similarity.model import Normalised
from grader.similarity.treesitter_lang import JAVA, MATLAB, normalise_with

Normaliser = Callable[[dict[str, str], frozenset[str]], Normalised]

NORMALISERS: dict[str, Normaliser] = {
    "python": python_lang.normalise,
    "java": partial(normalise_with, JAVA),
    "matlab": partial(normalise_with, MATLAB),
}

# Until MATLAB is registered (issue #18), its files are still recognised for comparison here.
_NOT_YET_REGISTERED = {".m": "matlab"}


def language_of(name: str) -> str | None:
    """The registered language of a file, by its name, or None when no normaliser reads it."""
    language = registered_language(name)
    found = language.name if language is not None else _NOT_YET_REGISTERED.get(PurePath(name).suffix)
    return found if found in NORMALISERS else None
