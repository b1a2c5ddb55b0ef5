# expect: clean
# call: f([1, 2, 3])
class Counter:
    sum = 0

    def add(self, x):
        self.sum += x
        return self


def f(xs):
    c = Counter()
    for x in xs:
        c.add(x)
    return c.sum
