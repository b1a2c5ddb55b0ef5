# The key is one of two constants: the analysis follows both and finds mean.
# expect: statistics.mean static banned-call
# expect: statistics.mean runtime
# call: f([1, 2, 3])
from statistics import median, mean


def f(xs):
    key = [k for k in ("median", "mean") if len(k) == 4][0]
    return globals()[key](xs)
