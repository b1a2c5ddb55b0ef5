"""Seeded case generators for specs/comp10001go.yaml (trusted, parent-only).

Each generator is ``NAME(rng: random.Random) -> list`` and returns the positional arguments
of one case.  Only ``rng`` is used for randomness and no set/dict iteration order leaks into
the output, so a seed always gives the same cases.

Huxxy tables come from two decks (repeated cards allowed); every Go case uses distinct cards
of one 52-card deck.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

ORDER = "A234567890JQK"  # index + 1 == value
SUITS = "SHDC"
BLACK = "SC"
RED = "HD"
DECK = [v + s for v in ORDER for s in SUITS]
ACES = [c for c in DECK if c[0] == "A"]


def _load_reference():
    path = Path(__file__).resolve().parent / "comp10001go.py"
    spec = importlib.util.spec_from_file_location("_comp10001go_reference_for_cases", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_REF = None


def _ref():
    global _REF
    if _REF is None:
        _REF = _load_reference()
    return _REF


def _card(value: int, suit: str) -> str:
    return ORDER[value - 1] + suit


def _suit_of_colour(rng, colour: int) -> str:
    """colour 0 = black, 1 = red."""
    return rng.choice(RED if colour else BLACK)


def _shuffled(rng, cards):
    cards = list(cards)
    rng.shuffle(cards)
    return cards


# ---------------------------------------------------------------------------------------
# Part 1: Huxxy tables (two decks)
# ---------------------------------------------------------------------------------------
def _huxxy_kind(rng):
    # Ace kinds are left out: the handout never says whether Huxxy allows them
    value = rng.randint(2, 13)
    n = rng.choice((3, 3, 4, 4, 5, 6))
    if n == 3:
        suits = rng.sample(SUITS, 3)
    else:
        suits = list(SUITS) + [rng.choice(SUITS) for _ in range(n - 4)]
    return _shuffled(rng, [_card(value, s) for s in suits])


def _huxxy_run(rng, length=None, lo=None):
    length = length or rng.randint(3, 6)
    if lo is None:
        lo = rng.choice([1, 1] + list(range(1, 13 - length + 2)))  # ace-low runs often
    colour = rng.randint(0, 1)
    cards = [_card(lo + k, _suit_of_colour(rng, colour ^ (k & 1))) for k in range(length)]
    return _shuffled(rng, cards)


def _huxxy_valid_group(rng):
    return _huxxy_kind(rng) if rng.random() < 0.45 else _huxxy_run(rng)


def huxxy_valid_table(rng):
    """A valid Huxxy table of 0..4 groups: kinds (3 distinct suits / all four), runs incl. A-2-3."""
    n = rng.choice((0, 1, 1, 2, 2, 3, 4))
    return [[_huxxy_valid_group(rng) for _ in range(n)]]


def _huxxy_bad_group(rng):
    kind = rng.choice((
        "dup_suit_3", "missing_suit_4", "missing_suit_5", "colour_break", "gap",
        "short_run", "short_kind", "wrap", "single", "dup_value_run", "kind_plus_one",
    ))
    if kind == "dup_suit_3":
        v = rng.randint(1, 13)
        s1, s2 = rng.sample(SUITS, 2)
        return _shuffled(rng, [_card(v, s1), _card(v, s1), _card(v, s2)])
    if kind in ("missing_suit_4", "missing_suit_5"):
        v = rng.randint(1, 13)
        suits = rng.sample(SUITS, 3)
        n = 4 if kind == "missing_suit_4" else 5
        suits = suits + [rng.choice(suits) for _ in range(n - 3)]
        return _shuffled(rng, [_card(v, s) for s in suits])
    if kind == "colour_break":
        length = rng.randint(3, 6)
        lo = rng.randint(1, 14 - length)
        colour = rng.randint(0, 1)
        brk = rng.randint(1, length - 1)  # card brk repeats the colour of card brk-1
        cols = []
        for k in range(length):
            if k == 0:
                cols.append(colour)
            elif k == brk:
                cols.append(cols[-1])
            else:
                cols.append(cols[-1] ^ 1)
        return _shuffled(rng, [_card(lo + k, _suit_of_colour(rng, cols[k])) for k in range(length)])
    if kind == "gap":
        length = rng.randint(3, 5)
        lo = rng.randint(1, 13 - length)
        skip = rng.randint(1, length - 1)
        values = [lo + k + (1 if k >= skip else 0) for k in range(length)]
        colour = rng.randint(0, 1)
        return _shuffled(rng, [_card(v, _suit_of_colour(rng, colour ^ (k & 1)))
                               for k, v in enumerate(values)])
    if kind == "short_run":
        lo = rng.randint(1, 12)
        colour = rng.randint(0, 1)
        return _shuffled(rng, [_card(lo, _suit_of_colour(rng, colour)),
                               _card(lo + 1, _suit_of_colour(rng, colour ^ 1))])
    if kind == "short_kind":
        v = rng.randint(1, 13)
        return [_card(v, s) for s in rng.sample(SUITS, 2)]
    if kind == "wrap":
        lo = rng.choice((12, 13))  # Q-K-A or K-A-2
        colour = rng.randint(0, 1)
        values = [((lo - 1 + k) % 13) + 1 for k in range(3)]
        return _shuffled(rng, [_card(v, _suit_of_colour(rng, colour ^ (k & 1)))
                               for k, v in enumerate(values)])
    if kind == "single":
        return [rng.choice(DECK)]
    if kind == "dup_value_run":
        lo = rng.randint(1, 11)
        colour = rng.randint(0, 1)
        cards = [_card(lo + k, _suit_of_colour(rng, colour ^ (k & 1))) for k in range(3)]
        cards.append(_card(lo + 1, _suit_of_colour(rng, colour ^ 1)))
        return _shuffled(rng, cards)
    # kind_plus_one: a valid 3-of-a-kind plus a card of another value
    v = rng.randint(1, 13)
    w = rng.choice([x for x in range(1, 14) if x != v])
    cards = [_card(v, s) for s in rng.sample(SUITS, 3)] + [_card(w, rng.choice(SUITS))]
    return _shuffled(rng, cards)


def huxxy_invalid_table(rng):
    """A Huxxy table with one broken group among 0..3 valid ones."""
    groups = [_huxxy_valid_group(rng) for _ in range(rng.randint(0, 3))]
    groups.insert(rng.randint(0, len(groups)), _huxxy_bad_group(rng))
    return [groups]


# ---------------------------------------------------------------------------------------
# Part 2: Go groupings of partial discards (one deck, 0..10 cards)
# ---------------------------------------------------------------------------------------
class _Pool:
    """The unused cards of one deck."""

    def __init__(self, rng):
        self.rng = rng
        self.cards = list(DECK)
        rng.shuffle(self.cards)

    def has(self, card):
        return card in self.cards

    def take(self, card):
        self.cards.remove(card)
        return card

    def of(self, value, colour=None):
        return [c for c in self.cards if c[0] == ORDER[value - 1]
                and (colour is None or (c[1] in RED) == bool(colour))]


def _go_run(pool, rng, max_len, aces_wanted=None):
    """A valid Go run (possibly with wild Aces) built from pool, or None."""
    for _ in range(30):
        length = rng.randint(3, min(6, max_len))
        lo = rng.randint(2, 14 - length)
        hi = lo + length - 1
        colour = rng.randint(0, 1)
        interior = list(range(lo + 1, hi))
        n_aces = aces_wanted if aces_wanted is not None else rng.choice((0, 0, 1, 1, 2))
        n_aces = min(n_aces, len(interior))
        ace_slots = rng.sample(interior, n_aces)
        chosen = []
        ok = True
        for v in range(lo, hi + 1):
            col = colour ^ ((v - lo) & 1)
            if v in ace_slots:
                options = [c for c in pool.cards if c[0] == "A" and (c[1] in RED) == bool(col)
                           and c not in chosen]
            else:
                options = pool.of(v, col)
            if not options:
                ok = False
                break
            chosen.append(rng.choice(options))
        if ok:
            for c in chosen:
                pool.take(c)
            return _shuffled(rng, chosen)
    return None


def _go_kind(pool, rng, max_len):
    for _ in range(30):
        v = rng.randint(2, 13)
        avail = pool.of(v)
        if len(avail) >= 2:
            n = rng.randint(2, min(len(avail), max_len))
            cards = rng.sample(avail, n)
            for c in cards:
                pool.take(c)
            return cards
    return None


def _go_valid_grouping(pool, rng, total):
    """Valid groups using exactly ``total`` cards from pool (singletons fill the rest)."""
    groups = []
    left = total
    while left > 0:
        r = rng.random()
        g = None
        if r < 0.4 and left >= 3:
            g = _go_run(pool, rng, left)
        elif r < 0.65 and left >= 2:
            g = _go_kind(pool, rng, left)
        if g is None:
            g = [pool.take(pool.cards[0])]
        groups.append(g)
        left -= len(g)
    rng.shuffle(groups)
    return groups


def go_valid_groups_valid(rng):
    """A valid grouping of 0..10 distinct cards: runs with wild Aces, kinds, singletons."""
    pool = _Pool(rng)
    total = rng.choice((0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10))
    return [_go_valid_grouping(pool, rng, total)]


def _go_bad_group(pool, rng):
    kind = rng.choice((
        "ace_kind", "kind_with_ace", "ace_low_end", "ace_high_end", "ace_colour",
        "one_non_ace", "wrap", "colour_break", "gap", "pair_plus_one", "two_card_run",
    ))
    red_aces = [c for c in pool.cards if c[0] == "A" and c[1] in RED]
    black_aces = [c for c in pool.cards if c[0] == "A" and c[1] in BLACK]
    if kind == "ace_kind":  # Aces never form an N-of-a-kind (not even a pair)
        aces = [c for c in pool.cards if c[0] == "A"]
        n = rng.randint(2, min(4, len(aces)))
        return [pool.take(c) for c in rng.sample(aces, n)]
    if kind == "kind_with_ace":
        v = rng.randint(2, 13)
        cards = [pool.take(c) for c in rng.sample(pool.of(v), rng.randint(2, 3))]
        return _shuffled(rng, cards + [pool.take(rng.choice([c for c in pool.cards if c[0] == "A"]))])
    if kind in ("ace_low_end", "ace_high_end"):
        # a valid-looking 2-3 card alternating run with an Ace standing for the missing end
        length = rng.randint(2, 3)
        lo = rng.randint(3, 13 - length) if kind == "ace_low_end" else rng.randint(2, 12 - length)
        colour = rng.randint(0, 1)
        cards = [pool.take(rng.choice(pool.of(lo + k, colour ^ (k & 1)))) for k in range(length)]
        if kind == "ace_low_end":
            ace_col = colour ^ 1
        else:
            ace_col = colour ^ (length & 1)
        aces = red_aces if ace_col else black_aces
        return _shuffled(rng, cards + [pool.take(rng.choice(aces))])
    if kind == "ace_colour":  # an Ace of the wrong colour in the gap
        lo = rng.randint(2, 11)
        colour = rng.randint(0, 1)
        gap_col = colour ^ 1
        aces = black_aces if gap_col else red_aces
        cards = [pool.take(rng.choice(pool.of(lo, colour))), pool.take(rng.choice(aces)),
                 pool.take(rng.choice(pool.of(lo + 2, colour)))]
        return _shuffled(rng, cards)
    if kind == "one_non_ace":  # Ace-Ace plus one card: a run needs two non-Aces
        v = rng.randint(2, 13)
        c = pool.take(rng.choice(pool.of(v)))
        aces = [rng.choice(red_aces), rng.choice(black_aces)]
        return _shuffled(rng, [c] + [pool.take(a) for a in aces])
    if kind == "wrap":  # Q-K-2 or K-2-3 (no wrap from K to 2), alternating colours
        values = rng.choice(((12, 13, 2), (13, 2, 3)))
        colour = rng.randint(0, 1)
        return _shuffled(rng, [pool.take(rng.choice(pool.of(v, colour ^ (k & 1))))
                               for k, v in enumerate(values)])
    if kind == "colour_break":
        lo = rng.randint(2, 11)
        colour = rng.randint(0, 1)
        cols = [colour, colour ^ 1, colour ^ 1] if rng.random() < 0.5 else [colour, colour, colour ^ 1]
        return _shuffled(rng, [pool.take(rng.choice(pool.of(lo + k, cols[k]))) for k in range(3)])
    if kind == "gap":
        lo = rng.randint(2, 10)
        colour = rng.randint(0, 1)
        values = (lo, lo + 1, lo + 3)
        return _shuffled(rng, [pool.take(rng.choice(pool.of(v, colour ^ (k & 1))))
                               for k, v in enumerate(values)])
    if kind == "pair_plus_one":
        v = rng.randint(2, 13)
        w = rng.choice([x for x in range(2, 14) if x != v])
        cards = [pool.take(c) for c in rng.sample(pool.of(v), 2)]
        return _shuffled(rng, cards + [pool.take(rng.choice(pool.of(w)))])
    # two_card_run: adjacent values, alternating colour, but only 2 cards
    lo = rng.randint(2, 12)
    colour = rng.randint(0, 1)
    return [pool.take(rng.choice(pool.of(lo, colour))),
            pool.take(rng.choice(pool.of(lo + 1, colour ^ 1)))]


def _go_look_alike_group(pool, rng):
    """A group that real submissions wrongly accept: 3 or 4 Aces as a kind, or two pairs of
    adjacent values (['9S', '9C', '8S', '8H']), whose cards look like a kind or a run."""
    if rng.random() < 0.5:
        aces = [c for c in pool.cards if c[0] == "A"]
        return [pool.take(c) for c in rng.sample(aces, rng.choice((3, 4)))]
    for _ in range(30):
        v = rng.randint(2, 12)
        if len(pool.of(v)) >= 2 and len(pool.of(v + 1)) >= 2:
            cards = rng.sample(pool.of(v), 2) + rng.sample(pool.of(v + 1), 2)
            return _shuffled(rng, [pool.take(c) for c in cards])
    return [pool.take(c) for c in [c for c in pool.cards if c[0] == "A"][:3]]


def go_valid_groups_look_alike(rng):
    """A grouping of <= 10 distinct cards whose one invalid group is a kind of 3-4 Aces or
    two pairs; the other groups are valid."""
    pool = _Pool(rng)
    bad = _go_look_alike_group(pool, rng)
    groups = _go_valid_grouping(pool, rng, rng.randint(0, 10 - len(bad)))
    groups.insert(rng.randint(0, len(groups)), bad)
    return [groups]


def go_valid_groups_invalid(rng):
    """A grouping of <= 10 distinct cards with exactly one invalid group."""
    pool = _Pool(rng)
    bad = _go_bad_group(pool, rng)
    rest = rng.randint(0, 10 - len(bad))
    groups = _go_valid_grouping(pool, rng, rest)
    groups.insert(rng.randint(0, len(groups)), bad)
    return [groups]


# ---------------------------------------------------------------------------------------
# Part 3: play and group states (simulated games)
# ---------------------------------------------------------------------------------------
def _simulate(rng, turns, smart):
    """Deal 4 x 10 cards and play ``turns`` turns; returns (history, hands)."""
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [deck[10 * p:10 * p + 10] for p in range(4)]
    history = []
    ref = _ref() if any(smart) else None
    for _ in range(turns):
        discards = []
        for p in range(4):
            if smart[p]:
                card = ref.comp10001go_play(history, p, hands[p])
            else:
                card = rng.choice(hands[p])
            hands[p].remove(card)
            discards.append(card)
        history.append(discards)
        hands = [hands[(p - 1) % 4] for p in range(4)]  # pass the rest to the left
    return history, hands


def go_play_state(rng):
    """A mid-game state: k (0..9) turns of 4 discards, player_no, that player's 10-k cards."""
    k = rng.randint(0, 9)
    smart = [rng.random() < 0.5 for _ in range(4)]
    history, hands = _simulate(rng, k, smart)
    player = rng.randint(0, 3)
    return [history, player, list(hands[player])]


