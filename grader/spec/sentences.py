"""One plain sentence per JSON Schema error, in the instructor's terms, with "did you mean".

jsonschema's own messages print regular expressions ("'sum' does not match '^[A-Za-z_]...'")
or say nothing useful ("is not valid under any of the given schemas"); these say what a
value should look like and, where a close valid value exists, suggest it.
"""
from __future__ import annotations

import builtins
import difflib
from typing import Any

import jsonschema

# Patterns of schema.json, described the way a person would.
_PATTERNS = {
    "^[a-z][a-z0-9_]*$": "use lowercase letters, digits and underscores, starting with a letter",
    "^[A-Za-z_][A-Za-z0-9_]*$": "a name is letters, digits and underscores, not starting with a digit",
}
_BAN_PATTERN_START = "^[A-Za-z_][A-Za-z0-9_]*(\\.["


def _did_you_mean(value: Any, choices: list[Any]) -> str:
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, [str(c) for c in choices], n=1, cutoff=0.5)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _enums(schemas: list[dict[str, Any]]) -> list[Any]:
    return [v for s in schemas for v in s.get("enum", [])] + [s["const"] for s in schemas if "const" in s]


def _ban_sentence(value: str) -> str:
    base = value.split("(", 1)[0]
    hint = f" (did you mean 'builtins.{base}'?)" if "." not in base and hasattr(builtins, base) else ""
    return f"'{value}' is not a qualified name such as builtins.sum or numpy.cumsum{hint}"


def sentence(error: jsonschema.ValidationError) -> str:
    """The message for ``error``, without the location (the caller adds path:line:col)."""
    value = error.instance
    expected: Any = error.validator_value
    if error.validator in ("oneOf", "anyOf"):
        alternatives = expected
        choices = _enums(alternatives)
        if isinstance(value, str) and choices:
            return f"'{value}' is not one of {', '.join(map(str, choices))}{_did_you_mean(value, choices)}"
        if error.context:
            return sentence(jsonschema.exceptions.best_match(error.context))
    if error.validator == "enum":
        return f"{value!r} is not one of {', '.join(map(str, expected))}{_did_you_mean(value, expected)}"
    if error.validator == "pattern":
        pattern = str(error.validator_value)
        if pattern.startswith(_BAN_PATTERN_START):
            return _ban_sentence(str(value))
        return f"'{value}' is not allowed here: {_PATTERNS.get(pattern, 'it does not have the required form')}"
    if error.validator == "exclusiveMinimum":
        return f"{value!r} is too small: it must be greater than {error.validator_value}"
    if error.validator == "minimum":
        return f"{value!r} is too small: it must be at least {error.validator_value}"
    return error.message
