# expect: statistics.mean static banned-call
# expect: statistics.mean runtime
# call: f([1, 2, 3])
import importlib


def f(xs):
    return importlib.import_module("statistics").mean(xs)
