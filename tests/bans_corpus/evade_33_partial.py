# layer: tripwire (partial calls sum from C: a profile hook misses it, the tripwire does not)
# expect: builtins.sum runtime
# expect: builtins.sum static banned-reference
# expect: builtins.sum static banned-call
# call: f([1, 2, 3])
import functools

add_up = functools.partial(sum, start=0)


def f(xs):
    return add_up(xs)
