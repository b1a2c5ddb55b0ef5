"""Tests of the COMP10001-Go reference, its case generators and specs/comp10001go.yaml."""
from __future__ import annotations

import importlib.util
import itertools
import random
from collections import Counter
from math import factorial
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SPEC_PATH = ROOT / "specs" / "comp10001go.yaml"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


go = _load("_test_comp10001go", ROOT / "reference" / "comp10001go.py")
cases = _load("_test_comp10001go_cases", ROOT / "reference" / "comp10001go_cases.py")

DECK = [v + s for v in "A234567890JQK" for s in "SHDC"]
ACES = [c for c in DECK if c[0] == "A"]
VALUE = {ch: i + 1 for i, ch in enumerate("A234567890JQK")}

HISTORY9 = [['0S', 'KH', 'AC', '3C'], ['JH', 'AD', 'QS', '5H'], ['9C', '8S', 'QH', '9S'],
            ['8C', '9D', '0D', 'JS'], ['5C', 'AH', '5S', '4C'], ['8H', '2D', '6C', '2C'],
            ['8D', '4D', 'JD', 'AS'], ['0H', '6S', '2H', 'KC'], ['KS', 'KD', '7S', '6H']]
HISTORY10 = HISTORY9 + [['JC', 'QD', '4H', 'QC']]


def pkey(grouping):
    """A grouping as a hashable value, order irrelevant at both levels (repeats kept)."""
    return tuple(sorted(tuple(sorted(g)) for g in grouping))


def same_partitions(a, b):
    ka, kb = [pkey(g) for g in a], [pkey(g) for g in b]
    return len(ka) == len(set(ka)) and len(kb) == len(set(kb)) and set(ka) == set(kb)


# ---------------------------------------------------------------------------------------
# handout examples
# ---------------------------------------------------------------------------------------
HUXXY_EXAMPLES = [
    ([], True), ([['AC']], False), ([['AC', '2S']], False), ([['AC', '2S', '3H']], False),
    ([['AC', '2S', '4H']], False), ([['AC', '2H', '3S']], True), ([['3C', 'AS', '2H']], True),
    ([['0C', 'JH', 'QS', 'KH', '9D']], True), ([['2C', '2H']], False),
    ([['2C', '2H', '2C']], False), ([['2C', '2H', '2S', '2C']], False),
    ([['2C', '2H', '2S']], True), ([['2C', '2H', '2S', '2D']], True),
    ([['2C', '2H', '2S', '2D', '2S']], True),
    ([['2C', '2H', '2S', '2D', '2S'], ['0D', '9C', '8H']], True),
]


@pytest.mark.parametrize("groups,expected", HUXXY_EXAMPLES)
def test_huxxy_handout(groups, expected):
    assert go.comp10001huxxy_valid_table(groups) is expected


@pytest.mark.parametrize("groups,expected", [
    ([['KC', 'KH', 'KS', 'KD'], ['2C']], True),
    ([['KC', 'KH', 'KS', 'AD'], ['2C']], False),
    ([['KC', 'KH', 'KS', 'KD'], ['2C', '3H']], False),
    ([], True),
])
def test_valid_groups_handout(groups, expected):
    assert go.comp10001go_valid_groups(groups) is expected


def test_play_handout():
    assert go.comp10001go_play(HISTORY9, 3, ['QC']) == 'QC'


def test_group_handout():
    got = go.comp10001go_group(HISTORY10, 3)
    want = [['3C'], ['5H'], ['9S'], ['JS'], ['4C'], ['2C'], ['AS'], ['KC'], ['6H'], ['QC']]
    assert pkey(got) == pkey(want)


BP_EXAMPLES = [
    (['0H', '8S', '6H', 'AC', '0S', 'JS', '8C', '7C', '6D', 'QS'],
     [[['AC'], ['0H', '0S'], ['JS'], ['8S', '8C'], ['7C'], ['6H', '6D'], ['QS']]]),
    (['9D', '2S', '4D', '4H', '6D', 'AH', '2C', 'JH', '3C', '9H'],
     [[['4D', '4H'], ['6D'], ['AH'], ['2S', '2C'], ['JH'], ['3C'], ['9D', '9H']]]),
    (['3C', '5H', '9S', 'JS', '4C', '2C', 'AS', 'KC', '6H', 'QC'],
     [[['3C'], ['5H'], ['9S'], ['JS'], ['4C'], ['2C'], ['AS'], ['KC'], ['6H'], ['QC']]]),
    (['0D', 'AS', '5C', '8H', 'KS', 'AH', 'QH', 'AC'],
     [[['AS', '5C', '8H', 'AH'], ['0D', 'KS', 'QH', 'AC']],
      [['0D', 'AS', 'KS', 'QH'], ['5C', '8H', 'AH', 'AC']]]),
]


