"""Trusted reference for Georgia Tech CS1371 Homework 7 "Iteration", ported from MATLAB.

Conventions of the port: a MATLAB vector is a list, a char row a ``str``, an MxN char
array a list of M equal-length strings, a logical a ``bool``, and a function with two
outputs returns a tuple.  Indices the handout reports (wordSearch) stay 1-based.

The homework bans ``sum``, ``cumsum`` and ``mean``; the reference obeys the same bans
so that it can never be accused of an advantage the students did not have: every total
below is accumulated with an explicit loop.

Every choice the handout leaves open is recorded in ``specs/hw7_iteration.yaml`` (notes).
"""
from __future__ import annotations

# --- scrabbleScore ---------------------------------------------------------------


def _total(values: list[float]) -> float:
    """Add up ``values`` with a loop, because ``sum`` is banned in this homework."""
    total = 0
    for value in values:
        total += value
    return total


def scrabbleScore(mine: list[float], theirs: list[float]) -> str:
    """Total both players' word scores and announce the outcome of the game."""
    my_total = _total(mine)
    their_total = _total(theirs)
    if my_total > their_total:
        return "I am the Scrabble champion!"
    if my_total < their_total:
        return "Beginner's luck..."
    return "I challenge you to a rematch!"


# --- war -------------------------------------------------------------------------

_KING = 13


def _war_beats(card: int, other: int) -> bool:
    """Whether ``card`` wins a round of war against ``other``.

    Higher wins, except that a 2 beats the king, and only the king.
    """
    if card == 2 and other == _KING:
        return True
    if card == _KING and other == 2:
        return False
    return card > other


def war(hand1: list[int], hand2: list[int]) -> str:
    """Play war until one player holds every card and report the winner and round count.

    The round winner puts the winning card first, then the loser's card, at the bottom
    of the hand (handout).  There is no guard against a cycle: none of 3.2 million random
    deals of the twelve cards 2..13 lasted more than 72 rounds (see the spec's notes).
    """
    hands = [list(hand1), list(hand2)]
    rounds = 0
    while hands[0] and hands[1]:
        card1 = hands[0].pop(0)
        card2 = hands[1].pop(0)
        rounds += 1
        if _war_beats(card1, card2):
            hands[0].extend([card1, card2])
        else:
            hands[1].extend([card2, card1])
    winner, loser = (1, 2) if hands[0] else (2, 1)
    return f"Player {winner} defeated player {loser} in {rounds} rounds."


# --- card values of blackJackHard -------------------------------------------------

_ACE_CODE = 65
_FACE_CODES = (74, 75, 81)  # J, K, Q as ASCII codes
_ACE = 11  # an Ace as a plain value, and its value when it counts high


def _card_value(card: int) -> int:
    """The blackjack value of a card given either as an ASCII code or as a plain value.

    blackJackHard's handout writes faces as ASCII codes (A=65, K=75, Q=81, J=74) while the
    course's own data also uses plain values (Ace 11, faces 10); both forms are accepted.
    """
    if card == _ACE_CODE:
        return _ACE
    if card in _FACE_CODES:
        return 10
    return card


# --- blackJack ---------------------------------------------------------------------


def blackJack(hand: list[int], deck: list[int], opponent: int) -> bool:
    """Whether the House beats ``opponent`` by drawing from ``deck`` in order.

    The handout's own encoding: number cards are their value, faces 10, an Ace 11 (ASCII
    codes belong to blackJackHard only).  Cards are drawn while the total is below the
    opponent's (a tie wins, per the handout's notes); going over 21 loses.  If the five
    cards run out before the opponent's total is reached, the House has not beaten the
    opponent (undefined by the handout, so never graded).
    """
    total = hand[0] + hand[1]
    remaining = list(deck)
    while total < opponent and remaining:
        total += remaining.pop(0)
    return opponent <= total <= 21


# --- goFish ------------------------------------------------------------------------


def _discard_pairs(hand: list[int]) -> tuple[list[int], int]:
    """Remove every pair from ``hand``; return what is left and how many pairs there were.

    Scanning left to right and pairing each card with an earlier unpaired twin removes
    "the first two instances" of a three-of-a-kind, as the handout asks.
    """
    kept: list[int] = []
    pairs = 0
    for card in hand:
        if card in kept:
            kept.remove(card)
            pairs += 1
        else:
            kept.append(card)
    return kept, pairs


