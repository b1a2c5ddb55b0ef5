# expect: clean
# call: f([1, 2, 3])
def f(xs):
    best = None
    for mean in xs:
        if best is None or mean > best:
            best = mean
    return best
