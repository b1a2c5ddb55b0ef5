# A shadow that never happens does not hide the builtin.
# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
if len("x") > 5:
    sum = len


def f(xs):
    return sum(xs)
