# expect: __globals__ static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
# A class that defines __globals__ itself does not make every object's __globals__ its own.
class Decoy:
    __globals__ = None
    __dict__ = None


def helper():
    return None


def f(xs):
    b = helper.__globals__["__builtins__"]
    found = b["su" + "m"] if isinstance(b, dict) else b.__dict__["su" + "m"]
    return found(xs)
