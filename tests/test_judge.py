"""The judge: every comparison mode, validators, scoring and ban penalties."""
from __future__ import annotations

import types

import pytest

from conftest import ROOT

from grader.judge.compare import COMPARATORS, JudgeContext, judge
from grader.judge.score import Observation, judge_case, score_function
from grader.judge.validators import load_validators
from grader.judge.verdict import Violation
from grader.spec.model import BanPolicy, Case, Compare, FunctionSpec, TimeLimit


def j(expected, actual, mode="exact", **options):
    return judge(expected, actual, Compare(mode, options))


@pytest.mark.parametrize(
    "expected, actual, ok",
    [
        (3, 3, True),
        (3, 3.0, True),
        (True, 1, False),  # True is not 1
        (1, True, False),
        (False, 0, False),
        ("Player 1 won!", ["Player 1 won!"], False),  # a list where a string is expected
        ([1, 2], [1, 2], True),
        ([1, 2], (1, 2), True),  # inner sequences are vectors either way
        ([1, 2], [2, 1], False),
        (("It's a tie!", [1, 1]), ("It's a tie!", [1, 1]), True),
        (("It's a tie!", [1, 1]), ["It's a tie!", [1, 1]], True),  # several outputs returned as a list
        (("It's a tie!", [1, 1]), "It's a tie!", False),
        (("a", [1]), ("a", [1], 3), False),
        ({"a": 1}, {"a": 1}, True),
        ({"a": 1}, {"a": 2}, False),
        ({1, 2}, {2, 1}, True),
        (None, None, True),
        (None, 0, False),
        ("abc", "abc ", False),
        # nested: equal under == but not the same values (the fast path for identical answers must not take them)
        ([[1, 2], [3]], [[1, 2], [3]], True),
        ([[1, 0]], [[True, False]], False),
        ([{"k": [1]}], [{"k": [1.0]}], True),
        ([{"k": [0]}], [{"k": [False]}], False),
        ([(1, 2)], [[1, 2]], True),
        ([[1.0, 2.5]], [[1, 2.5]], True),
    ],
)
def test_exact_is_type_aware(expected, actual, ok):
    assert j(expected, actual).passed is ok


def test_exact_messages_say_where_and_what():
    verdict = j(("Player 1 won!", [2, 1]), ("Player 1 won!", [2, 2]))
    assert verdict.message == "output 2: expected 1 at [1], got 2"
    assert "expected str 'x', got list ['x']" in j("x", ["x"]).message
    assert "expected bool True, got int 1" in j(True, 1).message


def test_strict_sequence_types():
    assert not j([1, 2], (1, 2), sequence_types="strict").passed
    assert not j([[1, 2]], [(1, 2)], sequence_types="strict").passed
    assert j((1, 2), (1, 2), sequence_types="strict").passed


def test_float_tolerance():
    assert j(0.1 + 0.2, 0.3, "float").passed
    assert not j(0.3, 0.31, "float").passed
    assert j([1.0, [2.0]], [1.0000001, [2.0]], "float", rel=1e-6).passed
    assert j(100.0, 101.0, "float", abs=1.5).passed
    assert not j(True, 1.0, "float").passed
    # An int past float's range, which a student's code can return, is judged exactly (it raised OverflowError)
    assert not j(1.5, 10**400, "float").passed and j(10**400, 10**400, "float").passed


def test_string_normalisation():
    assert j("Hello  World", " hello world ", "string", casefold=True, collapse_whitespace=True).passed
    assert not j("Hello", "hello", "string").passed
    assert j("Hello", " Hello\n", "string").passed


def test_unordered():
    assert j([1, 2, 2, [3]], [[3], 2, 1, 2], "unordered").passed
    verdict = j([1, 2, 2], [1, 2], "unordered")
    assert not verdict.passed and "1 expected item(s) missing" in verdict.message
    assert not j([1], "1", "unordered").passed


def test_partitions_ignore_order_at_every_level():
    expected = [[["AS", "5C"], ["0D"]], [["0D", "AS"], ["5C"]]]
    actual = [[["5C"], ["AS", "0D"]], [["0D"], ["5C", "AS"]]]
    assert j(expected, actual, "partitions").passed
    one_only = j(expected, actual[:1], "partitions")
    assert not one_only.passed and "1 optimal grouping(s) missing" in one_only.message
    dup = j(expected, actual + actual[:1], "partitions")
    assert not dup.passed and "listed twice" in dup.message
    assert "list of lists of cards" in j(expected, [["AS"]], "partitions").message


GO = types.SimpleNamespace(
    comp10001go_valid_groups=lambda groups: all(len(g) == 1 or len({c[0] for c in g}) == 1 for g in groups),
    comp10001go_score_grouping=lambda groups: sum(10 * len(g) if len(g) > 1 else -int(g[0][0]) for g in groups),
)


GO_VALIDATORS = load_validators(ROOT / "reference" / "comp10001go_validators.py")


def test_go_play_validator():
    ctx = JudgeContext(args=([], 0, ["QC", "2S"]), reference=GO, validators=GO_VALIDATORS)
    play = Compare("validator", {"name": "go_play"})
    assert judge("QC", "2S", play, ctx).passed
    assert "not in the hand" in judge("QC", "3S", play, ctx).message
    assert "one card as a string" in judge("QC", ["QC"], play, ctx).message


