# Homework 7 - Iteration
# I translated my MATLAB homework into Python. Lots of loops because sum() is banned.


def scrabbleScore(mine, theirs):
    mine_total = 0
    for ix in range(len(mine)):
        mine_total = mine_total + mine[ix]
    other_total = 0
    for ix in range(len(theirs)):
        other_total = other_total + theirs[ix]
    if mine_total > other_total:
        result = 'I am the Scrabble champion!'
    elif mine_total < other_total:
        result = "Beginner's luck..."
    else:
        result = 'I challenge you to a rematch!'
    return result


def war(hand1, hand2):
    deck_a = []
    for card in hand1:
        deck_a.append(card)
    deck_b = []
    for card in hand2:
        deck_b.append(card)
    turns = 0
    while len(deck_a) > 0 and len(deck_b) > 0:
        first_card = deck_a[0]
        second_card = deck_b[0]
        deck_a = deck_a[1:]
        deck_b = deck_b[1:]
        turns = turns + 1
        if first_card == 2 and second_card == 13:
            a_wins = True
        elif first_card == 13 and second_card == 2:
            a_wins = False
        elif first_card > second_card:
            a_wins = True
        else:
            a_wins = False
        if a_wins:
            deck_a.append(first_card)
            deck_a.append(second_card)
        else:
            deck_b.append(second_card)
            deck_b.append(first_card)
    if len(deck_a) > 0:
        result = 'Player 1 defeated player 2 in ' + str(turns) + ' rounds.'
    else:
        result = 'Player 2 defeated player 1 in ' + str(turns) + ' rounds.'
    return result


def points_for(card):
    if card == 65:
        return 11
    if card == 74 or card == 75 or card == 81:
        return 10
    return card


def blackJack(hand, deck, opponent):
    running = points_for(hand[0]) + points_for(hand[1])
    ix = 0
    while running < opponent and ix < len(deck):
        running = running + points_for(deck[ix])
        ix = ix + 1
    if running > 21:
        return False
    if running >= opponent:
        return True
    return False


def drop_doubles(hand):
    rest = []
    doubles = 0
    for cur in hand:
        seen = False
        for idx in range(len(rest)):
            if rest[idx] == cur:
                seen = True
                del rest[idx]
                break
        if seen:
            doubles = doubles + 1
        else:
            rest.append(cur)
    return rest, doubles


def goFish(hand1, hand2, deck):
    deck_a, score_a = drop_doubles(hand1)
    deck_b, score_b = drop_doubles(hand2)
    stock = list(deck)
    who = 1
    while len(deck_a) > 0 and len(deck_b) > 0:
        if who == 1:
            mine_hand = deck_a
            their_hand = deck_b
        else:
            mine_hand = deck_b
            their_hand = deck_a
        wanted = mine_hand[0]
        if wanted in their_hand:
            mine_hand.pop(0)
            their_hand.remove(wanted)
            if who == 1:
                score_a = score_a + 1
            else:
                score_b = score_b + 1
        else:
            cur = stock.pop(0)
            mine_hand.append(cur)
            front = mine_hand.pop(0)
            mine_hand.append(front)
            n_same = 0
            for card in mine_hand:
                if card == cur:
                    n_same = n_same + 1
            if n_same == 2:
                mine_hand.remove(cur)
                mine_hand.remove(cur)
                if who == 1:
                    score_a = score_a + 1
                else:
                    score_b = score_b + 1
        if who == 1:
            who = 2
        else:
            who = 1
    if score_a > score_b:
        message = 'Player 1 won!'
    elif score_b > score_a:
        message = 'Player 2 won!'
    else:
        message = "It's a tie!"
    return message, [score_a, score_b]


def search(puzzle, target):
    height = len(puzzle)
    width = len(puzzle[0])
    for row in range(height):
        for card in range(width):
            for drow, dcol in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
                path = []
                good = True
                for step in range(len(target)):
                    row2 = row + drow * step
                    col2 = card + dcol * step
                    if row2 < 0 or row2 >= height or col2 < 0 or col2 >= width:
                        good = False
                        break
                    if puzzle[row2][col2].lower() != target[step]:
                        good = False
                        break
                    path.append((row2, col2))
                if good:
                    return path
    return None


