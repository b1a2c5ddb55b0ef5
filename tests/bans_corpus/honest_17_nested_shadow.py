# expect: clean
# call: f([1, 2, 3])
def f(xs):
    def mean(values):
        total = 0
        for v in values:
            total += v
        return total / len(values)

    def cumsum(values):
        out, running = [], 0
        for v in values:
            running += v
            out.append(running)
        return out
    return mean(xs), cumsum(xs)
