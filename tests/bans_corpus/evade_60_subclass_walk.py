# expect: __subclasses__ static dynamic-code
# expect: __globals__ static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
def f(xs):
    for cls in object.__subclasses__():
        init = getattr(cls, "__init__", None)
        g = getattr(init, "__globals__", None)
        if g and "__builtins__" in g:
            b = g["__builtins__"]
            fn = b["sum"] if isinstance(b, dict) else b.sum
            return fn(xs)
