# expect: numpy.cumsum static banned-call
# expect: numpy.cumsum runtime
# call: f([1, 2, 3])
import numpy


def f(xs):
    return int(numpy.cumsum(xs)[-1])
