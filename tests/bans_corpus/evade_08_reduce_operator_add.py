# A pair name: reduce is allowed, reduce with addition is not (static only).
# policy: builtins.sum, functools.reduce(operator.add)
# expect: functools.reduce(operator.add) static banned-call
# call: f([1, 2, 3])
import functools
import operator


def f(xs):
    return functools.reduce(operator.add, xs) + functools.reduce(lambda a, b: a + b, xs)
