# expect: clean
# call: f([1, 2, 3])
class Tally:
    def __init__(self):
        self.sum = 0

    def mean(self):
        return self.sum


def f(xs):
    total = Tally()
    for x in xs:
        total.sum += x
    return total.sum, g(total)


def g(obj):
    return obj.mean()
