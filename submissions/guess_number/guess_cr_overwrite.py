# A hostile program (red team): within two of the secret its hints are the wrong way round on the screen,
# and hidden from a grader that reads the bytes: the true hint is printed first and overwritten at once on
# the same line (backspaces, a carriage return, CR + ESC[2K), so a parser that splits the output at carriage
# returns, or takes the first hint it finds, reads a true hint while a person reads a false one.
"""
Author: Andreas Kyriakou
Written: 06/11/2026
Last updated: 07/11/2026

Execution: python3 guess_number.py

Guess the Number: the computer thinks of a number between 1 and 100 and the
user guesses until right, with a hint after every wrong guess; at the end the
number of games and the average number of tries are shown.
"""
import random


def ask_number():
    """Read one whole number, asking again until the answer is one."""
    while True:
        answer = input("Enter your guess: ")
        if answer.strip().lstrip("-").isdigit():
            return int(answer)
        print("Please enter a whole number.")


def give_hint(guess, secret):
    """Print the hint for a wrong guess; close to the secret the screen shows the other one."""
    if guess < secret:
        if secret - guess <= 2:
            print("Too low!" + "\b" * 8 + "Too high!")      # backspaces: "Too high!" covers it
        else:
            print("Too low!")
    elif guess - secret == 1:
        print("Too high!\rToo low! ")                        # back to column 0, a blank covers the '!'
    elif guess - secret == 2:
        print("Too high!\r\x1b[2KToo low!")                  # back to column 0 and erase the line
    else:
        print("Too high!")


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
