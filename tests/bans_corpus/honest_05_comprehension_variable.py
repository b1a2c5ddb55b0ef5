# expect: clean
# call: f([1, 2, 3])
def f(xs):
    doubled = [sum * 2 for sum in xs]
    return {cumsum: cumsum + 1 for cumsum in doubled}