def test_go_group_validator_with_quality():
    history = [["2S", "x", "x", "x"], ["2C", "x", "x", "x"], ["3H", "x", "x", "x"]]
    ctx = JudgeContext(args=(history, 0), reference=GO, validators=GO_VALIDATORS)
    group = Compare("validator", {"name": "go_group", "quality": True})
    best = [["2S", "2C"], ["3H"]]
    assert judge(best, [["2C", "2S"], ["3H"]], group, ctx).passed
    singles = judge(best, [["2S"], ["2C"], ["3H"]], group, ctx)
    assert not singles.passed and singles.fraction == 0.5
    assert "missing ['3H']" in judge(best, [["2S", "2C"]], group, ctx).message
    assert "not valid" in judge(best, [["2S", "3H"], ["2C"]], group, ctx).message
    plain = Compare("validator", {"name": "go_group"})
    assert judge(best, [["2S"], ["2C"], ["3H"]], plain, ctx).passed


def test_every_declared_mode_is_registered():
    assert set(COMPARATORS) == {"exact", "float", "string", "unordered", "partitions", "one_of"}
    assert set(GO_VALIDATORS) == {"go_play", "go_group"}


def test_one_of_accepts_every_answer_the_reference_lists():
    class Ref:
        @staticmethod
        def answers(x):
            return [(x, [1]), (x, [2])]

    ctx = JudgeContext(args=("p",), reference=Ref, function="f")
    mode = Compare("one_of", {"answers": "answers"})
    assert judge(("p", [1]), ["p", [2]], mode, ctx).passed
    wrong = judge(("p", [1]), ["p", [3]], mode, ctx)
    assert not wrong.passed and "2 answers" in wrong.message and "output 2" in wrong.message
    # Without a reference (a student bundle) only the pinned answer is known.
    assert not judge(("p", [1]), ["p", [2]], mode, JudgeContext(args=("p",))).passed


def make_fn(points=10.0, penalty="zero", names=("builtins.sum",), n=4, deduct=0.0):
    cases = tuple(Case(f"c{i}", "f", (i,), "public" if i % 2 else "hidden", 1.0) for i in range(n))
    return FunctionSpec("f", ("x",), points, Compare(), TimeLimit(seconds=1), BanPolicy(names=names, penalty=penalty, deduct=deduct), cases)


def test_case_verdicts_and_hidden_cases_keep_their_secrets():
    fn = make_fn()
    hidden, public = fn.cases[0], fn.cases[1]
    wrong_hidden = judge_case(fn, hidden, 42, Observation("returned", 41), JudgeContext())
    assert wrong_hidden.status == "failed" and wrong_hidden.score == 0
    assert "42" not in wrong_hidden.message and wrong_hidden.to_json().get("expected") is None
    assert "expected" not in wrong_hidden.to_json() and "args" not in wrong_hidden.to_json()
    right_public = judge_case(fn, public, 42, Observation("returned", 42, time_s=0.01), JudgeContext())
    assert right_public.status == "passed" and right_public.score == 2.5
    assert right_public.to_json()["expected"] == 42
    for outcome, status in [("raised", "error"), ("timeout", "timeout"), ("crashed", "crashed"), ("not-run", "error")]:
        t = judge_case(fn, public, 1, Observation(outcome, message="why"), JudgeContext())
        assert (t.status, t.score, t.message) == (status, 0.0, "why")


def _passing(fn):
    return [judge_case(fn, c, 1, Observation("returned", 1), JudgeContext()) for c in fn.cases]


def test_zero_penalty_zeroes_the_function_and_marks_tests_banned():
    fn = make_fn()
    v = Violation("banned-call", "builtins.sum", "static", 3, functions=("f",))
    result, tests = score_function(fn, _passing(fn), [v], "f")
    assert result.score == 0 and {t.status for t in tests} == {"banned"}
    assert "uses banned builtins.sum (line 3)" in tests[0].message


def test_deduct_and_warn_penalties():
    fn = make_fn(penalty="deduct", deduct=3)
    v = Violation("banned-call", "builtins.sum", "static", 3, functions=("f",))
    assert score_function(fn, _passing(fn), [v], "f")[0].score == 7
    warn = make_fn(penalty="warn")
    flagged = Violation("banned-call", "builtins.sum", "static", 3, functions=("f",), counts=False)
    result, tests = score_function(warn, _passing(warn), [flagged], "f")
    assert result.score == 10 and result.violations == (flagged,)
    assert {t.status for t in tests} == {"passed"}


def test_runtime_violation_with_deduct_marks_only_its_case():
    fn = make_fn(penalty="deduct", deduct=1)
    v = Violation("banned-call", "builtins.sum", "runtime", 5, functions=("f",), case="c1")
    result, tests = score_function(fn, _passing(fn), [v], "f")
    assert [t.status for t in tests] == ["passed", "banned", "passed", "passed"]
    assert result.score == 10 - 2.5 - 1


def test_partial_credit_weights():
    fn = FunctionSpec("f", (), 9.0, Compare(), TimeLimit(), BanPolicy(), (Case("a", "f", (), weight=2), Case("b", "f", (), weight=1)))
    tests = [judge_case(fn, fn.cases[0], 1, Observation("returned", 1), JudgeContext()),
             judge_case(fn, fn.cases[1], 1, Observation("returned", 2), JudgeContext())]
    result, _ = score_function(fn, tests, [], "f")
    assert result.score == 6.0 and result.max_score == 9.0
