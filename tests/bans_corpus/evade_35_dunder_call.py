# layer: tripwire (sum.__call__ is a method-wrapper: a profile hook misses it, the tripwire does not)
# expect: builtins.sum runtime
# expect: builtins.sum static banned-call
# call: f([1, 2, 3])
def f(xs):
    return sum.__call__(xs)
