# expect: math.fsum static banned-call
# expect: math.fsum runtime
# call: f([1, 2, 3])
import math


def f(xs):
    return math.fsum(xs)
