# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
OPS = {"total": lambda values: sum(values), "count": len}


def f(xs):
    return OPS["total"](xs)
