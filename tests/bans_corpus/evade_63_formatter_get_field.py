# expect: Formatter static dynamic-code
# expect: get_field static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import builtins
import string


def f(xs):
    found, _ = string.Formatter().get_field("0.s" + "um", [builtins], {})
    return found(xs)
