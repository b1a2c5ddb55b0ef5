"""
Author: Eleni Christodoulou
Written: 06/11/2026
Last updated: 09/11/2026

Execution: python3 guess_number.py

Guess the Number: the computer thinks of a number between 1 and 100 and the
user guesses until right, with a hint after every wrong guess; at the end the
number of games and the average number of tries are shown. The hints are in
colour, and a little spinner turns while the computer "checks" each guess.
"""
import random

BOLD, GREEN, YELLOW, CYAN, RESET = "\x1b[1m", "\x1b[32m", "\x1b[33m", "\x1b[36m", "\x1b[0m"
HIDE_CURSOR, SHOW_CURSOR, ERASE_LINE = "\x1b[?25l", "\x1b[?25h", "\x1b[K"


def colour(text, code):
    """The text in a colour, the terminal's colour reset after it."""
    return code + text + RESET


def spin():
    """Turn a spinner in place with carriage returns, then wipe it off the line."""
    print(HIDE_CURSOR, end="")
    for frame in "|/-\\|":
        print("\r" + colour("Checking " + frame, CYAN), end="", flush=True)
    print("\r" + ERASE_LINE + SHOW_CURSOR, end="")


def ask_number():
    """Read one whole number, asking again until the answer is one."""
    while True:
        answer = input(colour("Enter your guess: ", BOLD))
        if answer.strip().lstrip("-").isdigit():
            return int(answer)
        print("Please enter a whole number.")


def play_one_game():
    """One game against a new secret; returns the number of tries."""
    secret = random.randint(1, 100)
    tries = 0
    while True:
        guess = ask_number()
        tries += 1
        spin()
        if guess < secret:
            print(colour("Too low!", YELLOW))
        elif guess > secret:
            print(colour("Too high!", YELLOW))
        else:
            print(colour(f"Correct! You guessed it in {tries} tries.", GREEN))
            return tries


def main():
    """Games until the user says n, then the summary."""
    print(colour("Welcome to Guess the Number!", BOLD))
    results = []
    while True:
        print("I am thinking of a number between 1 and 100.")
        results.append(play_one_game())
        if input(colour("Play again? (y/n): ", BOLD)).strip().lower() != "y":
            break
    average = sum(results) / len(results)
    print(colour(f"You played {len(results)} games with {average:.1f} tries on average.", BOLD))
    print("Goodbye!")


if __name__ == "__main__":
    main()
