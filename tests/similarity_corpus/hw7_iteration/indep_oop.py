"""CS1371 HW7 in Python. I kept the card games in small classes because it was easier to debug."""


class Pile:
    """A hand of cards you take from the front and add to the back."""

    def __init__(self, cards):
        self.cards = list(cards)

    def __len__(self):
        return len(self.cards)

    def take(self):
        return self.cards.pop(0)

    def give(self, *cards):
        self.cards.extend(cards)


def add_up(numbers):
    result = 0
    for n in numbers:
        result = result + n
    return result


def scrabbleScore(mine, theirs):
    diff = add_up(mine) - add_up(theirs)
    messages = {1: "I am the Scrabble champion!", -1: "Beginner's luck...", 0: "I challenge you to a rematch!"}
    sign = 0
    if diff > 0:
        sign = 1
    elif diff < 0:
        sign = -1
    return messages[sign]


def war(hand1, hand2):
    one, two = Pile(hand1), Pile(hand2)
    count = 0
    while len(one) and len(two):
        x, y = one.take(), two.take()
        count += 1
        if (x == 2 and y == 13) or (x > y and not (x == 13 and y == 2)):
            one.give(x, y)
        else:
            two.give(y, x)
    if len(one):
        return "Player 1 defeated player 2 in %d rounds." % count
    return "Player 2 defeated player 1 in %d rounds." % count


FACE = {65: 11, 74: 10, 75: 10, 81: 10}


def blackJack(hand, deck, opponent):
    points = FACE.get(hand[0], hand[0]) + FACE.get(hand[1], hand[1])
    for card in deck:
        if points >= opponent:
            break
        points += FACE.get(card, card)
    return points <= 21 and points >= opponent


class FishPlayer:
    def __init__(self, cards):
        self.hand = []
        self.score = 0
        for card in cards:
            self.add(card)

    def add(self, card):
        if card in self.hand:
            self.hand.remove(card)
            self.score += 1
        else:
            self.hand.append(card)

    def draw(self, card):
        self.hand.append(card)
        self.hand.append(self.hand.pop(0))
        if self.hand.count(card) > 1:
            self.hand.remove(card)
            self.hand.remove(card)
            self.score += 1


def goFish(hand1, hand2, deck):
    players = [FishPlayer(hand1), FishPlayer(hand2)]
    stock = list(deck)
    now = 0
    while players[0].hand and players[1].hand:
        asking, asked = players[now], players[1 - now]
        card = asking.hand[0]
        if card in asked.hand:
            del asking.hand[0]
            asked.hand.remove(card)
            asking.score += 1
        else:
            asking.draw(stock.pop(0))
        now = 1 - now
    a, b = players[0].score, players[1].score
    if a == b:
        text = "It's a tie!"
    else:
        text = "Player %d won!" % (1 if a > b else 2)
    return text, [a, b]


def locate(grid, word, wrap):
    """Every placement of word in grid as a list of (row, col) cells."""
    height, width = len(grid), len(grid[0])
    placements = []
    for r0 in range(height):
        for c0 in range(width):
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                if wrap and len(word) > (width if dr == 0 else height):
                    continue
                path = []
                for step, letter in enumerate(word):
                    r, c = r0 + dr * step, c0 + dc * step
                    if wrap:
                        r, c = r % height, c % width
                    if not (0 <= r < height and 0 <= c < width) or grid[r][c].lower() != letter:
                        path = None
                        break
                    path.append((r, c))
                if path:
                    placements.append(path)
    return placements


def cross(grid, cells):
    rows = [list(line) for line in grid]
    for r, c in cells:
        rows[r][c] = "#"
    return ["".join(row) for row in rows]


def wordSearch(puzzle, words):
    marked = []
    firsts = []
    for raw in words:
        path = locate(puzzle, raw.strip().lower(), False)[0]
        marked += path
        firsts.append([path[0][0] + 1, path[0][1] + 1])
    return cross(puzzle, marked), firsts


def wordSearchHard(puzzle, word_list):
    marked, lost = [], 0
    for raw in word_list.split(","):
        word = raw.strip().lower()
        if not word:
            continue
        paths = locate(puzzle, word, True)
        if not paths:
            lost += 1
        for path in paths:
            marked += path
    grid = ["@" * lost + row + "@" * lost for row in cross(puzzle, marked)]
    frame = "@" * (len(puzzle[0]) + 2 * lost)
    return [frame] * lost + grid + [frame] * lost


def hand_total(cards):
    best = add_up(cards)
    aces = cards.count(11)
    while best > 21 and aces > 0:
        best -= 10
        aces -= 1
    return best


def blackJackHard(risks, deck, discard):
    stack = [FACE.get(c, c) for c in deck]
    seen = [FACE.get(c, c) for c in discard]
    seats = [[stack.pop(0)] for _ in range(5)]
    for seat in seats:
        seat.append(stack.pop(0))
    standing = [False] * 5
    while not all(standing):
        for who in range(5):
            if standing[who]:
                continue
            total = hand_total(seats[who])
            if who == 4:
                hit = total < 17 or (total == 17 and 11 in seats[who])
            else:
                remaining = {v: 4 for v in range(2, 10)}
                remaining[10] = 16
                remaining[11] = 4
                visible = seen + [seats[who][0]] + [c for s in seats for c in s[1:]]
                for c in visible:
                    remaining[c] -= 1
                good = add_up([n for v, n in remaining.items() if (1 if v == 11 else v) <= 21 - total])
                hit = good / add_up(list(remaining.values())) >= risks[who]
            if hit:
                seats[who].append(stack.pop(0))
                standing[who] = hand_total(seats[who]) > 21
            else:
                standing[who] = True
    totals = [hand_total(s) for s in seats]
    beat = [i + 1 for i in range(4) if totals[i] <= 21 and (totals[4] > 21 or totals[i] > totals[4])]
    return totals, beat
