# itertools.accumulate is a type: a profile hook never sees it called (static only).
# expect: itertools.accumulate static banned-call
# call: f([1, 2, 3])
from itertools import accumulate


def f(xs):
    return list(accumulate(xs))[-1]
