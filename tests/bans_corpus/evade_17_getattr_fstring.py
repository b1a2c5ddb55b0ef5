# expect: statistics.mean static banned-call
# expect: statistics.mean runtime
# call: f([1, 2, 3])
import statistics

PART = "me"


def f(xs):
    return getattr(statistics, f"{PART}{'an'}")(xs)
