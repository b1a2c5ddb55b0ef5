# methodcaller calls arr.sum from C: static only.
# expect: numpy.ndarray.sum static banned-call
# call: f([1, 2, 3])
import operator

import numpy as np


def f(xs):
    return int(operator.methodcaller("sum")(np.array(xs)))
