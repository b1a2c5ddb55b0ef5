# expect: __import__ static dynamic-code
# expect: statistics.mean runtime
# call: f([1, 2, 3])
def f(xs):
    module = __import__("statis" + "tics"[: len(xs) + 1])
    return module.mean(xs)
