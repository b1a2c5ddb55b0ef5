"""Searches for a winning move that does not exist: loops forever in a lost position."""


def nim_move(heaps):
    total = 0
    for h in heaps:
        total ^= h
    i = 0
    while True:
        h = heaps[i % len(heaps)]
        if total and h ^ total < h:
            return [i % len(heaps), h - (h ^ total)]
        i += 1
