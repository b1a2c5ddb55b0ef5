# expect: numpy.mean static banned-call
# expect: numpy.mean runtime
# call: f([1, 2, 3])
import numpy as np


def f(xs):
    def inner(v):
        return float(np.mean(v))
    return inner(xs)
