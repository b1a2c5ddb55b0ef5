# EPL131 - Assignment 2, Blackjack
# Author: Giorgos Ioannou   written 19/10/2017   last updated 26/10/2017
# run with:  python3 gioann01_erg2.py
# The program is the dealer; the user bets on each game; the net result is printed at the end.
import random

FACES = {"Jack": 10, "Queen": 10, "King": 10, "Ace": 11}


class Table:
    def __init__(self):
        self.shoe = [f"{r} of {s}" for s in ("Hearts", "Diamonds", "Clubs", "Spades")
                     for r in [str(n) for n in range(2, 11)] + ["Jack", "Queen", "King", "Ace"]]
        random.shuffle(self.shoe)
        self.you, self.me = [], []

    def hit(self, who):
        who.append(self.shoe.pop())
        return who[-1]

    @staticmethod
    def count(cards):
        value, soft = 0, 0
        for c in cards:
            name = c.split()[0]
            value += FACES.get(name, 0) or int(name)
            soft += name == "Ace"
        while value > 21 and soft:
            value, soft = value - 10, soft - 1
        return value


def euro(x):
    return f"{float(x)} Euro"


def insured(bet):
    low = bet / 2
    while True:
        answer = float(input(f"Dealer shows an Ace. Enter your insured stake ({low} - {bet}): "))
        if low <= answer <= bet:
            return answer


def game(bet):
    t = Table()
    for _ in range(2):
        print(t.hit(t.you))
    t.hit(t.me)
    t.hit(t.me)
    print("The first of my initial two cards is", t.me[0])
    if Table.count(t.you) == 21:
        print("Blackjack for you!!! You have just won", euro(bet * 1.5))
        return bet * 1.5
    if t.me[0].startswith("Ace"):
        bet = insured(bet)
    if Table.count(t.me) == 21:
        print("My second card is", t.me[1])
        print("As you see I have a natural blackjack, so you lose your stake")
        return -bet
    actions = 0
    choice = ""
    while choice not in ("2", "3"):
        choice = input("Enter chosen action: ").strip()
        if choice == "4":
            if actions == 0:
                print("By surrendering you only lose", euro(bet / 2))
                return -bet / 2
            continue
        if choice in ("1", "3"):
            if choice == "3":
                bet += bet
            card = t.hit(t.you)
            print(("Your final card is " if choice == "3" else "Your next card is ") + card)
            actions += 1
            mine = Table.count(t.you)
            if mine > 21:
                print("You have been burned and have lost", euro(bet))
                return -bet
            if mine == 21:
                print("Blackjack for you!!! You have just won", euro(bet))
                return bet
    print("My turn to play...")
    print("My second initial card is", t.me[1])
    while Table.count(t.me) <= 17:
        print("My next card is", t.hit(t.me))
    print("I am stopping...")
    d, p = Table.count(t.me), Table.count(t.you)
    outcomes = [(d > 21, "I have burned myself and you win {}", bet),
                (d == 21, "Blackjack for me!!! You have just lost {}", -bet),
                (p > d, "You have won {}", bet),
                (p < d, "You have lost {}", -bet),
                (True, "It is a tie, you get back your {}", 0)]
    for happened, text, amount in outcomes:
        if happened:
            print(text.format(euro(abs(bet))))
            return amount


if __name__ == "__main__":
    print("******* WELCOME TO BLACKJACK ********")
    net, number = 0.0, 0
    playing = True
    while playing:
        number += 1
        print(f">>>> We are about to start Game number {number} <<<<")
        net += game(float(input("Enter your stake in Euro: ")))
        playing = input().strip() == "1"
    if net >= 0:
        print("You have won", euro(net) + ". Lucky you!!")
    else:
        print("You have lost", euro(-net) + ". Next time luckier.")
    print("******** GOODBYE - COME AGAIN **********")
