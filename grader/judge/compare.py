"""Comparison modes: is the student's value the right answer, and if not, why not.

Values reaching this module are plain data decoded by the protocol codec (lists, tuples,
dicts, sets, str, int, float, bool, None); nothing here ever touches an object built by
student code. Each mode returns a :class:`Judgement` whose message speaks to the student.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Mapping, Sequence

from grader.spec.model import Compare


@dataclass(frozen=True)
class Judgement:
    passed: bool
    fraction: float = 0.0  # share of the case's points earned (partial credit)
    message: str = ""

    @classmethod
    def ok(cls, message: str = "") -> "Judgement":
        return cls(True, 1.0, message)

    @classmethod
    def wrong(cls, message: str, fraction: float = 0.0) -> "Judgement":
        return cls(False, fraction, message)


@dataclass(frozen=True)
class JudgeContext:
    """What a comparison may need beyond the two values: the case's inputs and the reference."""

    args: Sequence[Any] = ()
    reference: ModuleType | None = None
    function: str = ""
    validators: Mapping[str, Callable[..., "Judgement"]] = field(default_factory=dict)  # the spec's (grader.judge.validators)
    answers: Sequence[Any] | None = None  # ``one_of``'s accepted answers when the plan listed them already


Comparator = Callable[[Any, Any, Mapping[str, Any], JudgeContext], Judgement]
COMPARATORS: dict[str, Comparator] = {}


def comparator(name: str) -> Callable[[Comparator], Comparator]:
    """Register a comparison mode under the name a spec's ``compare:`` uses."""

    def register(fn: Comparator) -> Comparator:
        COMPARATORS[name] = fn
        return fn

    return register


#: Modes under which identical values (exactly the same types all the way down) are right.
_EQUALITY_MODES = frozenset({"exact", "float", "string"})
_RIGHT = Judgement(True, 1.0, "")


def judge(expected: Any, actual: Any, compare: Compare, context: JudgeContext = JudgeContext()) -> Judgement:
    if compare.mode in _EQUALITY_MODES and _identical(expected, actual):
        return _RIGHT       # most answers are right: no comparator built, nothing to explain
    if compare.mode == "validator":
        name = compare.options["name"]
        if name not in context.validators:
            raise LookupError(f"no validator {name!r}: the spec's validators module does not define it")
        return context.validators[name](expected, actual, compare.options, context)
    return COMPARATORS[compare.mode](expected, actual, compare.options, context)


def type_name(value: Any) -> str:
    names = {bool: "bool", int: "int", float: "float", str: "str", list: "list", tuple: "tuple",
             dict: "dict", set: "set", frozenset: "frozenset", type(None): "None"}
    return names.get(type(value), type(value).__name__)


