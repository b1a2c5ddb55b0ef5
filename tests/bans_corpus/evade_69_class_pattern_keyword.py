# expect: __globals__ static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
# A class pattern's keyword reads the attribute it spells, without an attribute in the source.
class Decoy:
    __dict__ = None


def helper():
    return None


def f(xs):
    match helper:
        case object(__globals__=g):
            b = g["__builtins__"]
            found = b["su" + "m"] if isinstance(b, dict) else b.__dict__["su" + "m"]
            return found(xs)
