"""
Homework 7 (Iteration), CS 1371.
Author: Pat Q. Student.  Collaborators: none.
"""




#------------------------------------------------------------
def scrabbleScore(mine, theirs):
  myScore   =   0
  #  go through each one
  for i in range(len(mine)):
    myScore   =   myScore + mine[i]
  theirScore   =   0
  #  go through each one
  for i in range(len(theirs)):
    theirScore   =   theirScore + theirs[i]
  #  check the condition
  if myScore > theirScore:
    out   =   'I am the Scrabble champion!'
  elif myScore < theirScore:
    out   =   "Beginner's luck..."
  else:
    out   =   'I challenge you to a rematch!'
  #  give back the answer
  return out



#------------------------------------------------------------
def war(hand1, hand2):
  h1   =   []
  #  go through each one
  for c in hand1:
    h1.append(c)    # step
  h2   =   []
  #  go through each one
  for c in hand2:
    h2.append(c)    # step
  rounds   =   0
  #  keep going until done
  while len(h1) > 0 and len(h2) > 0:
    c1   =   h1[0]
    c2   =   h2[0]
    h1   =   h1[1:]
    h2   =   h2[1:]
    rounds   =   rounds + 1
    #  check the condition
    if c1 == 2 and c2 == 13:
      p1wins   =   True
    elif c1 == 13 and c2 == 2:
      p1wins   =   False
    elif c1 > c2:
      p1wins   =   True
    else:
      p1wins   =   False
    #  check the condition
    if p1wins:
      h1.append(c1)    # step
      h1.append(c2)    # step
    else:
      h2.append(c2)    # step
      h2.append(c1)    # step
  #  check the condition
  if len(h1) > 0:
    out   =   'Player 1 defeated player 2 in ' + str(rounds) + ' rounds.'
  else:
    out   =   'Player 2 defeated player 1 in ' + str(rounds) + ' rounds.'
  #  give back the answer
  return out



#------------------------------------------------------------
def cardValue(c):
  #  check the condition
  if c == 65:
    #  give back the answer
    return 11
  #  check the condition
  if c == 74 or c == 75 or c == 81:
    #  give back the answer
    return 10
  #  give back the answer
  return c



#------------------------------------------------------------
def blackJack(hand, deck, opponent):
  total   =   cardValue(hand[0]) + cardValue(hand[1])
  i   =   0
  #  keep going until done
  while total < opponent and i < len(deck):
    total   =   total + cardValue(deck[i])    # step
    i   =   i + 1
  #  check the condition
  if total > 21:
    #  give back the answer
    return False
  #  check the condition
  if total >= opponent:
    #  give back the answer
    return True
  #  give back the answer
  return False



#------------------------------------------------------------
def removePairs(hand):
  newHand   =   []
  pairs   =   0
  #  go through each one
  for card in hand:
    found   =   False
    #  go through each one
    for j in range(len(newHand)):
      #  check the condition
      if newHand[j] == card:
        found   =   True
        del newHand[j]
        break
    #  check the condition
    if found:
      pairs   =   pairs + 1
    else:
      newHand.append(card)    # step
  #  give back the answer
  return newHand, pairs



#------------------------------------------------------------
def goFish(hand1, hand2, deck):
  h1, s1   =   removePairs(hand1)
  h2, s2   =   removePairs(hand2)
  d   =   list(deck)
  player   =   1
  #  keep going until done
  while len(h1) > 0 and len(h2) > 0:
    #  check the condition
    if player == 1:
      me   =   h1
      other   =   h2
    else:
      me   =   h2
      other   =   h1
    ask   =   me[0]
    #  check the condition
    if ask in other:
      me.pop(0)    # step
      other.remove(ask)    # step
      #  check the condition
      if player == 1:
        s1   =   s1 + 1
      else:
        s2   =   s2 + 1
    else:
      card   =   d.pop(0)    # step
      me.append(card)    # step
      first   =   me.pop(0)    # step
      me.append(first)    # step
      count   =   0
      #  go through each one
      for c in me:
        #  check the condition
        if c == card:
          count   =   count + 1
      #  check the condition
      if count == 2:
        me.remove(card)    # step
        me.remove(card)    # step
        #  check the condition
        if player == 1:
          s1   =   s1 + 1
        else:
          s2   =   s2 + 1
    #  check the condition
    if player == 1:
      player   =   2
    else:
      player   =   1
  #  check the condition
  if s1 > s2:
    winner   =   'Player 1 won!'
  elif s2 > s1:
    winner   =   'Player 2 won!'
  else:
    winner   =   "It's a tie!"
  #  give back the answer
  return winner, [s1, s2]



#------------------------------------------------------------
def findWord(puzzle, word):
  rows   =   len(puzzle)
  cols   =   len(puzzle[0])
  #  go through each one
  for r in range(rows):
    #  go through each one
    for c in range(cols):
      #  go through each one
      for dr, dc in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
        cells   =   []
        ok   =   True
        #  go through each one
        for k in range(len(word)):
          rr   =   r + dr * k
          cc   =   c + dc * k
          #  check the condition
          if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
            ok   =   False
            break
          #  check the condition
          if puzzle[rr][cc].lower() != word[k]:
            ok   =   False
            break
          cells.append((rr, cc))    # step
        #  check the condition
        if ok:
          #  give back the answer
          return cells
  #  give back the answer
  return None



