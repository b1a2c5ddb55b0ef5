# map calls sum from C, invisible to a profile hook: static only.
# expect: builtins.sum static banned-reference
# call: f([1, 2, 3])
def f(xs):
    return max(map(sum, [xs, xs]))
