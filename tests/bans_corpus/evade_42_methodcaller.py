# methodcaller calls arr.sum from C, which no profile hook sees; but arr.sum runs numpy's own
# Python body of numpy.sum (numpy._core._methods._sum), whose caller is the student's line.
# expect: numpy.ndarray.sum static banned-call
# expect: numpy.sum runtime
# call: f([1, 2, 3])
import operator

import numpy as np


def f(xs):
    return int(operator.methodcaller("sum")(np.array(xs)))
