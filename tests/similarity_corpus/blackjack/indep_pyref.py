"""
Author:       grader reference (EPL131 Assignment 2, "Playing Blackjack")
Written:      2024
Last updated: 2024

Execution:    python3 blackjack.py [--deck FILE]
              BLACKJACK_DECK=FILE python3 blackjack.py

A Blackjack session at the console: one player against the dealer, any number of
games, and at the end the total won or lost. It follows the rules and the wording
of the handout's sample runs (see specs/blackjack.yaml, `notes`, for every choice
the handout leaves open):

* one 52-card deck, shuffled again for every game (100,001 random swaps, as the
  handout's createShuffleDeck does); J, Q, K count 10, an Ace 1 or 11;
* the player states a stake and gets two cards, the dealer one open and one
  hidden card;
* a player natural (Ace + 10-valued card) wins 1.5 x the stake at once;
* when the dealer shows an Ace the player may cut the stake down to half;
* a dealer natural ends the game and the player loses the stake;
* actions: 1 Hit, 2 Stand, 3 Double Down, 4 Surrender (first action only);
  reaching 21 wins the stake at once, going over 21 loses it at once;
* the dealer draws while the total is 17 or less; higher total wins, a tie
  returns the stake;
* after every game the player enters 1 to play again, 2 (or 0) to stop.

Deck control, for reproducible runs: ``--deck FILE`` or the environment variable
BLACKJACK_DECK names a file with one card per line ("Queen of Hearts"). Every 52
cards make one game's deck; with several decks game N uses deck N (cycling).
The module is importable: :func:`play_session` runs a session on any streams.
"""
from __future__ import annotations

import os
import random
import sys
from typing import Callable, Iterator, Sequence, TextIO

SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace")
DECK_SIZE = len(SUITS) * len(RANKS)
SHUFFLE_SWAPS = 100_001          # the handout's loop runs i = 0 .. 100000

ACTION_HIT, ACTION_STAND, ACTION_DOUBLE, ACTION_SURRENDER = "1", "2", "3", "4"
PLAY_AGAIN = "1"
QUIT_ANSWERS = ("2", "0")


# ----------------------------------------------------------------------------- cards

def ordered_deck() -> list[str]:
    """The 52 card names in the handout's order (rank by rank, suits inside)."""
    return [f"{rank} of {suit}" for rank in RANKS for suit in SUITS]


def create_shuffled_deck(rng: random.Random) -> list[str]:
    """The handout's createShuffleDeck: 100,001 swaps of two random positions."""
    deck = ordered_deck()
    for _ in range(SHUFFLE_SWAPS):
        first = int(rng.random() * DECK_SIZE)
        second = int(rng.random() * DECK_SIZE)
        deck[first], deck[second] = deck[second], deck[first]
    return deck


def card_value(card: str) -> int:
    """Points of one card, an Ace counted as 11 (hand_total lowers it when needed)."""
    rank = card.split(" of ")[0]
    if rank == "Ace":
        return 11
    if rank in ("Jack", "Queen", "King"):
        return 10
    return int(rank)


def hand_total(cards: Sequence[str]) -> int:
    """Best total of a hand: every Ace counts 11 unless that would go over 21."""
    total = sum(card_value(card) for card in cards)
    soft_aces = sum(1 for card in cards if card.startswith("Ace"))
    while total > 21 and soft_aces:
        total -= 10
        soft_aces -= 1
    return total


def is_natural(cards: Sequence[str]) -> bool:
    """An Ace and a 10-valued card as the first two cards."""
    return len(cards) == 2 and hand_total(cards) == 21


def format_euro(amount: float) -> str:
    """Money as Java prints a double: 10.0, 7.5."""
    return repr(float(amount))


def read_deck_file(path: str) -> list[list[str]]:
    """Decks from a file with one card per line; every 52 cards form one deck."""
    with open(path, encoding="utf-8") as handle:
        cards = [line.strip() for line in handle if line.strip()]
    decks = [cards[start:start + DECK_SIZE] for start in range(0, len(cards), DECK_SIZE)]
    if not decks or any(len(deck) != DECK_SIZE for deck in decks):
        raise ValueError(f"{path}: a deck file holds a multiple of {DECK_SIZE} cards, not {len(cards)}")
    return decks


def deck_supplier(decks: Sequence[Sequence[str]] | None, rng: random.Random) -> Callable[[int], list[str]]:
    """Game number (1-based) -> that game's deck: the fixed decks in turn, else a fresh shuffle."""
    if decks:
        return lambda game_number: list(decks[(game_number - 1) % len(decks)])
    return lambda game_number: create_shuffled_deck(rng)


# ----------------------------------------------------------------------------- console

class EndOfInput(Exception):
    """stdin is exhausted: the session ends as if the player had quit."""


class Console:
    """Prompts and messages on a pair of text streams."""

    def __init__(self, stdin: TextIO, stdout: TextIO):
        self.stdin = stdin
        self.stdout = stdout

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")

    def ask(self, prompt: str) -> str:
        """Print a prompt (no newline) and read one answer."""
        self.stdout.write(prompt)
        self.stdout.flush()
        return self.read()

    def read(self) -> str:
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EndOfInput
        return line.strip()


# ----------------------------------------------------------------------------- the game

