"""Counts heaps from 1, as in the handout's pictures: asks for heap len(heaps) now and then."""


def nim_move(heaps):
    biggest = 0
    for i in range(len(heaps)):
        if heaps[i] > heaps[biggest]:
            biggest = i
    return [biggest + 1, 1] if heaps[biggest] % 2 == 0 else (biggest, heaps[biggest])
