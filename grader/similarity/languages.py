"""Which normaliser reads which language: one entry per language name, the registry's names.

A language added to the grader gains similarity checking by adding its normaliser here (a
parser-backed function from the submission's files to units of tokens); a language with no
entry is reported per submission as not compared.
"""
from __future__ import annotations

from functools import partial
from pathlib import PurePath
from typing import Callable

from grader.similarity import python_lang
from grader.similarity.model import Normalised
from grader.similarity.treesitter_lang import JAVA, MATLAB, normalise_with

Normaliser = Callable[[dict[str, str], frozenset[str]], Normalised]

NORMALISERS: dict[str, Normaliser] = {
    "python": python_lang.normalise,
    "java": partial(normalise_with, JAVA),
    "matlab": partial(normalise_with, MATLAB),
}

SUFFIXES: dict[str, str] = {".py": "python", ".java": "java", ".m": "matlab"}


def language_of(name: str) -> str | None:
    """The language of a file by its name, or None when no normaliser reads it."""
    return SUFFIXES.get(PurePath(name).suffix.lower())