class Game:
    """One game: deal, insurance, naturals, the player's actions, the dealer's turn."""

    def __init__(self, console: Console, deck: list[str], stake: float):
        self.console = console
        self.cards: Iterator[str] = iter(deck)
        self.stake = stake
        self.player: list[str] = []
        self.dealer: list[str] = []

    def draw(self) -> str:
        return next(self.cards)

    def play(self) -> float:
        """Play the game to the end; return the money won (negative when lost)."""
        self.deal()
        if is_natural(self.player):
            winnings = 1.5 * self.stake
            self.console.say(f"Blackjack for you!!! You have just won {format_euro(winnings)} Euro")
            return winnings
        if self.dealer[0].startswith("Ace"):
            self.offer_insurance()
        if is_natural(self.dealer):
            self.console.say(f"My second card is {self.dealer[1]}")
            self.console.say("As you see I have a natural blackjack, so you lose your stake")
            return -self.stake
        outcome = self.player_turn()
        if outcome is not None:
            return outcome
        return self.dealer_turn()

    def deal(self) -> None:
        """Two open cards to the player, one open and one hidden card to the dealer."""
        self.player = [self.draw(), self.draw()]
        self.dealer = [self.draw(), self.draw()]
        for card in self.player:
            self.console.say(card)
        self.console.say(f"The first of my initial two cards is {self.dealer[0]}")

    def offer_insurance(self) -> None:
        """The dealer shows an Ace: the player may cut the stake down to half."""
        lowest = self.stake / 2
        while True:
            answer = self.console.ask(
                f"I have an Ace. Insure yourself by lowering your stake "
                f"({format_euro(lowest)} to {format_euro(self.stake)} Euro): ")
            new_stake = parse_amount(answer)
            if new_stake is not None and lowest <= new_stake <= self.stake:
                self.stake = new_stake
                return

    def player_turn(self) -> float | None:
        """The player's actions; a result when the game ends here, None when the dealer plays."""
        first_action = True
        while True:
            action = self.console.ask("Enter chosen action: ")
            if action == ACTION_SURRENDER and first_action:
                loss = self.stake / 2
                self.console.say(f"By surrendering you only lose {format_euro(loss)} Euro")
                return -loss
            if action == ACTION_STAND:
                return None
            if action == ACTION_HIT:
                card = self.draw()
                self.player.append(card)
                self.console.say(f"Your next card is {card}")
            elif action == ACTION_DOUBLE:
                self.stake *= 2
                card = self.draw()
                self.player.append(card)
                self.console.say(f"Your final card is {card}")
            else:
                continue  # not an action (or a late surrender): ask again
            first_action = False
            total = hand_total(self.player)
            if total > 21:
                self.console.say(f"You have been burned and have lost {format_euro(self.stake)} Euro")
                return -self.stake
            if total == 21:
                self.console.say(f"Blackjack for you!!! You have just won {format_euro(self.stake)} Euro")
                return self.stake
            if action == ACTION_DOUBLE:
                return None  # exactly one card, then stand

    def dealer_turn(self) -> float:
        """Reveal the hidden card, draw while 17 or less, then settle."""
        self.console.say("My turn to play...")
        self.console.say(f"My second initial card is {self.dealer[1]}")
        while hand_total(self.dealer) <= 17:
            card = self.draw()
            self.dealer.append(card)
            self.console.say(f"My next card is {card}")
        self.console.say("I am stopping...")
        return self.settle()

    def settle(self) -> float:
        dealer_total = hand_total(self.dealer)
        player_total = hand_total(self.player)
        stake = format_euro(self.stake)
        if dealer_total > 21:
            self.console.say(f"I have burned myself and you win {stake} Euro")
            return self.stake
        if dealer_total == 21:
            self.console.say(f"Blackjack for me!!! You have just lost {stake} Euro")
            return -self.stake
        if player_total > dealer_total:
            self.console.say(f"You have won {stake} Euro")
            return self.stake
        if player_total < dealer_total:
            self.console.say(f"You have lost {stake} Euro")
            return -self.stake
        self.console.say(f"It is a tie, so you get back your {stake} Euro")
        return 0.0


def parse_amount(text: str) -> float | None:
    """A positive amount of Euro, or None when the answer is not one."""
    try:
        amount = float(text)
    except ValueError:
        return None
    return amount if amount > 0 else None


# ----------------------------------------------------------------------------- the session

def ask_stake(console: Console) -> float:
    while True:
        stake = parse_amount(console.ask("Enter your stake in Euro: "))
        if stake is not None:
            return stake


def wants_another_game(console: Console) -> bool:
    """After a game: 1 plays again, 2 or 0 stops (the handout's runs show no prompt)."""
    while True:
        answer = console.read()
        if answer == PLAY_AGAIN:
            return True
        if answer in QUIT_ANSWERS:
            return False


def print_summary(console: Console, total: float) -> None:
    if total >= 0:
        console.say(f"You have won {format_euro(total)} Euro. Lucky you!!")
    else:
        console.say(f"You have lost {format_euro(-total)} Euro. Next time luckier.")
    console.say("******** GOODBYE - COME AGAIN **********")


def play_session(stdin: TextIO, stdout: TextIO, next_deck: Callable[[int], list[str]]) -> float:
    """A whole session; returns the total won. Ends on a quit answer or at end of input."""
    console = Console(stdin, stdout)
    console.say("******* WELCOME TO BLACKJACK ********")
    total = 0.0
    game_number = 0
    try:
        while True:
            game_number += 1
            console.say(f">>>> We are about to start Game number {game_number} <<<<")
            stake = ask_stake(console)
            total += Game(console, next_deck(game_number), stake).play()
            if not wants_another_game(console):
                break
    except EndOfInput:
        pass
    print_summary(console, total)
    stdout.flush()
    return total


def main(argv: Sequence[str]) -> int:
    deck_path = os.environ.get("BLACKJACK_DECK")
    if len(argv) >= 2 and argv[0] == "--deck":
        deck_path = argv[1]
    decks = read_deck_file(deck_path) if deck_path else None
    play_session(sys.stdin, sys.stdout, deck_supplier(decks, random.Random()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
