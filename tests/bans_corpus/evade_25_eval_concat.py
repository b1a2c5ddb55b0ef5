# expect: eval static dynamic-code
# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
def f(xs):
    return eval("su" + "m")(xs)
