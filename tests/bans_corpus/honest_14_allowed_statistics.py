# expect: clean
# call: f([1, 2, 3])
import statistics


def f(xs):
    return statistics.median(xs), statistics.mode(xs)
