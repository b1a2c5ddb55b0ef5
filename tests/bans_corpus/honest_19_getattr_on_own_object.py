# expect: clean
# call: f([1, 2, 3])
class Ops:
    def total(self, xs):
        t = 0
        for x in xs:
            t += x
        return t


def f(xs):
    name = "to" + "tal"
    return getattr(Ops(), name)(xs), getattr(Ops(), xs.__class__.__name__, None)
