# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import builtins
import operator


def f(xs):
    return operator.attrgetter("sum")(builtins)(xs)
