# __builtins__ is the module in __main__ and its dict elsewhere: both spellings are resolved.
# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
def f(xs):
    b = __builtins__
    fn = b["sum"] if isinstance(b, dict) else b.sum
    return fn(xs)