def go_group_state(rng):
    """A finished game: 10 turns of 4 discards, player_no."""
    smart = [rng.random() < 0.6 for _ in range(4)]
    history, _ = _simulate(rng, 10, smart)
    return [history, rng.randint(0, 3)]


# ---------------------------------------------------------------------------------------
# Part 4: best partitions
# ---------------------------------------------------------------------------------------
def bp_small(rng):
    """1..7 random distinct cards."""
    return [rng.sample(DECK, rng.randint(1, 7))]


def bp_random(rng):
    """8..10 random distinct cards."""
    return [rng.sample(DECK, rng.choice((8, 9, 10, 10)))]


def _ace_heavy(rng, n=10):
    k = rng.choice((3, 4))
    non_aces = [c for c in DECK if c[0] != "A"]
    return _shuffled(rng, rng.sample(ACES, k) + rng.sample(non_aces, n - k))


def _run_heavy(rng, n=10):
    aces = rng.choice((0, 1, 2, 2, 3))
    lo = rng.randint(2, 8)  # a 6-value window lo..lo+5 within 2..K
    window = [_card(v, s) for v in range(lo, lo + 6) for s in SUITS]
    return _shuffled(rng, rng.sample(ACES, aces) + rng.sample(window, n - aces))


def bp_ace_heavy(rng):
    """10 cards with 3 or 4 Aces."""
    return [_ace_heavy(rng)]


def bp_run_heavy(rng):
    """10 cards packed into 6 consecutive values (both colours), often with Aces."""
    return [_run_heavy(rng)]


def bp_multi_optimal(rng):
    """10 cards (ace- or run-heavy) with at least two optimal groupings."""
    ref = _ref()
    hand = None
    for _ in range(200):
        hand = _ace_heavy(rng) if rng.random() < 0.5 else _run_heavy(rng)
        if len(ref.comp10001go_best_partitions(hand)) >= 2:
            break
    return [hand]
