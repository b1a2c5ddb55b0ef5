# expect: numpy.sum static banned-call
# expect: numpy.sum runtime
# call: f([1, 2, 3])
import numpy as np


def f(xs):
    return int(np.sum(np.array(xs)))
