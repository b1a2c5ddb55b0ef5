# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import sys


def f(xs):
    return sys.modules["builtins"].sum(xs)