@pytest.mark.parametrize("cards,expected", BP_EXAMPLES)
def test_best_partitions_handout(cards, expected):
    assert same_partitions(go.comp10001go_best_partitions(cards), expected)


def test_best_partitions_empty_hand():
    assert go.comp10001go_best_partitions([]) == [[]]


# ---------------------------------------------------------------------------------------
# scoring and rules
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("group,score", [
    (['2S', 'AD', '4C'], 9), (['0C', 'AH', 'AC', 'KH'], 46), (['4C', '4H', '4S'], 24),
    (['9S'], -9), (['AD'], -20), (['KS'], -13), (['5C', '5D'], 10),
    (['7C', '7D', '7H', '7S'], 7 * 24), (['9D', '0S', 'JH', 'QC', 'KD'], 55),
])
def test_worked_scores(group, score):
    assert go.comp10001go_score_group(group) == score


@pytest.mark.parametrize("group", [
    ['AS', 'AH'], ['AS', 'AH', 'AD'], ['AS', 'AH', 'AD', 'AC'],          # Aces never a kind
    ['AH', '3S', '4H'], ['2S', '3H', 'AS'], ['QH', 'KS', 'AH'],          # Ace at a run end
    ['5C', 'AC', '7S'], ['0C', 'AC', 'AS', 'KH'],                         # Ace colour misfit
    ['KS', 'AH', '2S'], ['QH', 'KS', '2H'], ['KD', 'AS', '2H', '3S'],     # no K-A / K-2 wrap
    ['5C', 'AH', 'AS'], ['AC', 'AH', 'AS', '6D'],                         # two non-Aces needed
    ['2S', '3S', '4H'], ['2S', '3H', '5S'], ['2S', '3H'], [],             # colour, gap, short
    ['5C', '5D', '6H'], ['KC', 'KH', 'KS', 'AD'],
])
def test_invalid_groups(group):
    assert go.comp10001go_score_group(group) is None
    assert go.comp10001go_valid_groups([group]) is False


@pytest.mark.parametrize("group", [
    ['2S', 'AD', '4C'], ['AD', '4C', '2S'], ['0C', 'AH', 'AC', 'KH'], ['5C', 'AH', 'AS', '8H'],
    ['2S', '3H', '4C'], ['JD', 'QS', 'KH'], ['5C', '5D'], ['AS'], ['3H', 'AS', 'AH', 'AC', '7D'],
])
def test_valid_groups(group):
    assert go.comp10001go_score_group(group) is not None
    assert go.comp10001go_valid_groups([group]) is True


def test_score_grouping():
    assert go.comp10001go_score_grouping([['2S', 'AD', '4C'], ['9S'], ['AD']]) == 9 - 9 - 20
    assert go.comp10001go_score_grouping([['2S', '3S']]) is None
    assert go.comp10001go_score_grouping([]) == 0


def test_huxxy_rules():
    ok = go.comp10001huxxy_valid_table
    assert ok([['KS', 'AH', '2S']]) is False          # no wrap
    assert ok([['QH', 'KS', 'AD']]) is False          # Ace is 1, not 14
    assert ok([['2S', 'AD', '4C']]) is False          # Ace not wild in Huxxy
    assert ok([['7C', '7H', '7S', '7C', '7H']]) is False  # 5 of a kind missing D
    assert ok([['7C', '7H', '7S', '7C', '7D']]) is True
    assert ok([['2S', '3H', '3D', '4S']]) is False    # repeated value in a run


# ---------------------------------------------------------------------------------------
# brute-force cross-check of best_partitions (independent scorer, all set partitions)
# ---------------------------------------------------------------------------------------
def _bf_colour(card):
    return card[1] in "HD"


