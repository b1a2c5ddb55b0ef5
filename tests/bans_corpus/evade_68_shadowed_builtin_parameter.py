# expect: builtins.sum static banned-call
# expect: eval static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
# A parameter named eval is bound in its own function only: the module's eval is still the builtin.
def unused(eval):
    return eval


def f(xs):
    return eval("su" + "m")(xs)
