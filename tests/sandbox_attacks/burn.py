"""Burn a given amount of CPU time, then answer."""
import time


def burn(seconds):
    end = time.process_time() + seconds
    n = 0
    while time.process_time() < end:
        n += 1
    return "done"
