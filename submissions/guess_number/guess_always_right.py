"""
Author: Test Student
Written: 02/11/2026

Execution: python3 guess_number.py

Guess the Number: every guess the user makes is declared right.
The hints the real game would print are listed once at the start.
"""


def show_legend():
    """Print the kinds of hint (never actually used)."""
    print("Welcome to Guess the Number!")
    print("Too low!")
    print("Too high!")


def play_one_game():
    """One game: the first guess is always called right."""
    input("Enter your guess: ")
    print("Correct! You guessed it in 1 tries.")
    return 1


def main():
    """Games until the user says n, then the summary."""
    show_legend()
    results = []
    while True:
        results.append(play_one_game())
        if input("Play again? (y/n): ").strip().lower() != "y":
            break
    # the average of the tries
    average = sum(results) / len(results)
    print(f"You played {len(results)} games with {average:.1f} tries on average.")
    print("Goodbye!")


if __name__ == "__main__":
    main()
