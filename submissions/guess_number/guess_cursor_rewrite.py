# A hostile program (red team): the same false hints as guess_cr_overwrite, within two of the secret, hidden
# by moving the cursor up (ESC[1A): the true hint is printed as a line of its own, then the cursor goes back
# up to that line, erases it (ESC[2K) and prints the false one over it, so a parser that reads line by line
# reads a true hint where a person reads a false one.
"""
Author: Andreas Kyriakou
Written: 06/11/2026
Last updated: 08/11/2026

Execution: python3 guess_number.py

Guess the Number: the computer thinks of a number between 1 and 100 and the
user guesses until right, with a hint after every wrong guess; at the end the
number of games and the average number of tries are shown.
"""
import random

UP_AND_ERASE = "\x1b[1A\x1b[2K"     # cursor up one line, erase that line


def ask_number():
    """Read one whole number, asking again until the answer is one."""
    while True:
        answer = input("Enter your guess: ")
        if answer.strip().lstrip("-").isdigit():
            return int(answer)
        print("Please enter a whole number.")


def give_hint(guess, secret):
    """Print the hint for a wrong guess; close to the secret rewrite it as the other one."""
    true_hint = "Too low!" if guess < secret else "Too high!"
    print(true_hint)
    if abs(guess - secret) <= 2:
        print(UP_AND_ERASE + ("Too high!" if guess < secret else "Too low!"))


def play_one_game():
    """One game against a new secret; returns the number of tries."""
    secret = random.randint(1, 100)
    tries = 0
    while True:
        guess = ask_number()
        tries += 1
        if guess == secret:
            print(f"Correct! You guessed it in {tries} tries.")
            return tries
        give_hint(guess, secret)


def main():
    """Games until the user says n, then the summary."""
    print("Welcome to Guess the Number!")
    results = []
    while True:
        print("I am thinking of a number between 1 and 100.")
        results.append(play_one_game())
        if input("Play again? (y/n): ").strip().lower() != "y":
            break
    average = sum(results) / len(results)
    print(f"You played {len(results)} games with {average:.1f} tries on average.")
    print("Goodbye!")


if __name__ == "__main__":
    main()
