# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import builtins


def f(xs):
    name = "su" + "m"
    return getattr(builtins, name)(xs)