def _bf_score(group):
    """Independent scorer: tries every value 3..12 for every Ace (no shortcuts)."""
    vals = [VALUE[c[0]] for c in group]
    if len(group) == 1:
        return -20 if vals[0] == 1 else -vals[0]
    if len(set(vals)) == 1 and vals[0] != 1:
        return vals[0] * factorial(len(group))
    if len(group) < 3 or sum(v != 1 for v in vals) < 2:
        return None
    ace_pos = [i for i, v in enumerate(vals) if v == 1]
    best = None
    for assign in itertools.product(range(3, 13), repeat=len(ace_pos)):
        vs = list(vals)
        for i, a in zip(ace_pos, assign):
            vs[i] = a
        order = sorted(range(len(group)), key=lambda i: vs[i])
        if any(vs[order[k + 1]] != vs[order[k]] + 1 for k in range(len(order) - 1)):
            continue
        if any(_bf_colour(group[order[k + 1]]) == _bf_colour(group[order[k]])
               for k in range(len(order) - 1)):
            continue
        if vals[order[0]] == 1 or vals[order[-1]] == 1:
            continue
        s = sum(vs)
        best = s if best is None else max(best, s)
    return best


def _set_partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        yield [[first]] + part
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1:]


def brute_force_best(cards):
    cache = {}
    best, found = None, []
    for part in _set_partitions(list(cards)):
        total = 0
        for g in part:
            key = frozenset(g)
            if key not in cache:
                cache[key] = _bf_score(g)
            s = cache[key]
            if s is None:
                break
            total += s
        else:
            if best is None or total > best:
                best, found = total, [part]
            elif total == best:
                found.append(part)
    return best, found


def _bf_hands():
    rng = random.Random(20190501)
    hands = [[]]
    for _ in range(120):
        hands.append(rng.sample(DECK, rng.randint(1, 8)))
    non_aces = [c for c in DECK if c[0] != "A"]
    for _ in range(60):  # ace-heavy: 2-4 Aces
        k = rng.randint(2, 4)
        n = rng.randint(k + 2, 8)
        hands.append(rng.sample(ACES, k) + rng.sample(non_aces, n - k))
    for _ in range(40):  # run-heavy: a narrow window of values, maybe Aces
        lo = rng.randint(2, 9)
        window = [v + s for v in "A234567890JQK"[lo - 1:lo + 4] for s in "SHDC"]
        a = rng.randint(0, 2)
        hands.append(rng.sample(ACES, a) + rng.sample(window, 8 - a))
    hands.append(['0D', 'AS', '5C', '8H', 'KS', 'AH', 'QH', 'AC'])
    return hands


def test_best_partitions_matches_brute_force():
    multi = 0
    for hand in _bf_hands():
        best, found = brute_force_best(hand)
        got = go.comp10001go_best_partitions(hand)
        assert same_partitions(got, found), hand
        for grouping in got:
            assert go.comp10001go_score_grouping(grouping) == best
            assert Counter(c for g in grouping for c in g) == Counter(hand)
        multi += len(found) > 1
    assert multi >= 10  # the check covers hands with several optimal groupings


def test_independent_scorer_agrees_on_all_small_groups():
    rng = random.Random(7)
    for _ in range(3000):
        group = rng.sample(DECK, rng.randint(1, 5)) if rng.random() < 0.5 else (
            rng.sample(ACES, rng.randint(1, 2)) + rng.sample(DECK[4:], rng.randint(1, 3)))
        group = list(dict.fromkeys(group))
        assert go.comp10001go_score_group(group) == _bf_score(group), group


# ---------------------------------------------------------------------------------------
# play and group
# ---------------------------------------------------------------------------------------
def test_play_is_legal_and_deterministic():
    rng = random.Random(5)
    for _ in range(40):
        history, player, hand = cases.go_play_state(rng)
        card = go.comp10001go_play(history, player, hand)
        assert card in hand
        assert go.comp10001go_play(history, player, list(hand)) == card


