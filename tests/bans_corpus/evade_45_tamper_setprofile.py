# expect: builtins.sum static banned-call
# expect: tampered runtime
# call: f([1, 2, 3])
import sys


def f(xs):
    sys.setprofile(None)
    return sum(xs)
