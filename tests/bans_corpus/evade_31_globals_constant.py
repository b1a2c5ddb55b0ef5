# expect: statistics.mean static banned-call
# expect: statistics.mean runtime
# call: f([1, 2, 3])
from statistics import mean


def f(xs):
    return globals()["mean"](xs)
