# expect: statistics.fmean static banned-call
# expect: statistics.fmean runtime
# call: f([1, 2, 3])
import statistics


class Stats:
    def __init__(self, xs):
        self.xs = xs

    def average(self):
        return statistics.fmean(self.xs)


def f(xs):
    return Stats(xs).average()
