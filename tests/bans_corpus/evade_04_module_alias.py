# expect: statistics.mean static banned-call
# expect: statistics.mean runtime
# call: f([1, 2, 3])
import statistics as s


def f(xs):
    return s.mean(xs)
