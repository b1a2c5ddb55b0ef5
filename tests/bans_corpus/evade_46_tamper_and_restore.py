# The hook is removed around the call and put back: still tampering.
# expect: builtins.sum static banned-call
# expect: tampered runtime
# call: f([1, 2, 3])
import sys


def f(xs):
    hook = sys.getprofile()
    sys.setprofile(None)
    total = sum(xs)
    sys.setprofile(hook)
    return total
