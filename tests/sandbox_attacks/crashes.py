import sys

def segfault():
    import ctypes
    return ctypes.string_at(0)

def recurse(n=0):
    return recurse(n + 1)

def deep_c_recursion():
    sys.setrecursionlimit(10 ** 7)
    def f(n):
        return f(n + 1) + 1
    return f(0)
