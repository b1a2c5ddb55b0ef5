"""Which normaliser reads which language, keyed by the language registry's names.

A file's language is the registry's (grader.languages, by suffix); a registered language
gains similarity checking by an entry here (a parser-backed function from the submission's
files to units of tokens). A file in a language with no entry is not compared, and the
submission says so.
"""
from __future__ import annotations

from functools import partial
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

def language_of(name: str) -> str | None:
    """The registered language of a file, by its name, or None when no normaliser reads it."""
    language = registered_language(name)
    return language.name if language is not None and language.name in NORMALISERS else None
