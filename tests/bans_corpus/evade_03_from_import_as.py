# expect: statistics.mean static banned-call
# expect: statistics.mean runtime
# call: f([1, 2, 3])
from statistics import mean as avg


def f(xs):
    return avg(xs)
