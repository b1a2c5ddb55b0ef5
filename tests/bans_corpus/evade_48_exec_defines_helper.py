# expect: exec static dynamic-code
# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
NS = {}
exec("def helper(v):\n    return sum(v)\n", NS)


def f(xs):
    return NS["helper"](xs)
