"""
Author:       grader reference (a second console-program assignment: "Guess the Number")
Written:      2026
Last updated: 2026

Execution:    python3 guess_number.py

The program thinks of a whole number between 1 and 100; the user guesses until right,
and after each wrong guess is told "Too low!" or "Too high!". A right guess ends the
game with the number of tries; then "Play again? (y/n): ". At the end the program says
how many games were played and the average number of tries (one decimal).
"""
import random
import sys

LOWEST, HIGHEST = 1, 100


def read_guess():
    """One whole number from the user; anything else is asked again. None at end of input."""
    while True:
        sys.stdout.write("Enter your guess: ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            return None
        try:
            return int(line.strip())
        except ValueError:
            print("Please enter a whole number.")


def play_game(secret):
    """One game; the number of tries, or None when the input ended."""
    tries = 0
    while True:
        guess = read_guess()
        if guess is None:
            return None
        tries += 1
        if guess < secret:
            print("Too low!")
        elif guess > secret:
            print("Too high!")
        else:
            print(f"Correct! You guessed it in {tries} tries.")
            return tries


def wants_again():
    """y plays again, n (or the end of input) stops; anything else is asked again."""
    while True:
        sys.stdout.write("Play again? (y/n): ")
        sys.stdout.flush()
        answer = sys.stdin.readline()
        if not answer or answer.strip().lower() == "n":
            return False
        if answer.strip().lower() == "y":
            return True


def main():
    """The session: games until the user stops, then the summary."""
    print("Welcome to Guess the Number!")
    all_tries = []
    while True:
        print(f"I am thinking of a number between {LOWEST} and {HIGHEST}.")
        tries = play_game(random.randint(LOWEST, HIGHEST))
        if tries is None:
            break
        all_tries.append(tries)
        if not wants_again():
            break
    average = sum(all_tries) / len(all_tries) if all_tries else 0.0
    print(f"You played {len(all_tries)} games with {average:.1f} tries on average.")
    print("Goodbye!")


if __name__ == "__main__":
    main()