def wordSearch(puzzle, words):
    marked = []
    origins = []
    for entry in words:
        target = entry.strip().lower()
        path = search(puzzle, target)
        for cell in path:
            marked.append(cell)
        origins.append([path[0][0] + 1, path[0][1] + 1])
    answer = []
    for row in range(len(puzzle)):
        text = ''
        for card in range(len(puzzle[row])):
            if (row, card) in marked:
                text = text + '#'
            else:
                text = text + puzzle[row][card]
        answer.append(text)
    return answer, origins


def wordSearchHard(puzzle, word_list):
    height = len(puzzle)
    width = len(puzzle[0])
    marked = []
    n_missing = 0
    for entry in word_list.split(','):
        target = entry.strip().lower()
        if target == '':
            continue
        seen = False
        for row in range(height):
            for card in range(width):
                for drow, dcol in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
                    if drow == 0 and len(target) > width:
                        continue
                    if dcol == 0 and len(target) > height:
                        continue
                    path = []
                    good = True
                    for step in range(len(target)):
                        row2 = (row + drow * step) % height
                        col2 = (card + dcol * step) % width
                        if puzzle[row2][col2].lower() != target[step]:
                            good = False
                            break
                        path.append((row2, col2))
                    if good:
                        seen = True
                        for cell in path:
                            marked.append(cell)
        if not seen:
            n_missing = n_missing + 1
    answer = []
    for row in range(height):
        text = '@' * n_missing
        for card in range(width):
            if (row, card) in marked:
                text = text + '#'
            else:
                text = text + puzzle[row][card]
        text = text + '@' * n_missing
        answer.append(text)
    for ix in range(n_missing):
        answer.insert(0, '@' * (width + 2 * n_missing))
        answer.append('@' * (width + 2 * n_missing))
    return answer


def hand_points(queue):
    running = 0
    n_aces = 0
    for card in queue:
        running = running + card
        if card == 11:
            n_aces = n_aces + 1
    while running > 21 and n_aces > 0:
        running = running - 10
        n_aces = n_aces - 1
    return running


def blackJackHard(risks, deck, discard):
    queue = []
    for card in deck:
        queue.append(points_for(card))
    thrown = []
    for card in discard:
        thrown.append(points_for(card))
    all_hands = [[], [], [], [], []]
    for ix in range(5):
        all_hands[ix].append(queue.pop(0))
    for ix in range(5):
        all_hands[ix].append(queue.pop(0))
    active = [True, True, True, True, True]
    while True in active:
        for seat in range(5):
            if not active[seat]:
                continue
            pts = hand_points(all_hands[seat])
            if seat == 4:
                draw_more = pts < 17 or (pts == 17 and 11 in all_hands[seat])
            else:
                visible = list(thrown)
                visible.append(all_hands[seat][0])
                for pile in all_hands:
                    for card in pile[1:]:
                        visible.append(card)
                left = {}
                for face in range(2, 10):
                    left[face] = 4
                left[10] = 16
                left[11] = 4
                for card in visible:
                    left[card] = left[card] - 1
                n_safe = 0
                n_cards = 0
                for face in left:
                    n_cards = n_cards + left[face]
                    if face == 11:
                        worth = 1
                    else:
                        worth = face
                    if worth <= 21 - pts:
                        n_safe = n_safe + left[face]
                draw_more = n_safe / n_cards >= risks[seat]
            if draw_more:
                all_hands[seat].append(queue.pop(0))
                if hand_points(all_hands[seat]) > 21:
                    active[seat] = False
            else:
                active[seat] = False
    finals = []
    for pile in all_hands:
        finals.append(hand_points(pile))
    beaten_dealer = []
    for seat in range(4):
        if finals[seat] <= 21 and (finals[4] > 21 or finals[seat] > finals[4]):
            beaten_dealer.append(seat + 1)
    return finals, beaten_dealer
