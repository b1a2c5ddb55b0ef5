# COMP10001 Project 3 -- COMP10001-Go
# run_score looks at the lowest normal card before counting the normal cards.

VALUES = {'A': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8,
          '9': 9, '0': 10, 'J': 11, 'Q': 12, 'K': 13}


def get_value(card):
    return VALUES[card[0]]


def is_red(card):
    return card[1] == 'H' or card[1] == 'D'


def factorial(n):
    result = 1
    for i in range(2, n + 1):
        result = result * i
    return result


# ---------------------------------------------------------------- Part 1
def huxxy_group_ok(group):
    if len(group) < 3:
        return False
    first = get_value(group[0])
    same = True
    for card in group:
        if get_value(card) != first:
            same = False
    if same:
        suits = []
        for card in group:
            if card[1] not in suits:
                suits.append(card[1])
        if len(group) == 3:
            return len(suits) == 3
        return len(suits) == 4
    cards = sorted(group, key=get_value)
    for i in range(len(cards) - 1):
        if get_value(cards[i + 1]) != get_value(cards[i]) + 1:
            return False
        if is_red(cards[i + 1]) == is_red(cards[i]):
            return False
    return True


def comp10001huxxy_valid_table(groups):
    for group in groups:
        if not huxxy_group_ok(group):
            return False
    return True


# ---------------------------------------------------------------- Part 2
def run_score(group):
    """Score of a run (Aces are wild), or None if the group is not a run."""
    if len(group) < 3:
        return None
    normal = []
    aces = []
    for card in group:
        if card[0] == 'A':
            aces.append(card)
        else:
            normal.append(card)
    normal.sort(key=get_value)
    low = get_value(normal[0])
    high = get_value(normal[-1])
    if len(normal) < 2:
        return None
    if high - low + 1 != len(group):
        return None
    # walk up from the lowest card, filling gaps with Aces of the right colour
    red_aces = 0
    black_aces = 0
    for ace in aces:
        if is_red(ace):
            red_aces += 1
        else:
            black_aces += 1
    want_red = is_red(normal[0])
    i = 0
    for v in range(low, high + 1):
        if i < len(normal) and get_value(normal[i]) == v:
            if is_red(normal[i]) != want_red:
                return None
            i += 1
        else:
            if want_red:
                red_aces -= 1
            else:
                black_aces -= 1
            if red_aces < 0 or black_aces < 0:
                return None
        want_red = not want_red
    if i != len(normal):
        return None  # two normal cards of the same value
    total = 0
    for v in range(low, high + 1):
        total += v
    return total


def group_score(group):
    """Score of a group, or None if it is not a valid group."""
    if len(group) == 0:
        return None
    if len(group) == 1:
        if group[0][0] == 'A':
            return -20
        return -get_value(group[0])
    same = True
    for card in group:
        if card[0] != group[0][0]:
            same = False
    if same and group[0][0] != 'A':
        return get_value(group[0]) * factorial(len(group))
    return run_score(group)


def comp10001go_valid_groups(groups):
    for group in groups:
        if group_score(group) is None:
            return False
    return True


# ---------------------------------------------------------------- Part 4
def all_best(cards, memo):
    """(best score, list of best groupings) for the tuple of cards."""
    if len(cards) == 0:
        return 0, [[]]
    if cards in memo:
        return memo[cards]
    first = cards[0]
    rest = cards[1:]
    best = None
    best_groupings = []
    # every subset of the rest, together with the first card, as the first group
    for mask in range(2 ** len(rest)):
        group = [first]
        others = []
        for j in range(len(rest)):
            if mask & (1 << j):
                group.append(rest[j])
            else:
                others.append(rest[j])
        score = group_score(group)
        if score is None:
            continue
        sub_score, sub_groupings = all_best(tuple(others), memo)
        if best is None or score + sub_score > best:
            best = score + sub_score
            best_groupings = []
        if score + sub_score == best:
            for g in sub_groupings:
                best_groupings.append([group] + g)
    memo[cards] = (best, best_groupings)
    return memo[cards]


def comp10001go_best_partitions(cards):
    score, groupings = all_best(tuple(cards), {})
    return groupings


# ---------------------------------------------------------------- Part 3
def comp10001go_play(discard_history, player_no, hand):
    # keep the cards that pair with my earlier discards, throw the highest other card
    mine = []
    for turn in discard_history:
        mine.append(turn[player_no])
    best = hand[0]
    for card in hand:
        pairs = False
        for d in mine:
            if d[0] == card[0]:
                pairs = True
        if not pairs and get_value(card) > get_value(best):
            best = card
    return best


def comp10001go_group(discard_history, player_no):
    mine = []
    for turn in discard_history:
        mine.append(turn[player_no])
    return comp10001go_best_partitions(mine)[0]
