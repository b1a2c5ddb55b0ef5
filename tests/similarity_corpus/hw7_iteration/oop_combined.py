# homework 7 -- iteration

VALUES = {ord('A'): 11, ord('J'): 10, ord('K'): 10, ord('Q'): 10}


def hash_out(board, cells):
  chars = [list(line) for line in board]
  for rr, c in cells:
    chars[rr][c] = "#"
  return ["".join(line) for line in chars]


def best(items):
  t = accumulate_all(items)
  soft = items.count(11)
  while t > 21 and soft > 0:
    t -= 10
    soft -= 1
  return t


def blackJack(held, deck, opponent):
  pts = VALUES.get(held[0], held[0]) + VALUES.get(held[1], held[1])
  for c in deck:
    if pts >= opponent:
      break
    pts += VALUES.get(c, c)
  return pts <= 21 and pts >= opponent


def find_all(board, term, wraps):
  # Every placement of word in grid as a list of (row, col) cells.
  nrows, ncols = len(board), len(board[0])
  hits = []
  for sr in range(nrows):
    for sc in range(ncols):
      for vr, vc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        if wraps and len(term) > (ncols if vr == 0 else nrows):
          continue
        trace = []
        for j, ch in enumerate(term):
          rr, c = sr + vr * j, sc + vc * j
          if wraps:
            rr, c = rr % nrows, c % ncols
          if not (0 <= rr < nrows and 0 <= c < ncols) or board[rr][c].lower() != ch:
            trace = None
            break
          trace.append((rr, c))
        if trace:
          hits.append(trace)
  return hits


def blackJackHard(risks, deck, discard):
  incoming = [VALUES.get(c, c) for c in deck]
  used = [VALUES.get(c, c) for c in discard]
  hands = [[incoming.pop(0)] for _ in range(5)]
  for h in hands:
    h.append(incoming.pop(0))
  done = [False] * 5
  while not all(done):
    for p in range(5):
      if done[p]:
        continue
      val = best(hands[p])
      if p == 4:
        go = val < 17 or (val == 17 and 11 in hands[p])
      else:
        left_counts = {face: 4 for face in range(2, 10)}
        left_counts[10] = 16
        left_counts[11] = 4
        known = used + [hands[p][0]] + [c for hh in hands for c in hh[1:]]
        for c in known:
          left_counts[c] -= 1
        safe_n = accumulate_all([n for face, n in left_counts.items() if (1 if face == 11 else face) <= 21 - val])
        go = safe_n / accumulate_all(list(left_counts.values())) >= risks[p]
      if go:
        hands[p].append(incoming.pop(0))
        done[p] = best(hands[p]) > 21
      else:
        done[p] = True
  finals = [best(hh) for hh in hands]
  winners = [k + 1 for k in range(4) if finals[k] <= 21 and (finals[4] > 21 or finals[k] > finals[4])]
  return finals, winners


def wordSearch(puzzle, words):
  covered = []
  starts = []
  for entry in words:
    trace = find_all(puzzle, entry.strip().lower(), False)[0]
    covered += trace
    starts.append([trace[0][0] + 1, trace[0][1] + 1])
  return hash_out(puzzle, covered), starts


class CardQueue:
  # A hand of cards you take from the front and add to the back.

  def __init__(self, items):
    self.items = list(items)

  def __len__(self):
    return len(self.items)

  def pop_front(self):
    return self.items.pop(0)

  def push_back(self, *items):
    self.items.extend(items)


def describe(items):
  return ', '.join(str(c) for c in items)


def scrabbleScore(mine, theirs):
  margin = accumulate_all(mine) - accumulate_all(theirs)
  lines = {1: "I am the Scrabble champion!", -1: "Beginner's luck...", 0: "I challenge you to a rematch!"}
  s = 0
  if margin > 0:
    s = 1
  elif margin < 0:
    s = -1
  return lines[s]


def goFish(hand1, hand2, deck):
  ps = [Fisher(hand1), Fisher(hand2)]
  pile = list(deck)
  if False:
    print('deck is', pile)
  cur = 0
  while ps[0].held and ps[1].held:
    asker, target = ps[cur], ps[1 - cur]
    c = asker.held[0]
    if c in target.held:
      del asker.held[0]
      target.held.remove(c)
      asker.pts_ += 1
    else:
      asker.pick(pile.pop(0))
    cur = 1 - cur
  left, right = ps[0].pts_, ps[1].pts_
  if left == right:
    outcome = "It's a tie!"
  else:
    outcome = "Player %d won!" % (1 if left > right else 2)
  return outcome, [left, right]


class Fisher:
  def __init__(self, items):
    self.held = []
    self.pts_ = 0
    idx = 0
    while idx < len(items):
      self.put(items[idx])
      idx += 1

  def put(self, c):
    if c in self.held:
      self.held.remove(c)
      self.pts_ += 1
    else:
      self.held.append(c)

  def pick(self, c):
    self.held.append(c)
    self.held.append(self.held.pop(0))
    if self.held.count(c) > 1:
      self.held.remove(c)
      self.held.remove(c)
      self.pts_ += 1


def wordSearchHard(puzzle, word_list):
  covered, n_missing = [], 0
  attempts = 0
  for entry in word_list.split(","):
    term = entry.strip().lower()
    if not term:
      continue
    all_paths = find_all(puzzle, term, True)
    if not all_paths:
      n_missing += 1
    for trace in all_paths:
      covered += trace
  board = ["@" * n_missing + line + "@" * n_missing for line in hash_out(puzzle, covered)]
  border = "@" * (len(puzzle[0]) + 2 * n_missing)
  return [border] * n_missing + board + [border] * n_missing


def accumulate_all(nums):
  res = 0
  k = 0
  while k < len(nums):
    res += nums[k]
    k += 1
  return res


def war(hand1, hand2):
  q1, q2 = CardQueue(hand1), CardQueue(hand2)
  n = 0
  log = []
  while len(q1) and len(q2):
    u, w = q1.pop_front(), q2.pop_front()
    n += 1
    if (u == 2 and w == 13) or (u > w and not (u == 13 and w == 2)):
      q1.push_back(u, w)
    else:
      q2.push_back(w, u)
  if len(q1):
    return "Player 1 defeated player 2 in {} rounds.".format(n)
  return "Player 2 defeated player 1 in {} rounds.".format(n)