def show(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_LEAVES = frozenset({str, int, bool, type(None), bytes})
_NESTS = frozenset({list, tuple, dict})


def _identical(expected: Any, actual: Any) -> bool:
    """Equal values of exactly the same types all the way down: equal under every comparison
    mode, so the walk that would explain a difference is not needed (most answers are right).
    False means only "look closer" (floats, sets, a bool for an int ...)."""
    kind = type(expected)
    if kind is not type(actual):
        return False
    if kind in _LEAVES:
        return bool(expected == actual)
    if kind is list or kind is tuple:
        if len(expected) != len(actual):
            return False
        for e, a in zip(expected, actual):
            inner = type(e)
            if inner is not type(a) or not (e == a if inner in _LEAVES else inner in _NESTS and _identical(e, a)):
                return False
        return True
    if kind is dict:
        return expected.keys() == actual.keys() and all(_identical(v, actual[k]) for k, v in expected.items())
    return False


class _Equal:
    """Structural, type-aware equality with a pointer to the first difference."""

    def __init__(self, *, number: Callable[[Any, Any], bool], text: Callable[[str], str], strict_sequences: bool):
        self.number = number
        self.text = text
        self.strict_sequences = strict_sequences

    def diff(self, expected: Any, actual: Any, where: str = "") -> str | None:
        """None when equal, else a sentence saying where and how they differ."""
        if _identical(expected, actual):
            return None
        return self._diff(expected, actual, where)

    def _diff(self, expected: Any, actual: Any, where: str) -> str | None:
        at = f" at {where}" if where else ""
        if isinstance(expected, bool) or isinstance(actual, bool):
            if type(expected) is not type(actual):
                return f"expected {type_name(expected)} {show(expected)}{at}, got {type_name(actual)} {show(actual)}"
            return None if expected == actual else f"expected {show(expected)}{at}, got {show(actual)}"
        if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
            return None if self.number(expected, actual) else f"expected {show(expected)}{at}, got {show(actual)}"
        if isinstance(expected, str) and isinstance(actual, str):
            if self.text(expected) == self.text(actual):
                return None
            return f"expected {show(expected)}{at}, got {show(actual)}"
        if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
            if self.strict_sequences and type(expected) is not type(actual):
                return f"expected a {type_name(expected)}{at}, got a {type_name(actual)}"
            if len(expected) != len(actual):
                return f"expected {len(expected)} item(s){at}, got {len(actual)}: expected {show(expected)}, got {show(actual)}"
            for i, (e, a) in enumerate(zip(expected, actual)):
                problem = self._diff(e, a, f"{where}[{i}]")
                if problem:
                    return problem
            return None
        if isinstance(expected, dict) and isinstance(actual, dict):
            if set(expected) != set(actual):
                return f"expected keys {show(sorted(map(repr, expected)))}{at}, got {show(sorted(map(repr, actual)))}"
            for key in expected:
                problem = self._diff(expected[key], actual[key], f"{where}[{key!r}]")
                if problem:
                    return problem
            return None
        if isinstance(expected, (set, frozenset)) and isinstance(actual, (set, frozenset)):
            return None if expected == actual else f"expected {show(expected)}{at}, got {show(actual)}"
        if expected is None and actual is None:
            return None
        return f"expected {type_name(expected)} {show(expected)}{at}, got {type_name(actual)} {show(actual)}"


def _outputs(expected: Any, actual: Any, equal: _Equal) -> Judgement:
    """A tuple from the reference stands for several outputs (MATLAB's [a, b] = f(...))."""
    if isinstance(expected, tuple) and not equal.strict_sequences:
        if not isinstance(actual, (tuple, list)):
            return Judgement.wrong(f"expected {len(expected)} outputs (return {', '.join('…' for _ in expected)}), got a single {type_name(actual)} {show(actual)}")
        if len(actual) != len(expected):
            return Judgement.wrong(f"expected {len(expected)} outputs, got {len(actual)}")
        for i, (e, a) in enumerate(zip(expected, actual)):
            problem = equal.diff(e, a)
            if problem:
                return Judgement.wrong(f"output {i + 1}: {problem}")
        return Judgement.ok()
    problem = equal.diff(expected, actual)
    return Judgement.ok() if problem is None else Judgement.wrong(problem)


def _exact_number(a: Any, b: Any) -> bool:
    return bool(a == b)


@comparator("exact")
def exact(expected: Any, actual: Any, options: Mapping[str, Any], context: JudgeContext) -> Judgement:
    strict = options.get("sequence_types", "lenient") == "strict"
    return _outputs(expected, actual, _Equal(number=_exact_number, text=lambda s: s, strict_sequences=strict))


@comparator("float")
def close(expected: Any, actual: Any, options: Mapping[str, Any], context: JudgeContext) -> Judgement:
    rel, abs_ = float(options.get("rel", 1e-9)), float(options.get("abs", 1e-9))

    def number(a: Any, b: Any) -> bool:
        try:
            return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)
        except OverflowError:       # an int past float's range (the codec allows 4,300 digits): exactly
            return bool(a == b)

    return _outputs(expected, actual, _Equal(number=number, text=lambda s: s, strict_sequences=False))


@comparator("string")
def string(expected: Any, actual: Any, options: Mapping[str, Any], context: JudgeContext) -> Judgement:
    def normalise(s: str) -> str:
        if options.get("strip", True):
            s = s.strip()
        if options.get("collapse_whitespace", False):
            s = " ".join(s.split())
        if options.get("casefold", False):
            s = s.casefold()
        return s

    return _outputs(expected, actual, _Equal(number=_exact_number, text=normalise, strict_sequences=False))


