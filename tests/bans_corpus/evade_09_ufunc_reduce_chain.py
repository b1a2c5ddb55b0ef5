# expect: numpy.add.reduce static banned-call
# expect: numpy.add.reduce runtime
# call: f([1, 2, 3])
import numpy as np


def f(xs):
    return int(np.add.reduce(np.asarray(xs)))
