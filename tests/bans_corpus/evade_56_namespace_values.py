# expect: vars(builtins).values static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import builtins


def f(xs):
    for fn in vars(builtins).values():
        if getattr(fn, "__name__", "") == "mus"[::-1]:
            return fn(xs)
