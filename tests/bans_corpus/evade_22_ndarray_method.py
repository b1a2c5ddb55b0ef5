# expect: numpy.ndarray.sum static banned-call
# expect: numpy.ndarray.sum runtime
# call: f([1, 2, 3])
import numpy as np


def f(xs):
    return int(np.array(xs).sum())
