# expect: str.format static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
class Box:
    pass


def f(xs):
    import builtins
    box = Box()
    box.fn = builtins
    name = "{0.fn.s" + "um.__name__}"
    return getattr(box.fn, name.format(box))(xs)
