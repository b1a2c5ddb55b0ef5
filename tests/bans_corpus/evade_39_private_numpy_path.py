# expect: numpy.sum static banned-call
# expect: numpy.sum runtime
# call: f([1, 2, 3])
from numpy._core.fromnumeric import sum as total


def f(xs):
    return int(total(xs))
