"""Reference solution of the Nim assignment (specs/nim.yaml): the winning move, by nim-sum.

``nim_move(heaps)`` gets the heap sizes (a list of non-negative ints, at least one non-zero)
and returns ``[heap_index, count]``: take ``count`` (>= 1) objects from heap ``heap_index``.
Whoever takes the last object wins.  In a winning position (nim-sum not 0) the move leaves a
nim-sum of 0, choosing the lowest heap index that allows it; in a losing position it takes
one object from the largest heap (the first of equal heaps), to make the game last.
"""
from __future__ import annotations


def nim_sum(heaps):
    total = 0
    for h in heaps:
        total ^= h
    return total


def nim_move(heaps):
    s = nim_sum(heaps)
    if s:
        for i, h in enumerate(heaps):
            if h ^ s < h:
                return [i, h - (h ^ s)]
    largest = max(range(len(heaps)), key=lambda i: (heaps[i], -i))
    return [largest, 1]
