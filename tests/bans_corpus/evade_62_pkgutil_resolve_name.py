# expect: resolve_name static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import pkgutil


def f(xs):
    return pkgutil.resolve_name("built" + "ins:s" + "um")(xs)
