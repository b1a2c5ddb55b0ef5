"""Tries to take one more than the biggest heap holds when it is behind: an illegal count."""


def nim_move(heaps):
    total = 0
    for h in heaps:
        total ^= h
    biggest = max(range(len(heaps)), key=lambda i: heaps[i])
    if total == 0:
        return [biggest, heaps[biggest] + 1]
    for i, h in enumerate(heaps):
        if h ^ total < h:
            return [i, h - (h ^ total)]
