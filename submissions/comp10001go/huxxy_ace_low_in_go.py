"""COMP10001-Go, tidy, but Part 1's Huxxy run check reused in Go: an Ace counts as 1 there, so
A-2-3 of alternating colours passes as a run (in Go an Ace is never a run's lowest card)."""
from functools import lru_cache
from itertools import combinations
from math import factorial

RANKS = "A234567890JQK"


def value(card):
    return RANKS.index(card[0]) + 1


def colour(card):
    return card[1] in "HD"


def _huxxy_ok(group):
    if len(group) < 3:
        return False
    vals = sorted(map(value, group))
    if len(set(vals)) == 1:
        suits = {c[1] for c in group}
        return len(suits) == (3 if len(group) == 3 else 4)
    ordered = sorted(group, key=value)
    return all(value(b) == value(a) + 1 and colour(a) != colour(b) for a, b in zip(ordered, ordered[1:]))


def comp10001huxxy_valid_table(groups):
    return all(_huxxy_ok(g) for g in groups)


def _run(group):
    distinct = len({c[0] for c in group}) == len(group)
    if len(group) >= 3 and distinct and _huxxy_ok(group):   # the bug: Huxxy's A-2-3 is not a Go run
        return sum(map(value, group))
    aces = [c for c in group if c[0] == "A"]
    rest = sorted((c for c in group if c[0] != "A"), key=value)
    if len(group) < 3 or len(rest) < 2:
        return None
    lo, hi = value(rest[0]), value(rest[-1])
    if hi - lo + 1 != len(group) or len({value(c) for c in rest}) != len(rest):
        return None
    by_value = {value(c): c for c in rest}
    need = {True: 0, False: 0}
    for i, v in enumerate(range(lo, hi + 1)):
        want = colour(rest[0]) ^ (i % 2 == 1)
        if v in by_value:
            if colour(by_value[v]) != want:
                return None
        else:
            need[want] += 1
    have = {True: sum(colour(a) for a in aces), False: sum(not colour(a) for a in aces)}
    return (lo + hi) * len(group) // 2 if need == have else None


def score_group(group):
    if not group:
        return None
    if len(group) == 1:
        return -20 if group[0][0] == "A" else -value(group[0])
    if group[0][0] != "A" and all(c[0] == group[0][0] for c in group):
        return value(group[0]) * factorial(len(group))
    return _run(group)


def comp10001go_valid_groups(groups):
    return all(score_group(g) is not None for g in groups)


def comp10001go_best_partitions(cards):
    n = len(cards)

    @lru_cache(maxsize=None)
    def solve(mask):
        if mask == 0:
            return 0, ((),)
        idx = [i for i in range(n) if mask >> i & 1]
        first, others = idx[0], idx[1:]
        best, ways = None, []
        for k in range(len(others) + 1):
            for combo in combinations(others, k):
                group = (first,) + combo
                s = score_group([cards[i] for i in group])
                if s is None:
                    continue
                sub = mask
                for i in group:
                    sub ^= 1 << i
                t, rest = solve(sub)
                if best is None or s + t > best:
                    best, ways = s + t, []
                if s + t == best:
                    ways += [(group,) + r for r in rest]
        return best, tuple(ways)

    _, ways = solve((1 << n) - 1)
    return [[[cards[i] for i in g] for g in way] for way in ways]


def comp10001go_play(discard_history, player_no, hand):
    return max(hand, key=value)


def comp10001go_group(discard_history, player_no):
    mine = [turn[player_no] for turn in discard_history]
    return comp10001go_best_partitions(mine)[0]
