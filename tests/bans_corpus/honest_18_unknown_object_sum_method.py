# expect: clean
# call: f(Bag([1, 2, 3]))
class Bag:
    def __init__(self, xs):
        self.xs = xs

    def sum(self):
        total = 0
        for x in self.xs:
            total += x
        return total


def f(bag):
    return bag.sum()
