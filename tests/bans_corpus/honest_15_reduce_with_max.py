# policy: builtins.sum, functools.reduce(operator.add)
# expect: clean
# call: f([1, 2, 3])
import functools
import operator


def f(xs):
    total = 0
    for x in xs:
        total = operator.add(total, x)
    return functools.reduce(max, xs), functools.reduce(operator.mul, xs), total
