# expect: builtins.sum static banned-reference
# expect: builtins.sum runtime
# call: f([1, 2, 3])
def f(xs, add_up=sum):
    return add_up(xs)
