# expect: clean
# call: f([1, 2, 3])
def f(xs):
    stats = {"sum": 0, "mean": 0.0}
    for x in xs:
        stats["sum"] += x
    stats["mean"] = stats["sum"] / len(xs)
    return stats["sum"], stats.get("mean")
