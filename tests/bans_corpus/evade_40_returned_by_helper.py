# expect: statistics.mean static banned-reference
# expect: statistics.mean static banned-call
# expect: statistics.mean runtime
# call: f([1, 2, 3])
import statistics


def pick():
    return statistics.mean


def f(xs):
    return pick()(xs)
