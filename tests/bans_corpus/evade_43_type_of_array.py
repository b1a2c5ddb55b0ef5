# expect: numpy.ndarray.sum static banned-call
# expect: numpy.ndarray.sum runtime
# call: f([1, 2, 3])
import numpy as np


def f(xs):
    a = np.asarray(xs)
    return int(type(a).sum(a))
