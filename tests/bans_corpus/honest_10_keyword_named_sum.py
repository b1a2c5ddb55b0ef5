# expect: clean
# call: f([1, 2, 3])
def report(**parts):
    return parts


def f(xs):
    total = 0
    for x in xs:
        total += x
    return report(sum=total, mean=total / len(xs), cumsum=None)
