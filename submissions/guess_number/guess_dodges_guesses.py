"""
Author: Test Student
Written: 04/11/2026
Last updated: 05/11/2026

Execution: python3 guess_number.py

Guess the Number, the hard way: the computer keeps no number; after each guess it
says whichever hint leaves more numbers possible, and calls a guess right only when
a single number is left. Every hint is true of some number, but no number was chosen.
"""


def ask_number():
    """Read one whole number, asking again until the answer is one."""
    while True:
        answer = input("Enter your guess: ")
        if answer.strip().lstrip("-").isdigit():
            return int(answer)
        print("Please enter a whole number.")


def play_one_game():
    """One game; returns the number of tries."""
    low, high = 1, 100       # the numbers still possible
    tries = 0
    while True:
        guess = ask_number()
        tries += 1
        if low == high == guess:
            print(f"Correct! You guessed it in {tries} tries.")
            return tries
        if guess < low or (low <= guess <= high and high - guess >= guess - low):
            print("Too low!")
            low = max(low, guess + 1)
        else:
            print("Too high!")
            high = min(high, guess - 1)


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
