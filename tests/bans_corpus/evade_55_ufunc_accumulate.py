# expect: numpy.add.accumulate static banned-call
# expect: numpy.add.accumulate runtime
# call: f([1, 2, 3])
import numpy as np


def f(xs):
    return int(np.add.accumulate(np.array(xs))[-1])
