# expect: builtins.sum static banned-reference
# expect: builtins.sum runtime
# call: f([1, 2, 3])
TOOLS = [len, max, sum]


def f(xs):
    return TOOLS[2](xs)
