# expect: clean
# call: f([1, 2, 3])
class Scores:
    def __init__(self, xs):
        self.xs = list(xs)

    def sum(self):
        total = 0
        for x in self.xs:
            total += x
        return total

    def mean(self):
        return self.sum() / len(self.xs)


def f(xs):
    return Scores(xs).mean()
