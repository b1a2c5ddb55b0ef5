# expect: numpy.ndarray.cumsum static banned-call
# expect: numpy.ndarray.cumsum runtime
# call: f(np.array([1, 2, 3]))
import numpy as np


def f(values: np.ndarray) -> int:
    return int(values.cumsum()[-1])
