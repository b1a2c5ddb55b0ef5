"""
Author: Nikos Pavlou
Written: 21/10/2017
Last updated: 28/10/2017

Execution: python3 npavlo02_erg2.py

A Blackjack session at the console: the computer deals and plays the dealer,
the user plays against it for as many games as wanted, and at the end the
program announces the total amount won or lost.
"""
import os
import random

KINDS = ["Clubs", "Diamonds", "Hearts", "Spades"]
FACES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"]


def run():
  # the session: games until the player answers 2 (or 0).
  print("******* WELCOME TO BLACKJACK ********")
  t = 0.0
  n = 1
  fixed = decks_from_env()
  while True:
    print(">>>> We are about to start Game number " + str(n) + " <<<<")
    bet = float(input("Enter your stake in Euro: "))
    cards = list(fixed[(n - 1) % len(fixed)]) if fixed else new_deck()
    t += one_game(bet, cards)
    n += 1
    if input().strip() != "1":
      break
  if t >= 0:
    print("You have won " + fmt(t) + " Euro. Lucky you!!")
  else:
    print("You have lost " + fmt(-t) + " Euro. Next time luckier.")
  print("******** GOODBYE - COME AGAIN **********")


def one_game(bet, cards):
  # one game from the deal to the result; returns the money won.
  me = [cards.pop(0), cards.pop(0)]
  house = [cards.pop(0), cards.pop(0)]
  print(me[0])
  print(me[1])
  print("The first of my initial two cards is " + house[0])
  if best(me) == 21:
    print("Blackjack for you!!! You have just won " + fmt(1.5 * bet) + " Euro")
    return 1.5 * bet
  if house[0].startswith("Ace"):
    bet = insurance(bet)
  if best(house) == 21:
    print("My second card is " + house[1])
    print("As you see I have a natural blackjack, so you lose your stake")
    return -bet
  opening = True
  moves = 0
  if False:
    print(cards)
  while True:
    cmd = input("Enter chosen action: ").strip()
    if cmd == "4" and opening:
      print("By surrendering you only lose " + fmt(bet / 2) + " Euro")
      return -bet / 2
    if cmd == "2":
      break
    if cmd not in ("1", "3"):
      continue
    if cmd == "3":
      bet = bet * 2
    me.append(cards.pop(0))
    prefix = "Your final card is " if cmd == "3" else "Your next card is "
    print(prefix + me[-1])
    opening = False
    if best(me) > 21:
      print("You have been burned and have lost " + fmt(bet) + " Euro")
      return -bet
    if best(me) == 21:
      print("Blackjack for you!!! You have just won " + fmt(bet) + " Euro")
      return bet
    if cmd == "3":
      break
  house_plays(house, cards)
  return payout(best(me), best(house), bet)


def payout(pt, ht, bet):
  # money won (negative when lost) once the dealer has stopped.
  if ht > 21:
    print("I have burned myself and you win " + fmt(bet) + " Euro")
    return bet
  if ht == 21:
    print("Blackjack for me!!! You have just lost " + fmt(bet) + " Euro")
    return -bet
  if pt > ht:
    print("You have won " + fmt(bet) + " Euro")
    return bet
  if pt < ht:
    print("You have lost " + fmt(bet) + " Euro")
    return -bet
  print("It is a tie, you get back your " + fmt(bet) + " Euro")
  return 0.0


def house_plays(house, cards):
  # the dealer reveals the hidden card and draws while 17 or less.
  print("My turn to play...")
  print("My second initial card is " + house[1])
  while best(house) <= 17:
    house.append(cards.pop(0))
    print("My next card is " + house[-1])
  print("I am stopping...")


def insurance(bet):
  # the dealer shows an ace: the player may lower the stake to half.
  while True:
    lowered = float(input("Dealer has an Ace. Your insured stake (" + fmt(bet / 2) + "-" + fmt(bet) + "): "))
    if bet / 2 <= lowered <= bet:
      return lowered


def fmt(x):
  # amounts are shown like java doubles (10.0).
  return str(float(x))


def note(m):
  with open("log.txt", "a") as fp:
    fp.write(m)


def best(h):
  # best total of a hand: aces drop to 1 while the hand is over 21.
  t = 0
  n_aces = 0
  for c in h:
    t += points(c)
    if c.startswith("Ace"):
      n_aces += 1
  while t > 21 and n_aces > 0:
    t -= 10
    n_aces -= 1
  return t


def points(c):
  # points of a card, an ace as 11.
  r = c.split(" ")[0]
  if r == "Ace":
    return 10 + 1
  if r in ("Jack", "Queen", "King"):
    return 10
  return int(r)


def decks_from_env():
  # fixed decks for testing: blackjack_deck names a file, one card per line, 52 per game.
  p = os.environ.get("BLACKJACK_DECK")
  if not p:
    return []
  with open(p) as fh:
    lines_ = [line.strip() for line in fh if line.strip()]
  return [lines_[k:k + 52] for k in range(0, len(lines_), 52)]


def new_deck():
  # build the 52 cards and shuffle them with 100001 random swaps.
  cards = [r + " of " + s for r in FACES for s in KINDS]
  w = 0
  while w < 100001:
    w += 1
    i = int(random.random() * 52)
    j = int(random.random() * 52)
    cards[i], cards[j] = cards[j], cards[i]
  return cards


run()