def goFish(hand1: list[int], hand2: list[int], deck: list[int]) -> tuple[str, list[int]]:
    """Play the handout's Go Fish and return the result line and the final score.

    Turns strictly alternate, player 1 first.  The asker asks for the first card of the
    hand; a match removes one card from each hand and scores.  Otherwise the asker
    draws the top card onto the end of the hand, moves the front card to the end, and
    only then lays down a pair made by the drawn card: this order is the one that
    reproduces the course's published results.  Pairs in the starting hands score too.
    """
    first, first_pairs = _discard_pairs(hand1)
    second, second_pairs = _discard_pairs(hand2)
    hands = [first, second]
    scores = [first_pairs, second_pairs]
    deck = list(deck)
    turn = 0
    while hands[0] and hands[1]:
        asker, other = hands[turn], hands[1 - turn]
        wanted = asker[0]
        if wanted in other:
            asker.pop(0)
            other.remove(wanted)
            scores[turn] += 1
        else:
            if not deck:
                raise ValueError("goFish: a player must draw but the deck is empty (the handout does not define this)")
            drawn = deck.pop(0)
            asker.append(drawn)
            asker.append(asker.pop(0))
            if asker.count(drawn) == 2:
                asker.remove(drawn)
                asker.remove(drawn)
                scores[turn] += 1
        turn = 1 - turn
    if scores[0] > scores[1]:
        winner = "Player 1 won!"
    elif scores[1] > scores[0]:
        winner = "Player 2 won!"
    else:
        winner = "It's a tie!"
    return winner, scores


# --- wordSearch ----------------------------------------------------------------------

# (row step, column step): right, left, down, up.  Reading a word "backwards" is the
# same as reading it forwards in the opposite direction, starting from its first letter.
_DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def _cells_of(
    puzzle: list[str], word: str, row: int, col: int, step: tuple[int, int], wrap: bool
) -> list[tuple[int, int]] | None:
    """The cells ``word`` covers when read from (row, col) along ``step``, or None.

    Letters compare case-insensitively.  With ``wrap`` the line continues across the
    opposite edge, but a word never uses a cell twice, so it may be at most as long as
    the line it lies on.
    """
    height, width = len(puzzle), len(puzzle[0])
    line_length = width if step[0] == 0 else height
    if wrap and len(word) > line_length:
        return None
    cells = []
    for offset, letter in enumerate(word):
        r = row + step[0] * offset
        c = col + step[1] * offset
        if wrap:
            r, c = r % height, c % width
        elif not (0 <= r < height and 0 <= c < width):
            return None
        if puzzle[r][c].lower() != letter:
            return None
        cells.append((r, c))
    return cells


def _cross_out(puzzle: list[str], cells: set[tuple[int, int]]) -> list[str]:
    """A copy of ``puzzle`` with every cell in ``cells`` replaced by '#'."""
    return [
        "".join("#" if (r, c) in cells else letter for c, letter in enumerate(line))
        for r, line in enumerate(puzzle)
    ]


def wordSearch(puzzle: list[str], words: list[str]) -> tuple[list[str], list[list[int]]]:
    """Cross out every word of the list and report where each word's first letter is.

    Words are trimmed of the padding spaces of the char array and compared
    case-insensitively.  All words are located in the unsolved puzzle, so overlapping
    words are found.  A word placed more than once is crossed out at every placement (the
    course's own puzzle with a word twice in one column is solved that way); the start
    reported is the first placement scanning rows, columns, then right, left, down, up.
    ``wordSearch_answers`` lists every start the handout allows.
    """
    crossed: set[tuple[int, int]] = set()
    starts: list[list[int]] = []
    for entry in words:
        placements = _placements(puzzle, entry.strip().lower())
        if not placements:
            raise ValueError(f"wordSearch: {entry.strip()!r} is not in the puzzle")
        for cells in placements:
            crossed.update(cells)
        starts.append([placements[0][0][0] + 1, placements[0][0][1] + 1])
    return _cross_out(puzzle, crossed), starts


def wordSearch_answers(puzzle: list[str], words: list[str]) -> list[tuple[list[str], list[list[int]]]]:
    """Every answer the handout allows: the solved puzzle, and for a word placed more than
    once (or a palindrome, read from either end) the first letter of any of its placements."""
    solved, _ = wordSearch(puzzle, words)
    options = []
    for entry in words:
        firsts = {cells[0] for cells in _placements(puzzle, entry.strip().lower())}
        options.append(sorted([row + 1, col + 1] for row, col in firsts))
    combos: list[list[list[int]]] = [[]]
    for starts in options:
        combos = [combo + [start] for combo in combos for start in starts]
    return [(solved, combo) for combo in combos]


def _placements(puzzle: list[str], word: str) -> list[list[tuple[int, int]]]:
    """The cells of every placement of ``word`` (no wrapping), in scanning order."""
    found = []
    for row in range(len(puzzle)):
        for col in range(len(puzzle[0])):
            for step in _DIRECTIONS:
                cells = _cells_of(puzzle, word, row, col, step, wrap=False)
                if cells is not None:
                    found.append(cells)
    return found


# --- wordSearchHard ------------------------------------------------------------------


