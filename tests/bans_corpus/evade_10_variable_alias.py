# expect: builtins.sum static banned-reference
# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
def f(xs):
    total = sum
    return total(xs)
