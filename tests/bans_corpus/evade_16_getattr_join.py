# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import builtins


def f(xs):
    return getattr(builtins, "".join(["s", "u", "m"]))(xs)
