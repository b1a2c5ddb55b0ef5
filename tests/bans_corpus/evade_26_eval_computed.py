# The name is computed at run time: static flags eval, the run time sees sum.
# expect: eval static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
def f(xs):
    name = bytes(c ^ 1 for c in b"rtl").decode()
    return eval(name)(xs)
