# A sum imported from another module is not the builtin.
# expect: clean
# call: f([1, 2, 3])
try:
    from mylib import sum
except ImportError:
    def sum(values):
        total = 0
        for v in values:
            total += v
        return total


def f(xs):
    return sum(xs)
