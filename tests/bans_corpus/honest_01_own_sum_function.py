# expect: clean
# call: f([1, 2, 3])
def sum(values):
    total = 0
    for v in values:
        total += v
    return total


def f(xs):
    return sum(xs)
