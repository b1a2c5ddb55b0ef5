"""COMP10001-Go's validators: its functions with many right answers (any legal card, any valid grouping).

Named by specs/comp10001go.yaml (`validators: ../reference/comp10001go_validators.py`) and used by
`compare: {mode: validator, name: ...}`. Trusted course code, run in the parent: a validator gets the
reference's own answer, the student's value (plain data), the spec's options and the case's inputs
plus the trusted reference module, and decides.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping

from grader.judge.compare import JudgeContext, Judgement, partition_key, show, type_name


def _reference(context: JudgeContext, name: str) -> Callable[..., Any]:
    fn = getattr(context.reference, name, None)
    if not callable(fn):
        raise LookupError(f"the reference module has no {name}() needed by this validator")
    return fn


def go_play(expected: Any, actual: Any, options: Mapping[str, Any], context: JudgeContext) -> Judgement:
    """comp10001go_play: any card of the hand is a legal discard."""
    hand = context.args[2]
    if not isinstance(actual, str):
        return Judgement.wrong(f"must return one card as a string such as {hand[0]!r}, got {type_name(actual)} {show(actual)}")
    if actual not in hand:
        return Judgement.wrong(f"returned {actual!r}, which is not in the hand {show(hand)}")
    return Judgement.ok()


def go_group(expected: Any, actual: Any, options: Mapping[str, Any], context: JudgeContext) -> Judgement:
    """comp10001go_group: a valid grouping of exactly this player's ten discards.

    With ``quality: true`` a valid grouping earns half the points, and the other half in
    proportion to how much of the gap between all-singletons and the best score it closes.
    """
    history, player = context.args[0], context.args[1]
    discards = [turn[player] for turn in history]
    if not isinstance(actual, (list, tuple)) or not all(
        isinstance(g, (list, tuple)) and all(isinstance(c, str) for c in g) for g in actual
    ):
        return Judgement.wrong(f"must return a list of lists of cards, got {show(actual)}")
    cards = [card for group in actual for card in group]
    if Counter(cards) != Counter(discards):
        missing = sorted((Counter(discards) - Counter(cards)).elements())
        extra = sorted((Counter(cards) - Counter(discards)).elements())
        detail = "; ".join(p for p in (f"missing {missing}" if missing else "", f"not your discards {extra}" if extra else "") if p)
        return Judgement.wrong(f"the groups must hold exactly player {player}'s ten discards: {detail}")
    groups = [list(g) for g in actual]
    if context.reference is None:
        # A student bundle ships no reference to validate with: only the sample answer is known.
        if partition_key(actual) == partition_key(expected):
            return Judgement.ok()
        return Judgement.wrong(f"differs from the sample grouping {show(expected)}; other valid groupings are accepted by the full grader, which can check validity")
    if not _reference(context, "comp10001go_valid_groups")(groups):
        return Judgement.wrong(f"the grouping is not valid (each group must be a single card, an N-of-a-kind or a run): {show(actual)}")
    if not options.get("quality", False):
        return Judgement.ok()
    score = _reference(context, "comp10001go_score_grouping")
    mine = score(groups)
    best = score([list(g) for g in expected])
    floor = score([[c] for c in discards])
    if mine >= best or best <= floor:
        return Judgement.ok(f"scores {mine}, the best possible")
    fraction = 0.5 + 0.5 * max(0.0, (mine - floor) / (best - floor))
    return Judgement.wrong(f"valid, but scores {mine} where {best} is possible", fraction=round(fraction, 4))


VALIDATORS = {"go_play": go_play, "go_group": go_group}
