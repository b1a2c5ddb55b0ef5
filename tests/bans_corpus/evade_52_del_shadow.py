# The student's own sum is deleted, so the later call is the builtin again.
# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
def sum(values):
    return 0


del sum


def f(xs):
    return sum(xs)