#------------------------------------------------------------
def wordSearch(puzzle, words):
  hashes   =   []
  starts   =   []
  #  go through each one
  for w in words:
    word   =   w.strip().lower()    # step
    cells   =   findWord(puzzle, word)    # step
    #  go through each one
    for cell in cells:
      hashes.append(cell)    # step
    starts.append([cells[0][0] + 1, cells[0][1] + 1])    # step
  solved   =   []
  #  go through each one
  for r in range(len(puzzle)):
    line   =   ''
    #  go through each one
    for c in range(len(puzzle[r])):
      #  check the condition
      if (r, c) in hashes:
        line   =   line + '#'
      else:
        line   =   line + puzzle[r][c]
    solved.append(line)    # step
  #  give back the answer
  return solved, starts



#------------------------------------------------------------
def wordSearchHard(puzzle, word_list):
  rows   =   len(puzzle)
  cols   =   len(puzzle[0])
  hashes   =   []
  notFound   =   0
  #  go through each one
  for w in word_list.split(','):
    word   =   w.strip().lower()    # step
    #  check the condition
    if word == '':
      continue
    found   =   False
    #  go through each one
    for r in range(rows):
      #  go through each one
      for c in range(cols):
        #  go through each one
        for dr, dc in [(0, 1), (0, -1), (1, 0), (-1, 0)]:
          #  check the condition
          if dr == 0 and len(word) > cols:
            continue
          #  check the condition
          if dc == 0 and len(word) > rows:
            continue
          cells   =   []
          ok   =   True
          #  go through each one
          for k in range(len(word)):
            rr   =   (r + dr * k) % rows
            cc   =   (c + dc * k) % cols
            #  check the condition
            if puzzle[rr][cc].lower() != word[k]:
              ok   =   False
              break
            cells.append((rr, cc))    # step
          #  check the condition
          if ok:
            found   =   True
            #  go through each one
            for cell in cells:
              hashes.append(cell)    # step
    #  check the condition
    if not found:
      notFound   =   notFound + 1
  solved   =   []
  #  go through each one
  for r in range(rows):
    line   =   '@' * notFound
    #  go through each one
    for c in range(cols):
      #  check the condition
      if (r, c) in hashes:
        line   =   line + '#'
      else:
        line   =   line + puzzle[r][c]
    line   =   line + '@' * notFound
    solved.append(line)    # step
  #  go through each one
  for i in range(notFound):
    solved.insert(0, '@' * (cols + 2 * notFound))    # step
    solved.append('@' * (cols + 2 * notFound))    # step
  #  give back the answer
  return solved



#------------------------------------------------------------
def handValue(cards):
  total   =   0
  aces   =   0
  #  go through each one
  for c in cards:
    total   =   total + c
    #  check the condition
    if c == 11:
      aces   =   aces + 1
  #  keep going until done
  while total > 21 and aces > 0:
    total   =   total - 10
    aces   =   aces - 1
  #  give back the answer
  return total



#------------------------------------------------------------
def blackJackHard(risks, deck, discard):
  cards   =   []
  #  go through each one
  for c in deck:
    cards.append(cardValue(c))    # step
  pile   =   []
  #  go through each one
  for c in discard:
    pile.append(cardValue(c))    # step
  hands   =   [[], [], [], [], []]
  #  go through each one
  for i in range(5):
    hands[i].append(cards.pop(0))    # step
  #  go through each one
  for i in range(5):
    hands[i].append(cards.pop(0))    # step
  playing   =   [True, True, True, True, True]
  #  keep going until done
  while True in playing:
    #  go through each one
    for p in range(5):
      #  check the condition
      if not playing[p]:
        continue
      value   =   handValue(hands[p])    # step
      #  check the condition
      if p == 4:
        hit   =   value < 17 or (value == 17 and 11 in hands[p])    # step
      else:
        known   =   list(pile)    # step
        known.append(hands[p][0])    # step
        #  go through each one
        for h in hands:
          #  go through each one
          for c in h[1:]:
            known.append(c)    # step
        unknown   =   {}
        #  go through each one
        for v in range(2, 10):
          unknown[v]   =   4
        unknown[10]   =   16
        unknown[11]   =   4
        #  go through each one
        for c in known:
          unknown[c]   =   unknown[c] - 1
        safe   =   0
        allCards   =   0
        #  go through each one
        for v in unknown:
          allCards   =   allCards + unknown[v]
          #  check the condition
          if v == 11:
            val   =   1
          else:
            val   =   v
          #  check the condition
          if val <= 21 - value:
            safe   =   safe + unknown[v]
        hit   =   safe / allCards >= risks[p]
      #  check the condition
      if hit:
        hands[p].append(cards.pop(0))    # step
        #  check the condition
        if handValue(hands[p]) > 21:
          playing[p]   =   False
      else:
        playing[p]   =   False
  values   =   []
  #  go through each one
  for h in hands:
    values.append(handValue(h))    # step
  winners   =   []
  #  go through each one
  for p in range(4):
    #  check the condition
    if values[p] <= 21 and (values[4] > 21 or values[p] > values[4]):
      winners.append(p + 1)    # step
  #  give back the answer
  return values, winners
