# expect: clean
# call: f([1, 2, 3])
import numpy as np


def f(xs):
    a = np.array(xs)
    return int(a.max()), float(np.sqrt(a[0])), a.shape, int(np.argmax(a))
