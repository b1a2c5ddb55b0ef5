# expect: f_builtins static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import sys


def f(xs):
    return sys._getframe().f_builtins["sum"](xs)
