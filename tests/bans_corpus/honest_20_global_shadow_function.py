# A module-level name bound to the student's own function everywhere.
# expect: clean
# call: f([1, 2, 3])
def my_mean(values):
    total = 0
    for v in values:
        total += v
    return total / len(values)


mean = my_mean


def f(xs):
    return mean(xs)
