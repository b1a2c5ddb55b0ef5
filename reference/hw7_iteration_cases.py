"""Seeded case generators for HW7 "Iteration" (see specs/hw7_iteration.yaml).

Each generator is ``NAME(rng: random.Random) -> list`` and returns the positional
arguments of one case.  Generators only produce inputs that are legal per the handout
and that avoid situations the handout leaves undefined (a blackJack deck too short to
reach the opponent, a goFish deck that runs dry, a wordSearch word that is missing or
occurs twice, a war deal that never ends).  Cards always come from a real 52-card pack.
"""
from __future__ import annotations

import importlib.util
import random
import string
from pathlib import Path


def _load_reference():
    """The sibling reference module, loaded by path.

    The grader imports this file by its path from the spec, so the reference cannot be
    assumed importable as a package member.
    """
    spec = importlib.util.spec_from_file_location(
        "_hw7_iteration_reference", Path(__file__).with_name("hw7_iteration.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_reference = _load_reference()
_war_beats = _reference._war_beats
blackJackHard = _reference.blackJackHard

# --- scrabbleScore -------------------------------------------------------------------


def scrabble_random(rng: random.Random) -> list:
    """Two score vectors (possibly empty); about a third of the games end in a tie."""
    mine = [rng.randint(2, 40) for _ in range(rng.randint(0, 8))]
    theirs = [rng.randint(2, 40) for _ in range(rng.randint(1, 8))]
    if rng.random() < 1 / 3:
        gap = 0
        for score in mine:
            gap += score
        for score in theirs[:-1]:
            gap -= score
        if gap > 0:
            theirs[-1] = gap
    return [mine, theirs]


# --- war -------------------------------------------------------------------------------

_WAR_ROUND_LIMIT = 1000


def _war_ends(hand1: list[int], hand2: list[int]) -> bool:
    """Whether the deal finishes within the round limit (the reference has no cycle guard)."""
    hands = [list(hand1), list(hand2)]
    for _ in range(_WAR_ROUND_LIMIT):
        if not (hands[0] and hands[1]):
            return True
        card1, card2 = hands[0].pop(0), hands[1].pop(0)
        if _war_beats(card1, card2):
            hands[0].extend([card1, card2])
        else:
            hands[1].extend([card2, card1])
    return not (hands[0] and hands[1])


def _war_deal(rng: random.Random, king_meets_two: bool) -> list:
    """Shuffle and split 2..13 until the deal suits the request and the game ends."""
    while True:
        cards = list(range(2, 14))
        rng.shuffle(cards)
        hand1, hand2 = cards[:6], cards[6:]
        if king_meets_two:
            # Put the 2 and the king face to face in the first round.
            for hand in (hand1, hand2):
                for card in (2, 13):
                    if card in hand:
                        hand.remove(card)
                        hand.insert(0, card)
            if {hand1[0], hand2[0]} != {2, 13}:  # both were in the same hand
                continue
        if _war_ends(hand1, hand2):
            return [hand1, hand2]


def war_random(rng: random.Random) -> list:
    """The twelve cards 2..13 shuffled and split 6/6."""
    return _war_deal(rng, king_meets_two=False)


def war_king_meets_two(rng: random.Random) -> list:
    """A deal whose first round pits the 2 against the king (2 beats king)."""
    return _war_deal(rng, king_meets_two=True)


# --- decks for blackJack and blackJackHard ----------------------------------------------

_ASCII_FACES = (74, 81, 75)  # J, Q, K


def _pack(rng: random.Random, ascii_faces: bool) -> list[int]:
    """A shuffled 52-card pack, faces and Aces as ASCII codes or as plain values 10/11."""
    ranks = list(range(2, 11))
    if ascii_faces:
        ranks += [*_ASCII_FACES, 65]
    else:
        ranks += [10, 10, 10, 11]
    pack = ranks * 4
    rng.shuffle(pack)
    return pack


# --- blackJack ------------------------------------------------------------------------


def _as_code(rng: random.Random, card: int) -> int:
    """An undrawn card as the course's decks sometimes write it: faces and Aces as ASCII."""
    if card == 11:
        return 65
    if card == 10 and rng.random() < 0.75:
        return rng.choice(_ASCII_FACES)
    return card


def _blackjack_deal(rng: random.Random, draws: int) -> list | None:
    """A hand, five cards and an opponent total such that the House draws exactly ``draws``
    cards, or None when this shuffle cannot give that.

    Cards follow blackJack's own encoding (2-10, faces 10, Ace 11).  Like the course's
    tests, undrawn cards may be ASCII codes; a drawn card never is.  Nearly half of the
    deals end exactly on the opponent's total (a tie wins), after 0, 1, 2 or more draws.
    """
    pack = _pack(rng, ascii_faces=False)
    hand, deck = pack[:2], pack[2:7]
    totals = [hand[0] + hand[1]]
    for card in deck:
        totals.append(totals[-1] + card)
    final = totals[draws]
    low = totals[draws - 1] + 1 if draws else 4
    high = min(final, 21)
    if low > high:
        return None
    opponent = final if final <= 21 and rng.random() < 0.45 else rng.randint(low, high)
    if rng.random() < 0.5:
        deck = deck[:draws] + [_as_code(rng, card) for card in deck[draws:]]
    return [hand, deck, opponent]


def blackjack_random(rng: random.Random) -> list:
    """A deal drawing 0, 1, 2 or 3+ cards (as the course's tests do), ties and busts included.

    Deals whose five cards cannot reach the opponent's total are never made: the handout
    does not say what happens then.
    """
    draws = rng.choice((0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4))
    while True:
        deal = _blackjack_deal(rng, draws)
        if deal is not None:
            return deal


# --- goFish ---------------------------------------------------------------------------


def _go_fish_deal(rng: random.Random, cards: list[int], hand_size: int) -> list:
    """Shuffle ``cards`` and deal two hands of ``hand_size``; the rest is the deck."""
    rng.shuffle(cards)
    return [cards[:hand_size], cards[hand_size : 2 * hand_size], cards[2 * hand_size :]]


def gofish_random(rng: random.Random) -> list:
    """Hands of 1..7 cards from a pack in which every value occurs 2 or 4 times.

    With even counts a hand never needs to draw from an empty deck (once the deck is
    gone both hands hold the same values), so every game is defined and ends.  The
    deck may be empty, and starting hands may hold pairs or three of a kind.
    """
    values = rng.sample(range(1, 14), rng.randint(2, 8))
    cards = [value for value in values for _ in range(rng.choice((2, 4)))]
    hand_size = rng.randint(1, min(7, len(cards) // 2))
    return _go_fish_deal(rng, cards, hand_size)


def gofish_full_pack(rng: random.Random) -> list:
    """Seven cards each from a full pack of values 1..13, the rest is the deck."""
    return _go_fish_deal(rng, list(range(1, 14)) * 4, 7)


# --- wordSearch -----------------------------------------------------------------------

_STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def _placements(grid: list[list[str]], word: str, wrap: bool) -> list[tuple[int, int, tuple[int, int]]]:
    """Every (row, col, step) at which ``word`` reads in ``grid``, case-insensitively."""
    height, width = len(grid), len(grid[0])
    found = []
    for row in range(height):
        for col in range(width):
            for step in _STEPS:
                if wrap and len(word) > (width if step[0] == 0 else height):
                    continue
                for offset, letter in enumerate(word):
                    r, c = row + step[0] * offset, col + step[1] * offset
                    if wrap:
                        r, c = r % height, c % width
                    elif not (0 <= r < height and 0 <= c < width):
                        break
                    if grid[r][c] is None or grid[r][c].lower() != letter:
                        break
                else:
                    found.append((row, col, step))
    return found


def _place(rng: random.Random, grid: list[list[str | None]], word: str, wrap: bool) -> bool:
    """Write ``word`` into ``grid`` where it fits (empty cells or equal letters).

    Half of the time a placement that crosses an earlier word is preferred.
    """
    height, width = len(grid), len(grid[0])
    fits, overlapping = [], []
    for _ in range(60):
        step = rng.choice(_STEPS)
        line = width if step[0] == 0 else height
        if len(word) > line:
            continue
        row, col = rng.randrange(height), rng.randrange(width)
        cells = []
        for offset in range(len(word)):
            r, c = row + step[0] * offset, col + step[1] * offset
            if wrap:
                r, c = r % height, c % width
            cells.append((r, c))
        if any(not (0 <= r < height and 0 <= c < width) for r, c in cells):
            continue
        if all(grid[r][c] in (None, word[i]) for i, (r, c) in enumerate(cells)):
            (overlapping if any(grid[r][c] for r, c in cells) else fits).append(cells)
    options = overlapping if overlapping and rng.random() < 0.5 else fits or overlapping
    if not options:
        return False
    for letter, (r, c) in zip(word, rng.choice(options)):
        grid[r][c] = letter
    return True


def _random_word(rng: random.Random, length: int) -> str:
    """Random lowercase letters: unlike dictionary words they rarely occur by accident."""
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(length))


def _mixed_case(rng: random.Random, word: str) -> str:
    """``word`` as listed by the handout's examples: lower, upper or mixed case."""
    style = rng.randrange(3)
    if style == 0:
        return word
    if style == 1:
        return word.upper()
    return "".join(letter.upper() if rng.random() < 0.5 else letter for letter in word)


def _fill(rng: random.Random, grid: list[list[str | None]]) -> list[str]:
    """The grid's rows, every empty cell given a random lowercase letter."""
    return ["".join(letter or rng.choice(string.ascii_lowercase) for letter in row) for row in grid]


def _char_array(rng: random.Random, words: list[str]) -> list[str]:
    """``words`` as a char array: mixed case, padded with spaces to the longest."""
    listed = [_mixed_case(rng, word) for word in words]
    longest = max(len(word) for word in listed)
    return [word.ljust(longest) for word in listed]


def _word_puzzle(rng: random.Random, height: int, width: int, twice: bool) -> list | None:
    """A puzzle with 2..6 words, each placed once, except (``twice``) the first, placed
    twice, half of the time both times in the same column as in the course's rubric
    puzzle.  None when the random letters happen to spell a word a second time."""
    grid: list[list[str | None]] = [[None] * width for _ in range(height)]
    words, counts = [], []
    if twice:
        length = rng.randint(2, max(2, min(5, height // 2)))
        word = _random_word(rng, length)
        if word == word[::-1]:
            return None
        if rng.random() < 0.5 and height >= 2 * length:
            col = rng.randrange(width)
            first = rng.randint(0, height - 2 * length)
            second = rng.randint(first + length, height - length)
            for top in (first, second):
                letters = word if rng.random() < 0.5 else word[::-1]
                for offset, letter in enumerate(letters):
                    grid[top + offset][col] = letter
        elif not (_place(rng, grid, word, wrap=False) and _place(rng, grid, word, wrap=False)):
            return None
        words.append(word)
        counts.append(2)
    for _ in range(rng.randint(2, 6)):
        word = _random_word(rng, rng.randint(2, max(height, width)))
        if word != word[::-1] and word not in words and _place(rng, grid, word, wrap=False):
            words.append(word)
            counts.append(1)
    puzzle = _fill(rng, grid)
    if len(words) < 2 or any(len(_placements(puzzle, w, wrap=False)) != n for w, n in zip(words, counts)):
        return None
    rng.shuffle(words)
    return [puzzle, _char_array(rng, words)]


def wordsearch_random(rng: random.Random) -> list:
    """A lowercase puzzle of 3x3 up to 15x15 with 2..6 words, each occurring exactly once.

    Words may overlap, run backwards or vertically, and come in mixed case, padded
    with trailing spaces to a char array.  Palindromes are never used (they would read
    from two different first letters).
    """
    while True:
        puzzle = _word_puzzle(rng, rng.randint(3, 15), rng.randint(3, 15), twice=False)
        if puzzle is not None:
            return puzzle


def wordsearch_twice(rng: random.Random) -> list:
    """A puzzle of 6x6 up to 15x15 in which one word is placed twice (every placement is
    crossed out; any placement's first letter is an accepted index)."""
    while True:
        puzzle = _word_puzzle(rng, rng.randint(6, 15), rng.randint(6, 15), twice=True)
        if puzzle is not None:
            return puzzle


# --- wordSearchHard -------------------------------------------------------------------


def wordsearch_hard_random(rng: random.Random) -> list:
    """A mixed-case puzzle; words of 2+ letters may wrap, repeat, overlap, or be missing.

    Words are no longer than the line they lie on and never repeat in the list.  Half of
    the lists are written like the course's (``'dog,win,run'``: no spaces at all), the
    others with random spaces around the commas, as in the handout's example.
    """
    height, width = rng.randint(3, 10), rng.randint(3, 10)
    grid: list[list[str | None]] = [[None] * width for _ in range(height)]
    words: list[str] = []
    for _ in range(rng.randint(1, 5)):
        word = _random_word(rng, rng.randint(2, min(height, width)))
        if word in words:
            continue
        if _place(rng, grid, word, wrap=True):
            words.append(word)
            if rng.random() < 0.3:
                _place(rng, grid, word, wrap=True)  # a second occurrence, when it fits
    for row in grid:
        for c, letter in enumerate(row):
            row[c] = rng.choice(string.ascii_lowercase) if letter is None else letter
            row[c] = row[c].upper() if rng.random() < 0.4 else row[c]
    puzzle = ["".join(row) for row in grid]
    absent = {_random_word(rng, rng.randint(2, min(height, width))) for _ in range(rng.randint(0, 3))}
    entries = words + sorted(absent - set(words))
    rng.shuffle(entries)
    spaced = rng.random() < 0.5
    padded = [" " * (spaced and rng.randint(0, 1)) + _mixed_case(rng, word) + " " * (spaced and rng.randint(0, 1)) for word in entries]
    return [puzzle, ",".join(padded)]


# --- blackJackHard --------------------------------------------------------------------


def _table(rng: random.Random, stack: list[int], ascii_faces: bool, course_deck: bool = False) -> list:
    """Risks, the upcoming deck and a discard pile, with ``stack`` dealt first.

    The deck is cut to the cards the round uses plus a few, or (``course_deck``) to 25-34
    cards as in the course's own tests, so that inputs 2 and 3 need not make up the full
    52 cards (the handout allows that).
    """
    pack = _pack(rng, ascii_faces)
    for card in stack:
        pack.remove(card)
    risks = [rng.choice((0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1)) for _ in range(4)]
    if course_deck:
        deck = (stack + pack)[: rng.randint(25, 34)]
        rest = pack[len(deck) - len(stack) :]
        return [risks, deck, rest[: rng.randint(0, len(rest))]]
    discard = pack[: rng.randint(0, 20)]
    deck = stack + pack[len(discard) :]
    for needed in range(10, len(deck) + 1):
        try:
            blackJackHard(risks, deck[:needed], discard)
        except IndexError:
            continue
        return [risks, deck[: needed + rng.randint(0, 4)], discard]
    raise AssertionError("a full pack always completes a round")


def blackjackhard_course(rng: random.Random) -> list:
    """Like the course's tests: a deck of 25-34 cards with Aces as 11 and faces as 10."""
    while True:
        table = _table(rng, [], ascii_faces=False, course_deck=True)
        try:
            blackJackHard(*table)
        except IndexError:  # a round that needs more cards than the deck holds: deal again
            continue
        return table


def blackjackhard_random(rng: random.Random) -> list:
    """A round dealt from a shuffled pack, faces as ASCII codes or plain values."""
    return _table(rng, [], ascii_faces=rng.random() < 0.5)


def blackjackhard_aces(rng: random.Random) -> list:
    """Two to four Aces among the ten cards dealt first, so Aces count 11 and 1 in play."""
    ascii_faces = rng.random() < 0.5
    ace = 65 if ascii_faces else 11
    others = [card for card in _pack(rng, ascii_faces) if card != ace]
    aces_at = rng.sample(range(10), rng.randint(2, 4))
    stack = [ace if position in aces_at else others[position] for position in range(10)]
    return _table(rng, stack, ascii_faces)


def blackjackhard_soft17(rng: random.Random) -> list:
    """The dealer starts on an Ace and a 6 (soft 17), face down or face up either way."""
    ascii_faces = rng.random() < 0.5
    ace = 65 if ascii_faces else 11
    first, second = (ace, 6) if rng.random() < 0.5 else (6, ace)
    pack = _pack(rng, ascii_faces)
    pack.remove(ace)
    pack.remove(6)
    stack = pack[:4] + [first] + pack[4:8] + [second]
    return _table(rng, stack, ascii_faces)
