"""Languages a submission may be written in: one module each behind one interface, one registry.

- :mod:`grader.languages.base`: the :class:`Language` interface (files, decoding, build,
  a child that serves calls or runs a program, bans, style).
- :mod:`grader.languages.registry`: the list of languages, built-in and installed
  (entry-point group ``grader.languages``).
- :mod:`grader.languages.python`, :mod:`grader.languages.java`: the built-in ones.
"""
from .base import Build, BuildError, DecodeProblem, FunctionSession, Language, NotSupported
from .registry import ENTRY_POINT_GROUP, UnknownLanguage, get_language, language_names, language_of, languages

__all__ = ["Build", "BuildError", "DecodeProblem", "ENTRY_POINT_GROUP", "FunctionSession", "Language", "NotSupported",
           "UnknownLanguage", "get_language", "language_names", "language_of", "languages"]
