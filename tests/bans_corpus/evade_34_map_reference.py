# layer: tripwire (map calls sum from C: a profile hook misses it, the tripwire does not)
# expect: builtins.sum runtime
# expect: builtins.sum static banned-reference
# call: f([1, 2, 3])
def f(xs):
    return max(map(sum, [xs, xs]))