def wordSearchHard(puzzle: list[str], word_list: str) -> list[str]:
    """Cross out every occurrence of every listed word, wrapping around the edges.

    The list is comma separated; words are trimmed and empty entries ignored.  Every
    occurrence is found in the unsolved puzzle (so overlaps are all crossed out), and
    one '@' border is added per list entry found nowhere, after the search so the
    border never takes part in wrapping.
    """
    words = [entry.strip().lower() for entry in word_list.split(",")]
    crossed: set[tuple[int, int]] = set()
    missing = 0
    for word in words:
        if not word:
            continue
        found = False
        for row in range(len(puzzle)):
            for col in range(len(puzzle[0])):
                for step in _DIRECTIONS:
                    cells = _cells_of(puzzle, word, row, col, step, wrap=True)
                    if cells is not None:
                        crossed.update(cells)
                        found = True
        if not found:
            missing += 1
    solved = _cross_out(puzzle, crossed)
    width = len(puzzle[0]) + 2 * missing
    border = ["@" * width] * missing
    return border + ["@" * missing + line + "@" * missing for line in solved] + border


# --- blackJackHard -------------------------------------------------------------------

_PLAYERS = 4
_DEALER = _PLAYERS  # seat index of the dealer, who acts after the four players
# The 52-card deck by blackjack value: 4 of each of 2..9, 16 ten-valued cards, 4 Aces.
_FULL_DECK = {**{value: 4 for value in range(2, 10)}, 10: 16, _ACE: 4}


def _hand_value(cards: list[int]) -> int:
    """The value of a hand: each Ace is 11 unless that would take the hand over 21.

    Aces drop to 1 one at a time, only as many as needed (so A, A, 9 is 21).
    """
    total = 0
    high_aces = 0
    for card in cards:
        total += card
        if card == _ACE:
            high_aces += 1
    while total > 21 and high_aces:
        total -= 10
        high_aces -= 1
    return total


def _chance_of_safe_hit(value: int, known: list[int]) -> float:
    """Safe unknown cards over all unknown cards, for a hand currently worth ``value``.

    Unknown cards are the full deck minus ``known``.  A card is safe when its value,
    an Ace counting 1, does not exceed 21 - value (the handout's 8 + 7 example: 6 or less).
    """
    unknown = dict(_FULL_DECK)
    for card in known:
        unknown[card] -= 1
    safe = 0
    total = 0
    for card, count in unknown.items():
        total += count
        if (1 if card == _ACE else card) <= 21 - value:
            safe += count
    return safe / total


def _dealer_hits(cards: list[int]) -> bool:
    """Dealer rules: hit below 17, and on a 17 that holds an Ace (the handout's soft 17)."""
    value = _hand_value(cards)
    return value < 17 or (value == 17 and _ACE in cards)


def blackJackHard(risks: list[float], deck: list[int], discard: list[int]) -> tuple[list[int], list[int]]:
    """Play one round for four card-counting players and the dealer.

    Returns the final hand values of players 1-4 and the dealer, and the numbers of the
    players who beat the dealer: a non-busted player beats a busted dealer, otherwise a
    player needs more than the dealer without passing 21 (a tie does not win).
    Participants act in turn, one decision each per pass, until everyone has stood or
    busted.  A player hits when the chance of a safe hit is at least their risk factor.
    """
    upcoming = [_card_value(card) for card in deck]
    discard_pile = [_card_value(card) for card in discard]
    seats = _PLAYERS + 1
    # The first card of every hand is dealt face down, everything after it face up.
    hands = [[upcoming.pop(0)] for _ in range(seats)]
    for hand in hands:
        hand.append(upcoming.pop(0))
    active = [True] * seats
    while any(active):
        for seat in range(seats):
            if not active[seat]:
                continue
            if _wants_hit(seat, hands, discard_pile, risks):
                hands[seat].append(upcoming.pop(0))
                active[seat] = _hand_value(hands[seat]) <= 21
            else:
                active[seat] = False
    values = [_hand_value(hand) for hand in hands]
    dealer = values[_DEALER]
    winners = [
        seat + 1
        for seat in range(_PLAYERS)
        if values[seat] <= 21 and (dealer > 21 or values[seat] > dealer)
    ]
    return values, winners


def _wants_hit(seat: int, hands: list[list[int]], discard_pile: list[int], risks: list[float]) -> bool:
    """Whether the participant in ``seat`` hits now.

    A player knows the discard pile, every face-up card on the table and their own
    face-down card, but not the other face-down cards.
    """
    if seat == _DEALER:
        return _dealer_hits(hands[seat])
    known = list(discard_pile)
    known.append(hands[seat][0])
    for hand in hands:
        known.extend(hand[1:])
    return _chance_of_safe_hit(_hand_value(hands[seat]), known) >= risks[seat]
