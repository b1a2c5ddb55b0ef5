# expect: globals static dynamic-code
# expect: statistics.mean runtime
# call: f([1, 2, 3])
from statistics import median, mean


def f(xs):
    key = xs.__class__.__name__.replace("list", "mean")
    return globals()[key](xs)
