# partial calls sum from C, invisible to a profile hook: static only.
# expect: builtins.sum static banned-reference
# expect: builtins.sum static banned-call
# call: f([1, 2, 3])
import functools

add_up = functools.partial(sum, start=0)


def f(xs):
    return add_up(xs)