def test_group_is_valid_and_optimal():
    rng = random.Random(6)
    for _ in range(30):
        history, player = cases.go_group_state(rng)
        mine = [turn[player] for turn in history]
        grouping = go.comp10001go_group(history, player)
        assert Counter(c for g in grouping for c in g) == Counter(mine)
        assert go.comp10001go_valid_groups(grouping)
        best = go.comp10001go_best_partitions(mine)
        assert go.comp10001go_score_grouping(grouping) == go.comp10001go_score_grouping(best[0])
        assert pkey(grouping) in {pkey(g) for g in best}


# ---------------------------------------------------------------------------------------
# generators
# ---------------------------------------------------------------------------------------
GENERATORS = ["huxxy_valid_table", "huxxy_invalid_table", "go_valid_groups_valid",
              "go_valid_groups_invalid", "go_play_state", "go_group_state", "bp_small",
              "bp_random", "bp_ace_heavy", "bp_run_heavy", "bp_multi_optimal"]


def _run(name, seed, count):
    rng = random.Random(seed)
    return [getattr(cases, name)(rng) for _ in range(count)]


def _is_card(c):
    return isinstance(c, str) and len(c) == 2 and c[0] in VALUE and c[1] in "SHDC"


@pytest.mark.parametrize("name", GENERATORS)
def test_generators_deterministic(name):
    count = 4 if name == "bp_multi_optimal" else 12
    assert _run(name, 99, count) == _run(name, 99, count)


@pytest.mark.parametrize("name,expected", [
    ("huxxy_valid_table", True), ("huxxy_invalid_table", False),
    ("go_valid_groups_valid", True), ("go_valid_groups_invalid", False),
])
def test_table_generators_legal(name, expected):
    fn = go.comp10001huxxy_valid_table if name.startswith("huxxy") else go.comp10001go_valid_groups
    for (groups,) in _run(name, 3, 150):
        assert all(_is_card(c) for g in groups for c in g)
        assert all(len(g) >= 1 for g in groups)
        if name.startswith("go"):
            flat = [c for g in groups for c in g]
            assert len(flat) <= 10 and len(set(flat)) == len(flat)
        assert fn(groups) is expected, groups


def test_game_state_generators_legal():
    ks = set()
    for history, player, hand in _run("go_play_state", 8, 60):
        k = len(history)
        ks.add(k)
        assert 0 <= k <= 9 and 0 <= player <= 3 and len(hand) == 10 - k
        assert all(len(turn) == 4 for turn in history)
        flat = [c for turn in history for c in turn] + hand
        assert all(_is_card(c) for c in flat) and len(set(flat)) == len(flat)
    assert len(ks) >= 8
    for history, player in _run("go_group_state", 9, 20):
        assert len(history) == 10 and all(len(t) == 4 for t in history) and 0 <= player <= 3
        flat = [c for turn in history for c in turn]
        assert all(_is_card(c) for c in flat) and len(set(flat)) == 40


def test_best_partition_generators_legal():
    for name, lo, hi in [("bp_small", 1, 7), ("bp_random", 8, 10), ("bp_ace_heavy", 10, 10),
                         ("bp_run_heavy", 10, 10), ("bp_multi_optimal", 10, 10)]:
        for (hand,) in _run(name, 11, 6 if name == "bp_multi_optimal" else 30):
            assert lo <= len(hand) <= hi and len(set(hand)) == len(hand)
            assert all(_is_card(c) for c in hand)
            if name == "bp_ace_heavy":
                assert sum(c[0] == "A" for c in hand) in (3, 4)
            if name == "bp_multi_optimal":
                assert len(go.comp10001go_best_partitions(hand)) >= 2


# ---------------------------------------------------------------------------------------
# the spec's pinned expectations
# ---------------------------------------------------------------------------------------
SPEC = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
PINNED = [(f["name"], c) for f in SPEC["functions"] for c in f.get("cases", []) if "expected" in c]


@pytest.mark.parametrize("fname,case", PINNED, ids=[f"{f}:{c['name']}" for f, c in PINNED])
def test_spec_pins_match_reference(fname, case):
    args = case["args"]
    want = case["expected"]
    got = getattr(go, fname)(*args)
    if fname == "comp10001go_best_partitions":
        assert same_partitions(got, want)
    elif fname == "comp10001go_play":
        hand = args[2]
        assert want in hand and got in hand
    elif fname == "comp10001go_group":
        history, player = args
        mine = [turn[player] for turn in history]
        assert Counter(c for g in want for c in g) == Counter(mine)
        assert go.comp10001go_valid_groups(want)
        assert go.comp10001go_score_grouping(got) == go.comp10001go_score_grouping(want)
        assert go.comp10001go_score_grouping(want) == go.comp10001go_score_grouping(
            go.comp10001go_best_partitions(mine)[0])
    else:
        assert got is want


