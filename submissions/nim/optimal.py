"""A careful student: the nim-sum strategy from the lecture."""


def nim_move(heaps):
    total = 0
    for h in heaps:
        total ^= h
    if total != 0:
        for i in range(len(heaps)):
            target = heaps[i] ^ total
            if target < heaps[i]:
                return [i, heaps[i] - target]
    for i in range(len(heaps)):
        if heaps[i] > 0:
            return [i, 1]