def _canonical(value: Any) -> Any:
    """A hashable, order-free key for plain data, so multisets can be compared without sorting mixed types."""
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_canonical(v) for v in value))
    if isinstance(value, dict):
        return ("dict", frozenset((_canonical(k), _canonical(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(_canonical(v) for v in value))
    return (type_name(value), value)


@comparator("unordered")
def unordered(expected: Any, actual: Any, options: Mapping[str, Any], context: JudgeContext) -> Judgement:
    if not isinstance(actual, (list, tuple)):
        return Judgement.wrong(f"expected a list, got {type_name(actual)} {show(actual)}")
    want, got = Counter(map(_canonical, expected)), Counter(map(_canonical, actual))
    if want == got:
        return Judgement.ok()
    missing, extra = sum((want - got).values()), sum((got - want).values())
    return Judgement.wrong(f"the items differ (order ignored): {missing} expected item(s) missing, {extra} unexpected; expected {show(expected)}, got {show(actual)}")


def partition_key(grouping: Any) -> frozenset[Any] | None:
    """A grouping as a multiset of multisets of cards, or None when it is not list-of-lists-of-str."""
    if not isinstance(grouping, (list, tuple)):
        return None
    groups = []
    for group in grouping:
        if not isinstance(group, (list, tuple)) or not all(isinstance(card, str) for card in group):
            return None
        groups.append(tuple(sorted(group)))
    return frozenset(Counter(groups).items())


@comparator("partitions")
def partitions(expected: Any, actual: Any, options: Mapping[str, Any], context: JudgeContext) -> Judgement:
    if not isinstance(actual, (list, tuple)):
        return Judgement.wrong(f"expected a list of groupings, got {type_name(actual)} {show(actual)}")
    got_keys = [partition_key(g) for g in actual]
    if any(k is None for k in got_keys):
        bad = next(g for g, k in zip(actual, got_keys) if k is None)
        return Judgement.wrong(f"each grouping must be a list of lists of cards; got {show(bad)}")
    want, got = set(map(partition_key, expected)), set(got_keys)
    duplicates = len(got_keys) - len(got)
    if want == got and not duplicates:
        return Judgement.ok()
    parts = []
    if want - got:
        parts.append(f"{len(want - got)} optimal grouping(s) missing")
    if got - want:
        parts.append(f"{len(got - want)} grouping(s) that are not optimal")
    if duplicates:
        parts.append(f"{duplicates} grouping(s) listed twice")
    return Judgement.wrong(f"expected {len(want)} optimal grouping(s), got {len(got_keys)}: " + ", ".join(parts))


@comparator("one_of")
def one_of(expected: Any, actual: Any, options: Mapping[str, Any], context: JudgeContext) -> Judgement:
    """Right when the value equals (exactly) any answer the reference's ``answers`` function lists.

    For a handout that allows several readings: the reference names them all, so no
    student is marked down for a reading the handout permits.
    """
    answers = list(context.answers) if context.answers else accepted_answers(expected, options, context.reference, context.args)
    equal = _Equal(number=_exact_number, text=lambda s: s, strict_sequences=False)
    closest = _outputs(answers[0], actual, equal)
    for answer in answers:
        judgement = _outputs(answer, actual, equal)
        if judgement.passed:
            return judgement
    if len(answers) == 1:
        return closest
    return Judgement.wrong(f"matches none of the {len(answers)} answers the handout allows; compared with the first: {closest.message}")


def accepted_answers(expected: Any, options: Mapping[str, Any], reference: ModuleType | None, args: Sequence[Any]) -> list[Any]:
    """The accepted answers, from the trusted reference (a student bundle has only the pin)."""
    name = options.get("answers")
    fn = getattr(reference, name, None) if reference is not None and name else None
    if fn is None:
        return [expected]
    import copy

    return list(fn(*copy.deepcopy(list(args)))) or [expected]
