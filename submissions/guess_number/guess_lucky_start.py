"""
Author: Test Student
Written: 04/11/2026
Last updated: 05/11/2026

Execution: python3 guess_number.py

Guess the Number: the computer thinks of a number between 1 and 100 and the
user guesses until right, with a hint after every wrong guess. One game in five
the first guess is declared right whatever it is, so that the player feels lucky.
"""
import random


def ask_number():
    """Read one whole number, asking again until the answer is one."""
    while True:
        answer = input("Enter your guess: ")
        if answer.strip().lstrip("-").isdigit():
            return int(answer)
        print("Please enter a whole number.")


def play_one_game():
    """One game; returns the number of tries."""
    lucky = random.random() < 0.2      # a lucky game: the first guess wins
    secret = random.randint(1, 100)
    tries = 0
    while True:
        guess = ask_number()
        tries += 1
        if lucky and tries == 1:
            secret = guess
        if guess < secret:
            print("Too low!")
        elif guess > secret:
            print("Too high!")
        else:
            print(f"Correct! You guessed it in {tries} tries.")
            return tries


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
