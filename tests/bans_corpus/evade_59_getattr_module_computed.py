# expect: getattr static dynamic-code
# expect: numpy.cumsum runtime
# call: f([1, 2, 3])
import numpy as np


def f(xs):
    name = "".join(c for c in "cxuxmxsxuxm" if c != "x")
    return int(getattr(np, name)(xs)[-1])
