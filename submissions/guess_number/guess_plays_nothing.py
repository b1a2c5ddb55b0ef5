"""
Author: R. Team
Written: 1/12/2026
Last updated: 1/12/2026
Run: python3 guess.py
Says goodbye and plays no game of guessing numbers at all.
"""


def greet():
    """Nothing to greet."""
    return 0


def main():
    """The session: nothing."""
    greet()
    print("Goodbye!")


main()
