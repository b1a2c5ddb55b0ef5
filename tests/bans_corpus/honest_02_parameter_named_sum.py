# expect: clean
# call: f([1, 2, 3])
def f(sum, mean=None):
    total = 0
    for v in sum:
        total += v
    return total if mean is None else mean