def test_spec_shape():
    assert SPEC["assignment"] == "comp10001go" and SPEC["kind"] == "functions"
    assert SPEC["language"] == "python" and "bans" not in SPEC
    assert (SPEC_PATH.parent / SPEC["reference"]).resolve() == (ROOT / "reference" / "comp10001go.py")
    assert (SPEC_PATH.parent / SPEC["generators"]).resolve() == (ROOT / "reference" / "comp10001go_cases.py")
    fns = {f["name"]: f for f in SPEC["functions"]}
    assert {n: f["points"] for n, f in fns.items()} == {
        "comp10001huxxy_valid_table": 10, "comp10001go_valid_groups": 10,
        "comp10001go_play": 5, "comp10001go_group": 5, "comp10001go_best_partitions": 5}
    assert fns["comp10001go_best_partitions"]["extra_credit"] is True
    assert fns["comp10001go_best_partitions"]["time_limit"] == {"seconds": 2.0}
    assert SPEC["calibration"]["seconds"] > 0
    for name, f in fns.items():
        assert hasattr(go, name)
        generated = sum(b["count"] for b in f.get("generate", []))
        assert 15 <= generated <= 60, name
        for block in f.get("generate", []):
            assert callable(getattr(cases, block["generator"]))
        public = [c for c in f["cases"] if c.get("visibility") == "public"]
        assert public and all("expected" in c for c in public)


def test_valid_groups_cases_hold_the_look_alike_groups_real_bugs_accept():
    """3 and 4 Aces as a kind, and two pairs as one group, among the graded cases."""
    spec = __import__("grader.spec.loader", fromlist=["load_spec"]).load_spec(SPEC_PATH)
    groups = [g for c in spec.function("comp10001go_valid_groups").cases for g in c.args[0]]
    aces = [g for g in groups if len(g) >= 3 and all(card[0] == "A" for card in g)]
    assert {len(g) for g in aces} == {3, 4}
    two_pairs = [g for g in groups if len(g) == 4 and sorted(Counter(c[0] for c in g).values()) == [2, 2]]
    assert len(two_pairs) >= 2
    assert not any(go.comp10001go_valid_groups([g]) for g in aces + two_pairs)


def test_play_is_graded_on_many_states_each_in_a_fresh_session():
    fns = {f["name"]: f for f in SPEC["functions"]}
    play = fns["comp10001go_play"]
    assert play["state"] == "fresh"
    assert sum(b["count"] for b in play["generate"]) >= 60  # a 8.6% bug survives 60 states 0.5% of the time


def test_undefined_empty_hand_is_not_graded():
    fns = {f["name"]: f for f in SPEC["functions"]}
    assert all(c["args"] != [[]] for c in fns["comp10001go_best_partitions"]["cases"])


def test_spec_loads_with_grader_loader():
    from grader.spec import loader

    spec = loader.load_spec(SPEC_PATH)
    assert spec.max_score == 30
    for fn in spec.functions:
        for case in fn.cases:
            getattr(go, fn.name)(*case.args)  # the reference handles every case


def test_reference_passes_grader_judges():
    """The reference's own answers and every pin pass the spec's compare modes/validators."""
    from grader.judge import compare
    from grader.spec import loader
    from grader.spec.model import MISSING

    from grader.judge.validators import load_validators

    spec = loader.load_spec(SPEC_PATH)
    validators = load_validators(spec.validators)
    for fn in spec.functions:
        for case in fn.cases:
            ctx = compare.JudgeContext(args=case.args, reference=go, function=fn.name, validators=validators)
            expected = getattr(go, fn.name)(*case.args)
            assert compare.judge(expected, getattr(go, fn.name)(*case.args), fn.compare, ctx).passed
            if case.expected is not MISSING:
                assert compare.judge(expected, case.expected, fn.compare, ctx).passed, case.name
