# expect: clean
# call: f([1, 2, 3])
def f(xs):
    # we do not call sum(xs) here, we loop
    label = "sum(xs) and np.mean(xs) are banned"
    total = 0
    for x in xs:
        total += x
    return f"{label}: {total}"
