"""Named the function after the lecture slides, not the handout: it cannot enter."""


def nim_play(heaps):
    return [heaps.index(max(heaps)), 1]
