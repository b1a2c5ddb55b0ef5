# expect: clean
# call: f([1, 2, 3])
def f(xs):
    sum = 0
    for x in xs:
        sum += x
    mean = sum / len(xs)
    return sum, mean
