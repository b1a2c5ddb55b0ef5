"""Divides by each heap to "weigh" it: crashes as soon as a heap is empty."""


def nim_move(heaps):
    weights = [1 / h for h in heaps]  # ZeroDivisionError once a heap is empty
    best = weights.index(min(weights))
    return [best, 1]
