# expect: statistics.mean static banned-call
# expect: statistics.mean runtime
# call: f([1, 2, 3])
from statistics import *


def f(xs):
    return mean(xs)
