# expect: numpy.ndarray.mean static banned-call
# expect: numpy.ndarray.mean runtime
# call: f([1, 2, 3])
import numpy as np


def f(xs):
    a = np.zeros(len(xs)) + xs
    b = a * 2
    return float(b.mean())
