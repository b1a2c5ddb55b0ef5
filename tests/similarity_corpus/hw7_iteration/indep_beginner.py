# hw7 iteration
# name: J. Student     section: B3
# no sum/cumsum/mean allowed so everything is added by hand


def scrabbleScore(mine, theirs):
    a = 0
    b = 0
    k = 0
    while k < len(mine) or k < len(theirs):
        if k < len(mine):
            a += mine[k]
        if k < len(theirs):
            b += theirs[k]
        k += 1
    if a == b:
        return "I challenge you to a rematch!"
    elif a > b:
        return "I am the Scrabble champion!"
    else:
        return "Beginner's luck..."


def war(hand1, hand2):
    p1 = hand1[:]
    p2 = hand2[:]
    n = 0
    done = False
    while not done:
        top1 = p1.pop(0)
        top2 = p2.pop(0)
        n += 1
        win1 = top1 > top2
        if top1 == 2 and top2 == 13:
            win1 = True
        if top1 == 13 and top2 == 2:
            win1 = False
        if win1:
            p1 += [top1, top2]
        else:
            p2 += [top2, top1]
        done = len(p1) == 0 or len(p2) == 0
    if len(p2) == 0:
        return "Player 1 defeated player 2 in " + str(n) + " rounds."
    return "Player 2 defeated player 1 in " + str(n) + " rounds."


def blackJack(hand, deck, opponent):
    def worth(x):
        if x == 65:
            return 11
        elif x in [74, 75, 81]:
            return 10
        return x

    cards = [worth(hand[0]), worth(hand[1])]
    pos = 0
    score = cards[0] + cards[1]
    while score < opponent:
        if pos == len(deck):
            return False
        score = score + worth(deck[pos])
        pos = pos + 1
    if score <= 21:
        return True
    return False


def goFish(hand1, hand2, deck):
    hands = [[], []]
    points = [0, 0]
    for who, start in enumerate([hand1, hand2]):
        for c in start:
            if hands[who].count(c) == 1:
                hands[who].remove(c)
                points[who] += 1
            else:
                hands[who].append(c)
    pile = deck[:]
    t = 0
    while len(hands[0]) > 0 and len(hands[1]) > 0:
        o = (t + 1) % 2
        want = hands[t][0]
        if hands[o].count(want) > 0:
            hands[t] = hands[t][1:]
            hands[o].remove(want)
            points[t] += 1
        else:
            new = pile[0]
            pile = pile[1:]
            hands[t] = hands[t][1:] + [new, hands[t][0]]
            if hands[t].count(new) == 2:
                hands[t] = [c for c in hands[t] if c != new]
                points[t] += 1
        t = o
    if points[0] > points[1]:
        res = "Player 1 won!"
    elif points[1] > points[0]:
        res = "Player 2 won!"
    else:
        res = "It's a tie!"
    return res, points


def wordSearch(puzzle, words):
    out = [list(r) for r in puzzle]
    where = []
    R = len(puzzle)
    C = len(puzzle[0])
    for w in words:
        w = w.strip().lower()
        hit = None
        r = 0
        while r < R and hit is None:
            c = 0
            while c < C and hit is None:
                for (a, b) in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
                    er = r + a * (len(w) - 1)
                    ec = c + b * (len(w) - 1)
                    if er < 0 or er >= R or ec < 0 or ec >= C:
                        continue
                    s = ""
                    for i in range(len(w)):
                        s += puzzle[r + a * i][c + b * i].lower()
                    if s == w:
                        hit = (r, c, a, b)
                        break
                c += 1
            r += 1
        r, c, a, b = hit
        for i in range(len(w)):
            out[r + a * i][c + b * i] = "#"
        where.append([r + 1, c + 1])
    return ["".join(x) for x in out], where


def wordSearchHard(puzzle, word_list):
    R = len(puzzle)
    C = len(puzzle[0])
    out = [list(r) for r in puzzle]
    missing = 0
    for w in word_list.split(","):
        w = w.strip().lower()
        if w == "":
            continue
        any_hit = False
        for r in range(R):
            for c in range(C):
                for (a, b) in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
                    if (a == 0 and len(w) > C) or (b == 0 and len(w) > R):
                        continue
                    s = ""
                    for i in range(len(w)):
                        s += puzzle[(r + a * i) % R][(c + b * i) % C].lower()
                    if s == w:
                        any_hit = True
                        for i in range(len(w)):
                            out[(r + a * i) % R][(c + b * i) % C] = "#"
        if not any_hit:
            missing += 1
    rows = []
    for line in out:
        rows.append("@" * missing + "".join(line) + "@" * missing)
    top = ["@" * (C + 2 * missing) for i in range(missing)]
    return top + rows + top


def value_of(hand):
    v = 0
    soft = 0
    for c in hand:
        v += c
        if c == 11:
            soft += 1
    while v > 21 and soft > 0:
        v -= 10
        soft -= 1
    return v


def blackJackHard(risks, deck, discard):
    def conv(x):
        if x == 65:
            return 11
        if x in (74, 75, 81):
            return 10
        return x

    d = [conv(x) for x in deck]
    gone = [conv(x) for x in discard]
    h = [[d[i], d[i + 5]] for i in range(5)]
    d = d[10:]
    out = [False, False, False, False, False]
    while False in out:
        for i in range(5):
            if out[i]:
                continue
            v = value_of(h[i])
            if i == 4:
                take = v < 17 or (v == 17 and 11 in h[i])
            else:
                counts = {}
                for x in range(2, 12):
                    counts[x] = 16 if x == 10 else 4
                for x in gone + [h[i][0]]:
                    counts[x] -= 1
                for j in range(5):
                    for x in h[j][1:]:
                        counts[x] -= 1
                ok = 0
                tot = 0
                for x in counts:
                    tot += counts[x]
                    if (x if x != 11 else 1) + v <= 21:
                        ok += counts[x]
                take = ok / tot >= risks[i]
            if take:
                h[i].append(d.pop(0))
                if value_of(h[i]) > 21:
                    out[i] = True
            else:
                out[i] = True
    vals = [value_of(x) for x in h]
    won = []
    for i in range(4):
        if vals[i] <= 21:
            if vals[4] > 21 or vals[i] > vals[4]:
                won.append(i + 1)
    return vals, won
