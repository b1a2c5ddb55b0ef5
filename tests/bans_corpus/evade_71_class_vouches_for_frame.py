# expect: f_globals static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
# Attributes a class defines are not the file's own when the interpreter's objects have them too.
class Decoy:
    gi_frame = None
    f_globals = None
    __dict__ = None


def f(xs):
    b = (x for x in ()).gi_frame.f_globals["__builtins__"]
    found = b["su" + "m"] if isinstance(b, dict) else b.__dict__["su" + "m"]
    return found(xs)
