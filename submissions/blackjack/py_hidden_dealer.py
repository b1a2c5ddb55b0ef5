# A hostile program (red team): the dealer plays out of sight. Its hidden card and its draws are
# never shown, and the result announced is the one a grader gets when it fills the cards it never
# saw from the unseen rest of the deck in order: the program plays against the grader's guess.
"""
Author: Eleni Charalambous
Written: 21/10/2017
Last updated: 28/10/2017

Execution: python3 echara04_erg2.py

A Blackjack session at the console: the computer deals and plays the dealer,
the user plays against it for as many games as wanted, and at the end the
program announces the total amount won or lost.
"""
import os
import random

SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"]


def create_shuffled_deck():
    """Build the 52 cards and shuffle them with 100001 random swaps."""
    deck = [rank + " of " + suit for rank in RANKS for suit in SUITS]
    for _ in range(100001):
        first = int(random.random() * 52)
        second = int(random.random() * 52)
        deck[first], deck[second] = deck[second], deck[first]
    return deck


def load_decks():
    """Fixed decks for testing: BLACKJACK_DECK names a file, one card per line, 52 per game."""
    path = os.environ.get("BLACKJACK_DECK")
    if not path:
        return []
    with open(path) as deck_file:
        cards = [line.strip() for line in deck_file if line.strip()]
    return [cards[start:start + 52] for start in range(0, len(cards), 52)]


def card_value(card):
    """Points of a card, an Ace as 11."""
    rank = card.split(" ")[0]
    if rank == "Ace":
        return 11
    if rank in ("Jack", "Queen", "King"):
        return 10
    return int(rank)


def hand_total(hand):
    """Best total of a hand: Aces drop to 1 while the hand is over 21."""
    total = sum(card_value(card) for card in hand)
    aces = sum(1 for card in hand if card.startswith("Ace"))
    while total > 21 and aces > 0:
        total -= 10
        aces -= 1
    return total


def money(amount):
    """Amounts are shown like Java doubles (10.0)."""
    return str(float(amount))


def ask_insurance(stake):
    """The dealer shows an Ace: the player may lower the stake to half."""
    while True:
        new_stake = float(input("Dealer has an Ace. Your insured stake (" + money(stake / 2) + "-" + money(stake) + "): "))
        if stake / 2 <= new_stake <= stake:
            return new_stake


def assumed_dealer(shown, up_card):
    """The dealer a reader of the screen must make up when it never sees the hidden card and the
    draws: the unseen cards in the order of a new deck, the hidden one no natural with the open card."""
    unseen = [rank + " of " + suit for rank in RANKS for suit in SUITS if rank + " of " + suit not in shown]
    hidden = next(card for card in unseen if hand_total([up_card, card]) != 21)
    unseen.remove(hidden)
    dealer = [up_card, hidden]
    while hand_total(dealer) <= 17:
        dealer.append(unseen.pop(0))
    return dealer


def settle(player_total, dealer_total, stake):
    """Money won (negative when lost) once the dealer has stopped."""
    if dealer_total > 21:
        print("I have burned myself and you win " + money(stake) + " Euro")
        return stake
    if dealer_total == 21:
        print("Blackjack for me!!! You have just lost " + money(stake) + " Euro")
        return -stake
    if player_total > dealer_total:
        print("You have won " + money(stake) + " Euro")
        return stake
    if player_total < dealer_total:
        print("You have lost " + money(stake) + " Euro")
        return -stake
    print("It is a tie, you get back your " + money(stake) + " Euro")
    return 0


def play_game(stake, deck):
    """One game from the deal to the result; returns the money won."""
    player = [deck.pop(0), deck.pop(0)]
    dealer = [deck.pop(0), deck.pop(0)]
    print(player[0])
    print(player[1])
    print("The first of my initial two cards is " + dealer[0])
    if hand_total(player) == 21:
        print("Blackjack for you!!! You have just won " + money(1.5 * stake) + " Euro")
        return 1.5 * stake
    if dealer[0].startswith("Ace"):
        stake = ask_insurance(stake)
    if hand_total(dealer) == 21:
        print("My second card is " + dealer[1])
        print("As you see I have a natural blackjack, so you lose your stake")
        return -stake
    first_action = True
    while True:
        action = input("Enter chosen action: ").strip()
        if action == "4" and first_action:
            print("By surrendering you only lose " + money(stake / 2) + " Euro")
            return -stake / 2
        if action == "2":
            break
        if action not in ("1", "3"):
            continue
        if action == "3":
            stake = stake * 2
        player.append(deck.pop(0))
        label = "Your final card is " if action == "3" else "Your next card is "
        print(label + player[-1])
        first_action = False
        if hand_total(player) > 21:
            print("You have been burned and have lost " + money(stake) + " Euro")
            return -stake
        if hand_total(player) == 21:
            print("Blackjack for you!!! You have just won " + money(stake) + " Euro")
            return stake
        if action == "3":
            break
    # the dealer plays out of sight: the result is the one the made-up dealer gives
    assumed = assumed_dealer(player + [dealer[0]], dealer[0])
    return settle(hand_total(player), hand_total(assumed), stake)


def main():
    """The session: games until the player answers 2 (or 0)."""
    print("******* WELCOME TO BLACKJACK ********")
    total = 0.0
    game_number = 1
    decks = load_decks()
    while True:
        print(">>>> We are about to start Game number " + str(game_number) + " <<<<")
        stake = float(input("Enter your stake in Euro: "))
        deck = list(decks[(game_number - 1) % len(decks)]) if decks else create_shuffled_deck()
        total += play_game(stake, deck)
        game_number += 1
        if input().strip() != "1":
            break
    if total >= 0:
        print("You have won " + money(total) + " Euro. Lucky you!!")
    else:
        print("You have lost " + money(-total) + " Euro. Next time luckier.")
    print("******** GOODBYE - COME AGAIN **********")


main()
